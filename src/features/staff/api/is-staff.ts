import { queryOptions, useQuery } from '@tanstack/react-query';
import { readState, type ReadState } from '@/lib/read-state';
import { supabase } from '@/lib/supabase';

export const staffKeys = {
  isStaff: (userId: string) => ['staff', 'is-staff', userId] as const,
};

/** Asks the database whether the caller is staff (the database decides; RLS enforces). */
export async function getIsStaff(): Promise<boolean> {
  const { data, error } = await supabase.rpc('is_staff');
  if (error) throw error;
  return data === true;
}

export function isStaffQueryOptions(userId: string) {
  return queryOptions({
    queryKey: staffKeys.isStaff(userId),
    queryFn: getIsStaff,
    meta: { errorMessage: 'Could not check staff access' },
  });
}

/**
 * Staff, not staff, or could not check. A failed check is its own state ("could not check
 * your access"), never "staff only"; the database refuses non-staff whatever the page shows.
 */
export function useIsStaff(userId: string): ReadState<boolean> {
  return readState(useQuery(isStaffQueryOptions(userId)));
}
