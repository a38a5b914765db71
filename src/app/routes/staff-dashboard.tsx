import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { StaffDashboardScreen } from '@/features/staff/components/dashboard-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { staffLoader } from './staff-gate';

/**
 * The gate for /staff: no session, to sign in (and back here afterwards); else the staff check,
 * before the page shows. The real refusal is the database's (staff_dashboard raises 42501).
 */
export function staffDashboardLoader(client: QueryClient) {
  return staffLoader(client, paths.staff);
}

export const loader = staffDashboardLoader(queryClient);

export function Component() {
  const { userId } = useLoaderData<Awaited<ReturnType<ReturnType<typeof staffDashboardLoader>>>>();
  return (
    <QueryProvider>
      <StaffDashboardScreen userId={userId} />
    </QueryProvider>
  );
}
