import { describe, expect, it } from 'vitest';
import { profileState } from './profile-state';

describe('profileState', () => {
  it('is loading before any read has answered', () => {
    expect(profileState({ data: undefined, isError: false })).toEqual({ status: 'loading' });
  });

  it('is could-not-load when the read failed and nothing is known', () => {
    expect(profileState({ data: undefined, isError: true })).toEqual({ status: 'error' });
  });

  it('is ready with the name and picture of the row', () => {
    expect(
      profileState({ data: { displayName: 'Grace', avatarUrl: 'https://cdn.test/a.png' }, isError: false }),
    ).toEqual({
      status: 'ready',
      displayName: 'Grace',
      avatarUrl: 'https://cdn.test/a.png',
      refreshFailed: false,
    });
  });

  it('is ready with nothing set when the user has no row (none, not an error)', () => {
    expect(profileState({ data: null, isError: false })).toEqual({
      status: 'ready',
      displayName: null,
      avatarUrl: null,
      refreshFailed: false,
    });
  });

  it('keeps the last good answer when a later read fails, and says the refresh failed', () => {
    expect(profileState({ data: { displayName: 'Grace', avatarUrl: null }, isError: true })).toEqual({
      status: 'ready',
      displayName: 'Grace',
      avatarUrl: null,
      refreshFailed: true,
    });
  });
});
