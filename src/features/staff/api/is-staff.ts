import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
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
  return queryOptions({ queryKey: staffKeys.isStaff(userId), queryFn: getIsStaff });
}

/** true / false once known; a failed check is logged and counts as "not staff". */
export function useIsStaff(userId: string) {
  const query = useQuery(isStaffQueryOptions(userId));
  useEffect(() => {
    if (query.error) console.error('Could not check staff access', query.error);
  }, [query.error]);
  return { isStaff: query.data === true, isPending: query.isPending };
}
