import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { isStaffQueryOptions } from '@/features/staff/api/is-staff';
import { StaffDashboardScreen } from '@/features/staff/components/dashboard-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { prefetchGate, requireUserId } from '../loaders';

/**
 * The gate for /staff: no session, to sign in (and back here afterwards); else the staff check,
 * before the page shows. The real refusal is the database's (staff_dashboard raises 42501).
 */
export function staffDashboardLoader(client: QueryClient) {
  return async () => {
    const userId = await requireUserId(paths.staff);
    await prefetchGate(client, isStaffQueryOptions(userId));
    return { userId };
  };
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
