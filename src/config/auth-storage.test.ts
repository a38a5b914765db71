import { describe, expect, it } from 'vitest';
import { hasAuthRedirectInUrl } from './auth-storage';

const at = (hash: string, search = '') => ({ hash, search });

describe('hasAuthRedirectInUrl', () => {
  it('sees a session in the fragment (implicit flow: confirmation and recovery links)', () => {
    expect(hasAuthRedirectInUrl(at('#access_token=a&refresh_token=b&type=signup'))).toBe(true);
  });

  it('sees an auth error in the fragment or the query, so the client can report it', () => {
    expect(hasAuthRedirectInUrl(at('#error=access_denied&error_description=Email+link+is+invalid'))).toBe(true);
    expect(hasAuthRedirectInUrl(at('', '?error=server_error&error_description=boom'))).toBe(true);
  });

  it('sees a PKCE code in the query', () => {
    expect(hasAuthRedirectInUrl(at('', '?code=3f1c'))).toBe(true);
  });

  it('ignores ordinary visits, in-page anchors and other parameters', () => {
    expect(hasAuthRedirectInUrl(at('', ''))).toBe(false);
    expect(hasAuthRedirectInUrl(at('#pricing', ''))).toBe(false);
    expect(hasAuthRedirectInUrl(at('', '?next=%2Fresources'))).toBe(false);
    expect(hasAuthRedirectInUrl(at('#token_type=bearer', '?utm_source=mail'))).toBe(false);
  });
});
