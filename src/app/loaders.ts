import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { redirect } from 'react-router-dom';
import { hasAuthRedirectInUrl, hasStoredSession } from '@/config/auth-storage';
import { paths } from '@/config/paths';
import { loadSupabase } from '@/lib/auth-provider';

/**
 * The signed-in user's id, from the stored session (supabase-js refreshes an expired access
 * token first), or null. Route loaders gate on it; the client is imported here, inside the
 * lazy member routes, never in the landing page's chunk.
 *
 * No stored session (and none arriving in the URL from an auth e-mail) is a sure "signed
 * out", answered without the client: a sign-out in another tab clears the storage before it
 * tells this tab, and the re-run loader must not queue behind the cross-tab auth lock that
 * the other tab's sign-out and start-up hold.
 */
export async function sessionUserId(): Promise<string | null> {
  if (!hasStoredSession() && !hasAuthRedirectInUrl()) return null;
  const { supabase } = await loadSupabase();
  const { data, error } = await supabase.auth.getSession();
  if (error) console.error('Could not read the session', error);
  return data.session?.user.id ?? null;
}

/** The user's id, or a redirect to sign in that comes back to `path` afterwards. */
export async function requireUserId(path: string): Promise<string> {
  const userId = await sessionUserId();
  if (!userId) throw redirect(`${paths.auth}?next=${path}`);
  return userId;
}

/**
 * Prefetches a gating read (tier, staff check) so the page opens with its answer. Once and
 * without retries: a failed read does not hold the navigation for the backoff, nor send the
 * user to the error screen; the page shows "could not load" (its own hook retries, with
 * backoff, and offers a retry button). The query cache logs the failure.
 */
export async function prefetchGate<T, TKey extends QueryKey>(
  client: QueryClient,
  options: FetchQueryOptions<T, Error, T, TKey>,
): Promise<void> {
  try {
    await client.ensureQueryData({ ...options, retry: false });
  } catch {
    // Shown by the page, logged by the cache.
  }
}
