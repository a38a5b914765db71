import { describe, expect, it } from 'vitest';
import { hasAuthRedirectInUrl, readAuthRedirect } from './auth-storage';

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

describe('readAuthRedirect', () => {
  const page = (hash: string, search = '', pathname = '/auth/set-password') => ({ hash, search, pathname });

  it('reads the type of a link that opened a session, never keeping the tokens', () => {
    const read = readAuthRedirect(page('#access_token=secret&refresh_token=r&expires_in=3600&type=invite'));
    expect(read).toEqual({ pathname: '/auth/set-password', type: 'invite', error: null });
    expect(JSON.stringify(read)).not.toContain('secret');
  });

  it('reads a refused link from the fragment, as GoTrue redirects it', () => {
    expect(
      readAuthRedirect(
        page('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired'),
      ),
    ).toEqual({
      pathname: '/auth/set-password',
      type: null,
      error: { code: 'otp_expired', description: 'Email link is invalid or has expired' },
    });
  });

  it('reads an error in the query (PKCE) too, and nothing on an ordinary visit', () => {
    expect(readAuthRedirect(page('', '?error=server_error&error_description=boom'))?.error).toEqual({
      code: null,
      description: 'boom',
    });
    expect(readAuthRedirect(page('#pricing'))).toBeNull();
    expect(readAuthRedirect(page(''))).toBeNull();
  });
});
