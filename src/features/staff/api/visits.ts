import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { readState, type ReadState } from '@/lib/read-state';
import { parseVisits, type StaffVisits, type VisitPeriod } from '../lib/visits';
import { retryUnlessRefused } from './list-members';
import { toStaffError } from './staff-rpc';

export const visitsKeys = {
  all: ['staff', 'visits'] as const,
  period: (days: VisitPeriod) => ['staff', 'visits', days] as const,
};

/** The counts refresh while the page is open, as the sales figures do. */
const REFRESH_MS = 60_000;

/**
 * public.staff_visits as the client calls it. Its name and arguments are typed here, not read
 * from src/types/database.ts, so the call compiles whether or not the generated types list the
 * function; otherwise it is callStaffRpc: postgrest-js's retries off, the answer returned unread,
 * a failure thrown as a StaffRpcError.
 */
type StaffVisitsRpc = (
  fn: 'staff_visits',
  args: { p_days: VisitPeriod },
) => { retry(enabled: boolean): PromiseLike<{ data: unknown; error: Parameters<typeof toStaffError>[0] | null }> };

export async function getVisits(days: VisitPeriod): Promise<StaffVisits> {
  const rpc = supabase.rpc.bind(supabase) as unknown as StaffVisitsRpc;
  const { data, error } = await rpc('staff_visits', { p_days: days }).retry(false);
  if (error) throw toStaffError(error);
  return parseVisits(data);
}

export function visitsQueryOptions(days: VisitPeriod) {
  return queryOptions({
    queryKey: visitsKeys.period(days),
    queryFn: () => getVisits(days),
    retry: retryUnlessRefused,
    refetchInterval: REFRESH_MS,
    meta: { errorMessage: 'Could not load the visits' },
  });
}

/**
 * The visits of a period. While another period loads, the last one's answer stays (its `days`
 * tells them apart), so the chart keeps its visitors, which are the same 90 days whatever the period.
 */
export function useVisits(days: VisitPeriod): ReadState<StaffVisits> {
  return readState(useQuery({ ...visitsQueryOptions(days), placeholderData: keepPreviousData }));
}
