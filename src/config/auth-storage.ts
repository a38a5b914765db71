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
