import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { isStaffQueryOptions } from '@/features/staff/api/is-staff';
import { StaffCatalogScreen } from '@/features/staff/components/catalog-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { prefetchGate, requireUserId } from '../loaders';

/**
 * The gate for /staff/catalog: no session, to sign in (and back here afterwards); else the staff check,
 * before the page shows. The real refusal is the database's (the catalog functions raise 42501).
 */
export function staffCatalogLoader(client: QueryClient) {
  return async () => {
    const userId = await requireUserId(paths.staffCatalog);
    await prefetchGate(client, isStaffQueryOptions(userId));
    return { userId };
  };
}

export const loader = staffCatalogLoader(queryClient);

export function Component() {
  const { userId } = useLoaderData<Awaited<ReturnType<ReturnType<typeof staffCatalogLoader>>>>();
  return (
    <QueryProvider>
      <StaffCatalogScreen userId={userId} />
    </QueryProvider>
  );
}
