import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { resourceCards, resourceFolder } from '@/content/resources';
import { isUnlocked } from '@/content/tiers';
import { resourceFilesQueryOptions } from '@/features/resources/api/list-resource-files';
import { ResourcesScreen } from '@/features/resources/components/resources-screen';
import { userTierQueryOptions } from '@/features/tiers';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { AccountCorner } from '../account-corner';
import { prefetchGate, requireUserId } from '../loaders';

/**
 * The gate for /resources: no session, to sign in (and back here afterwards); else the
 * tier, then the file lists of the cards it unlocks, are fetched before the page shows, so
 * it opens complete. A failed read is left to the page ("could not load", with a retry).
 */
export function resourcesLoader(client: QueryClient) {
  return async () => {
    const userId = await requireUserId(paths.resources);
    await prefetchGate(client, userTierQueryOptions(userId));
    const tier = client.getQueryData(userTierQueryOptions(userId).queryKey);
    if (tier !== undefined) {
      const unlocked = resourceCards.filter((card) => isUnlocked(tier, card.tier));
      await Promise.all(
        unlocked.map((card) => prefetchGate(client, resourceFilesQueryOptions(resourceFolder(card), userId))),
      );
    }
    return { userId };
  };
}

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
