import { useEffect } from 'react';
import { useRevalidator } from 'react-router-dom';
import { useAuth } from './auth-provider';

/**
 * For a page whose route loader gated on the session and handed it `userId` (null: a
 * visitor). Returns the user the page should show now, following the auth provider while
 * the page is open: null as soon as the session ends (a sign-out in another tab, an expiry
 * that cannot be refreshed), the new user when another account signs in.
 *
 * A sign-out is answered from the provider, not by running the loader again: another tab's
 * sign-out reaches this tab as a broadcast event that can arrive before this tab's
 * localStorage sees the session removed, so a loader run at that moment could still read
 * the old session and let the page stay. Another account signing in does re-run the loader
 * (it prefetches for the new user). `paused` holds everything while the page's own sign-out
 * runs (that one goes home instead).
 */
export function useSessionRevalidation(
  userId: string | null,
  { paused = false }: { paused?: boolean } = {},
): string | null {
  const auth = useAuth({ connect: true });
  const { revalidate } = useRevalidator();
  const current = auth.status === 'loading' ? userId : (auth.user?.id ?? null);
  const switched = current !== null && current !== userId;

  useEffect(() => {
    if (switched && !paused) void revalidate();
  }, [switched, paused, revalidate]);

  return paused ? userId : current;
}
