import type { QueryClient } from '@tanstack/react-query';
import { useLoaderData } from 'react-router-dom';
import { isStaffQueryOptions } from '@/features/staff/api/is-staff';
import { AdminUploadScreen } from '@/features/staff/components/admin-upload-screen';
import { queryClient, QueryProvider } from '@/lib/query-client';
import { prefetchGate, sessionUserId } from '../loaders';

/**
 * The gate for /admin-upload: the session, then the staff check, before the page shows.
 * Visitors are not redirected: the page tells them it is for staff and offers Sign In.
 */
export function adminUploadLoader(client: QueryClient) {
  return async () => {
    const userId = await sessionUserId();
    if (userId) await prefetchGate(client, isStaffQueryOptions(userId));
    return { userId };
  };
}

export const loader = adminUploadLoader(queryClient);

export function Component() {
  const { userId } = useLoaderData<Awaited<ReturnType<ReturnType<typeof adminUploadLoader>>>>();
  return (
    <QueryProvider>
      <AdminUploadScreen userId={userId} />
    </QueryProvider>
  );
}
