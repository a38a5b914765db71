import type { QueryClient } from '@tanstack/react-query';
import { isStaffQueryOptions } from '@/features/staff/api/is-staff';
import { prefetchGate, requireUserId } from '../loaders';

/**
 * The gate of every /staff page, for `path`: no session, to sign in (and back there afterwards);
 * else the staff check, before the page shows. Non-staff get the staff-only page (StaffScreen);
 * the real refusal is the database's (the staff functions raise 42501, RLS shows staff's rows
 * to staff only).
 */
export function staffLoader(client: QueryClient, path: string) {
  return async (): Promise<{ userId: string }> => {
    const userId = await requireUserId(path);
    await prefetchGate(client, isStaffQueryOptions(userId));
    return { userId };
  };
}
