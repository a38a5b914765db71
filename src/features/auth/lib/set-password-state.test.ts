import { describe, expect, it } from 'vitest';
import type { AuthRedirect } from '@/config/auth-storage';
import { setPasswordState } from './set-password-state';

const here = '/auth/set-password';
const link = (type: string | null, error: AuthRedirect['error'] = null, pathname = here): AuthRedirect => ({
  pathname,
  type,
  error,
});
const refused = { code: 'otp_expired', description: 'Email link is invalid or has expired' };

describe('setPasswordState', () => {
  it('waits while the session is read', () => {
    expect(setPasswordState('loading', null, link('invite'))).toEqual({ kind: 'checking' });
  });

  it('an invitation link that signed the buyer in asks for their first password', () => {
    expect(setPasswordState('signed-in', 'buyer@example.com', link('invite'))).toEqual({
      kind: 'ready',
      purpose: 'invite',
      email: 'buyer@example.com',
    });
  });

  it('a sign-up confirmation link asks for the password (one typed before the address was proven is gone)', () => {
    expect(setPasswordState('signed-in', 'new@example.com', link('signup'))).toEqual({
      kind: 'ready',
      purpose: 'signup',
      email: 'new@example.com',
    });
  });

  it('a recovery link, or a signed-in visit without one, asks for a new password', () => {
    expect(setPasswordState('signed-in', 'a@b.co', link('recovery'))).toMatchObject({ purpose: 'recovery' });
    expect(setPasswordState('signed-in', 'a@b.co', null)).toMatchObject({ kind: 'ready', purpose: 'recovery' });
  });

  it('a refused link is reported, even to someone signed in already and before the session is read', () => {
    expect(setPasswordState('signed-in', 'a@b.co', link(null, refused))).toEqual({ kind: 'link-error' });
    expect(setPasswordState('loading', null, link(null, refused))).toEqual({ kind: 'link-error' });
  });

  it('a link that landed on another page says nothing here', () => {
    expect(setPasswordState('signed-out', null, link(null, refused, '/'))).toEqual({ kind: 'no-link' });
    expect(setPasswordState('signed-in', 'a@b.co', link('invite', null, '/'))).toMatchObject({ purpose: 'recovery' });
  });

  it('signed out without a link: explain and offer one', () => {
    expect(setPasswordState('signed-out', null, null)).toEqual({ kind: 'no-link' });
  });
});
