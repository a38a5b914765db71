/**
 * Where supabase-js keeps the session in localStorage. Named here (not derived from the
 * project URL) so the landing page can tell "a session may exist" without loading the
 * Supabase client at all.
 */
export const AUTH_STORAGE_KEY = 'yes-you-can-auth';

export function hasStoredSession(): boolean {
  try {
    return typeof window !== 'undefined' && window.localStorage.getItem(AUTH_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * Whether the page was opened from an auth e-mail (sign-up confirmation, password
 * recovery): GoTrue redirects with the session, or an error, in the fragment (implicit
 * flow) or with a `code` query parameter (PKCE). Such a visit has no stored session yet,
 * but the client must load so it can take the tokens out of the address bar and sign in.
 */
export function hasAuthRedirectInUrl(location: Pick<Location, 'hash' | 'search'> | undefined = globalThis.location) {
  if (!location) return false;
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  return (
    fragment.has('access_token') ||
    fragment.has('error_description') ||
    query.has('code') ||
    query.has('error_description')
  );
}
