import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { ResourcesScreen } from '@/features/resources/components/resources-screen';
import { userTierQueryOptions } from '@/features/tiers';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { prefetchGate, requireUserId } from '../loaders';

/**
 * The gate for /resources: no session, to sign in (and back here afterwards); else the
 * tier is fetched before the page shows, so it opens with the right cards. The file lists
 * follow from the tier, in the page.
 */
export function resourcesLoader(client: QueryClient) {
  return async () => {
    const userId = await requireUserId(paths.resources);
    await prefetchGate(client, userTierQueryOptions(userId));
    return { userId };
  };
}

export const loader = resourcesLoader(queryClient);

export function Component() {
  const { userId } = useLoaderData<Awaited<ReturnType<ReturnType<typeof resourcesLoader>>>>();
  return (
    <QueryProvider>
      <ResourcesScreen userId={userId} />
    </QueryProvider>
  );
}
