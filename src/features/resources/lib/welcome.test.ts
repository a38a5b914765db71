import { describe, expect, it } from 'vitest';
import { FIRST_SIGN_IN_WINDOW_MS, isFirstSignIn } from './welcome';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, 0) + minutes * 60_000).toISOString();

describe('isFirstSignIn', () => {
  it('is true for a sign-up signed in at once (confirmation off)', () => {
    expect(isFirstSignIn({ created_at: at(0), email_confirmed_at: at(0), last_sign_in_at: at(0) })).toBe(true);
  });

  it('is true for an invitation accepted days after it was sent', () => {
    // The invitation made the account; accepting it confirms the e-mail and signs in.
    expect(
      isFirstSignIn({ created_at: at(0), email_confirmed_at: at(3 * 24 * 60), last_sign_in_at: at(3 * 24 * 60) }),
    ).toBe(true);
  });

  it('is false for a later sign-in', () => {
    expect(isFirstSignIn({ created_at: at(0), email_confirmed_at: at(1), last_sign_in_at: at(60 * 24) })).toBe(false);
  });

  it('ends exactly at the window', () => {
    const minutes = FIRST_SIGN_IN_WINDOW_MS / 60_000;
    expect(isFirstSignIn({ created_at: at(0), email_confirmed_at: at(0), last_sign_in_at: at(minutes) })).toBe(true);
    expect(isFirstSignIn({ created_at: at(0), email_confirmed_at: at(0), last_sign_in_at: at(minutes + 1) })).toBe(
      false,
    );
  });

  it('falls back to the creation time without a confirmation time', () => {
    expect(isFirstSignIn({ created_at: at(0), last_sign_in_at: at(2) })).toBe(true);
  });

  it('counts an account without a known sign-in as returning', () => {
    expect(isFirstSignIn({ created_at: at(0), email_confirmed_at: at(0) })).toBe(false);
    expect(isFirstSignIn({ created_at: 'not a date', last_sign_in_at: at(0) })).toBe(false);
  });
});
