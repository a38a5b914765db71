import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { resourceCards, resourceFolder, type ResourceCard } from '@/content/resources';
import { isUnlocked } from '@/content/tiers';
import { resourceFilesQueryOptions } from '@/features/resources/api/list-resource-files';
import { ResourcesScreen } from '@/features/resources/components/resources-screen';
import { userTierQueryOptions } from '@/features/tiers';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { AccountCorner } from '../account-corner';
import { prefetchGate, requireUserId } from '../loaders';

/**
 * The gate for /resources: no session, to sign in (and back here afterwards); else the
 * tier and the file lists are fetched before the page shows, so it opens complete. A
 * failed read is left to the page ("could not load", with a retry).
 *
 * The lists do not wait for the tier: every card's folder is asked for at once, beside the
 * tier, so a member who has just signed in waits for one round of reads, not two (on a
 * phone, each read is a preflight and a request). Storage's policies decide what a list
 * holds: a folder above the member's tier lists as empty, and once the tier is known those
 * answers are dropped from the cache, so a card opened later (an upgrade) reads its folder
 * afresh. See docs/decisions/077-sign-in-to-files-in-one-round.md.
 */
export function resourcesLoader(client: QueryClient) {
  return async () => {
    const userId = await requireUserId(paths.resources);
    // The tier first: on HTTP/1.1 the browser opens six connections to a host at most.
    const tierRead = prefetchGate(client, userTierQueryOptions(userId));
    const lists = resourceCards.map((card) => {
      const options = resourceFilesQueryOptions(resourceFolder(card), userId);
      return { card, queryKey: options.queryKey, read: prefetchGate(client, options) };
    });
    await tierRead;
    const tier = client.getQueryData(userTierQueryOptions(userId).queryKey);
    const opens = (card: ResourceCard) => tier !== undefined && isUnlocked(tier, card.tier);
    for (const { card, queryKey, read } of lists) {
      if (!opens(card)) void read.then(() => client.removeQueries({ queryKey, exact: true }));
    }
    await Promise.all(lists.filter(({ card }) => opens(card)).map(({ read }) => read));
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
