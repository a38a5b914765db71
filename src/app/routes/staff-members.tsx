import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { isStaffQueryOptions } from '@/features/staff/api/is-staff';
import { StaffMembersScreen } from '@/features/staff/components/members-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { prefetchGate, requireUserId } from '../loaders';

/**
 * The gate for /staff/members: no session, to sign in (and back here afterwards); else the
 * staff check, before the page shows. Non-staff get the staff-only page; the real refusal is
 * the database's (the members functions raise 42501 for them).
 */
export function staffMembersLoader(client: QueryClient) {
  return async () => {
    const userId = await requireUserId(paths.staffMembers);
    await prefetchGate(client, isStaffQueryOptions(userId));
    return { userId };
  };
}

export const loader = staffMembersLoader(queryClient);

export function Component() {
  const { userId } = useLoaderData<Awaited<ReturnType<ReturnType<typeof staffMembersLoader>>>>();
  return (
    <QueryProvider>
      <StaffMembersScreen userId={userId} />
    </QueryProvider>
  );
}
