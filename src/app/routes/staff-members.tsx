import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { StaffMembersScreen } from '@/features/staff/components/members-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { staffLoader } from './staff-gate';

/**
 * The gate for /staff/members: no session, to sign in (and back here afterwards); else the
 * staff check, before the page shows. Non-staff get the staff-only page; the real refusal is
 * the database's (the members functions raise 42501 for them).
 */
export function staffMembersLoader(client: QueryClient) {
  return staffLoader(client, paths.staffMembers);
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
