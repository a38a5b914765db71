import { useEffect } from 'react';
import { useRevalidator } from 'react-router-dom';
import { useAuth } from './auth-provider';

/**
 * For a page whose route loader gated on the session and handed it `userId` (null: a
 * visitor). When the session changes while the page is open (a sign-out in another tab, an
 * expiry that cannot be refreshed, a sign-in elsewhere) the loader runs again and decides
 * anew: a redirect to sign in, or the page for the new user. `paused` holds it while the
 * page's own sign-out runs (that one goes home instead).
 */
export function useSessionRevalidation(userId: string | null, { paused = false }: { paused?: boolean } = {}) {
  const auth = useAuth({ connect: true });
  const { revalidate } = useRevalidator();
  const current = auth.status === 'loading' ? userId : (auth.user?.id ?? null);
  const changed = current !== userId;

  useEffect(() => {
    if (changed && !paused) void revalidate();
  }, [changed, paused, revalidate]);
}
