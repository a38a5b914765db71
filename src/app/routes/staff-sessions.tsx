import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { paths } from '@/config/paths';
import { StaffSessionsScreen } from '@/features/staff/components/sessions-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { staffLoader } from './staff-gate';

/** The gate for /staff/sessions: the staff pages' own (staff-gate.ts). */
export function staffSessionsLoader(client: QueryClient) {
  return staffLoader(client, paths.staffSessions);
}

export const loader = staffSessionsLoader(queryClient);

export function Component() {
  const { userId } = useLoaderData<Awaited<ReturnType<ReturnType<typeof staffSessionsLoader>>>>();
  return (
    <QueryProvider>
      <StaffSessionsScreen userId={userId} />
    </QueryProvider>
  );
}
