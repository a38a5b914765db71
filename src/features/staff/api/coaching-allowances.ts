import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tier } from '@/content/tiers';
import { readState, type ReadState } from '@/lib/read-state';
import { supabase } from '@/lib/supabase';
import { coachingFieldMessages, coachingRefusal, type CoachingAllowance, type CoachingFormData } from '../lib/coaching';
import { catalogKeys } from './catalog';
import { coachingKeys } from './coaching-keys';
import { retryUnlessRefused } from './list-members';
import { callStaffRpc, StaffRpcError } from './staff-rpc';

/** Each tier's sessions, their length and booking page, in the tiers' order (any signed-in user reads them). */
export async function listCoachingAllowances(): Promise<CoachingAllowance[]> {
  const { data, error } = await supabase
    .from('coaching_allowances')
    .select('tier, sessions, minutes, booking_url, updated_at')
    .order('tier', { ascending: true })
    .retry(false);
  if (error) throw error;
  return data.map((row) => ({
    tier: row.tier,
    sessions: row.sessions,
    minutes: row.minutes,
    bookingUrl: row.booking_url,
    updatedAt: row.updated_at,
  }));
}

export function useCoachingAllowances(): ReadState<CoachingAllowance[]> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: coachingKeys.allowances,
        queryFn: listCoachingAllowances,
        retry: retryUnlessRefused,
        meta: { errorMessage: 'Could not read the coaching allowances' },
      }),
    ),
  );
}

/**
 * Saves a tier's coaching (staff only; audited). A value the table's checks refuse (23514) is
 * said in words, with the field in the error's hint for the form to mark.
 */
export async function saveCoaching(tier: Tier, data: CoachingFormData): Promise<void> {
  try {
    await callStaffRpc('staff_save_coaching', {
      p_tier: tier,
      p_sessions: data.sessions,
      p_minutes: data.minutes,
      p_booking_url: data.bookingUrl,
    });
  } catch (caught) {
    const field = caught instanceof StaffRpcError ? coachingRefusal(caught) : null;
    if (!field || !(caught instanceof StaffRpcError)) throw caught;
    throw new StaffRpcError(`The database refused it. ${coachingFieldMessages[field]}`, caught.code, field);
  }
}

/** After a save the allowances and the catalog (its list of changes) are read again. */
export function useSaveCoaching() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tier, data }: { tier: Tier; data: CoachingFormData }) => saveCoaching(tier, data),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: coachingKeys.allowances }),
        queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
      ]),
    meta: { errorMessage: 'Could not save the coaching' },
  });
}
