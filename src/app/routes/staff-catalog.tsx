import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { StaffCatalogScreen } from '@/features/staff/components/catalog-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { staffLoader } from './staff-gate';

/**
 * The gate for /staff/catalog: no session, to sign in (and back here afterwards); else the staff check,
 * before the page shows. The real refusal is the database's (the catalog functions raise 42501).
 */
export function staffCatalogLoader(client: QueryClient) {
  return staffLoader(client, paths.staffCatalog);
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
