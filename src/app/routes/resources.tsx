import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { loadMemberResources } from '@/features/resources/api/member-resources';
import { ResourcesScreen } from '@/features/resources/components/resources-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { AccountCorner } from '../account-corner';
import { requireUserId } from '../loaders';

/**
 * The gate for /resources: no session, to sign in (and back here afterwards); else the
 * member's tier and the files it opens are in the cache before the page shows, so it opens
 * complete. A failed read is left to the page ("could not load", with a retry).
 */
export function resourcesLoader(client: QueryClient) {
  return async () => {
    const userId = await requireUserId(paths.resources);
    await loadMemberResources(client, userId);
    return { userId };
  };
}

/**
 * Starts /resources' one read for a member who has just signed in, with their new access
 * token, before the sign-in page re-renders and the router sets off; the navigation's loader
 * then joins it.
 */
export function startResourcesReads(userId: string, accessToken: string) {
  return loadMemberResources(queryClient, userId, accessToken);
}

/** Asks ahead for that read's CORS preflight, while the member is still at the sign-in form. */
export { preflightMemberResources } from '@/features/resources/api/member-resources';

/**
 * Loads the account menu's code, which the page's header shows: asked for with the page's own
 * code while the member is at the sign-in form, or the page would wait for it after signing in.
 */
export { loadAccountMenu } from '../account-corner';

export const loader = resourcesLoader(queryClient);

// The page before the member's data: prerendered as resources.html (see page-shells.ts).
export { ResourcesSkeleton as HydrateFallback } from '@/features/resources/components/resources-skeleton';

export function Component() {
  const { userId } = useLoaderData<Awaited<ReturnType<ReturnType<typeof resourcesLoader>>>>();
  return (
    <QueryProvider>
      <ResourcesScreen userId={userId} renderAccountMenu={(signOut) => <AccountCorner inline signOut={signOut} />} />
    </QueryProvider>
  );
}
