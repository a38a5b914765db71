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
 * Where a page leaves the toasts on screen for the next one (src/lib/toast-handoff.ts): kept
 * here, beside the session's key, so a document's script can ask whether there are any with
 * the code it loads already, not a chunk of its own.
 */
export const CARRIED_TOASTS_KEY = 'yes-you-can-toasts';

/** Whether the page before left toasts to show. */
export function hasCarriedToasts(): boolean {
  try {
    return sessionStorage.getItem(CARRIED_TOASTS_KEY) !== null;
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

/** What an auth e-mail's link said when it opened the site (never the tokens themselves). */
export type AuthRedirect = {
  /** The page the link landed on. */
  pathname: string;
  /** GoTrue's `type`: 'invite', 'recovery', 'signup', … (null when the fragment had none). */
  type: string | null;
  /** The link was refused: expired, already used or edited. */
  error: { code: string | null; description: string | null } | null;
};

/** Reads an auth link's outcome from the address (implicit flow: the fragment; PKCE: the query). */
export function readAuthRedirect(
  location: Pick<Location, 'hash' | 'search' | 'pathname'> | undefined = globalThis.location,
): AuthRedirect | null {
  if (!location || !hasAuthRedirectInUrl(location)) return null;
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  const from = fragment.has('error_description') || fragment.has('access_token') ? fragment : query;
  const failed = from.has('error') || from.has('error_code') || from.has('error_description');
  return {
    pathname: location.pathname,
    type: from.get('type'),
    error: failed ? { code: from.get('error_code'), description: from.get('error_description') } : null,
  };
}

/**
 * The auth link this page was opened with, read once as the app starts: supabase-js takes
 * the fragment out of the address as soon as it loads, which can be before a lazy route
 * renders, so the set-password page could not read it later.
 */
export const authRedirectAtLoad: AuthRedirect | null = readAuthRedirect();
