import { queryOptions, useQuery } from '@tanstack/react-query';
import { readState, type ReadState } from '@/lib/read-state';
import { supabase } from '@/lib/supabase';
import {
  BOOKING_COLUMNS,
  parseCoachingCount,
  toStaffBooking,
  type Adjustment,
  type MemberCoaching,
} from '../lib/coaching';
import { coachingKeys } from './coaching-keys';
import { retryUnlessRefused } from './list-members';
import { callStaffRpc, toStaffError } from './staff-rpc';

/** At most this many bookings and adjustments of one member are shown: far more than a bundle holds. */
const MEMBER_ROWS = 200;

/** Staff's private notes on these bookings, by booking (staff read them all; nobody else any). */
async function privateNotes(bookingIds: string[]): Promise<Map<string, string>> {
  if (bookingIds.length === 0) return new Map();
  const { data, error } = await supabase
    .from('coaching_private_notes')
    .select('booking_id, note')
    .in('booking_id', bookingIds)
    .retry(false);
  if (error) throw toStaffError(error);
  return new Map(data.map((row) => [row.booking_id, row.note]));
}

/** One member's coaching: the count, every booking with staff's notes, staff's adjustments. */
export async function getMemberCoaching(userId: string): Promise<MemberCoaching> {
  const [count, bookings, adjustments] = await Promise.all([
    callStaffRpc('staff_member_coaching', { p_user: userId }),
    supabase
      .from('coaching_bookings')
      .select(BOOKING_COLUMNS)
      .eq('user_id', userId)
      .order('starts_at', { ascending: false, nullsFirst: false })
      .limit(MEMBER_ROWS)
      .retry(false),
    supabase
      .from('coaching_adjustments')
      .select('id, delta, reason, created_at')
      .eq('user_id', userId)
      .order('created_at', { ascending: false })
      .limit(MEMBER_ROWS)
      .retry(false),
  ]);
  if (bookings.error) throw toStaffError(bookings.error);
  if (adjustments.error) throw toStaffError(adjustments.error);
  const notes = await privateNotes(bookings.data.map((row) => row.id));
  return {
    count: parseCoachingCount(count),
    sessions: bookings.data.map((row) => ({ ...toStaffBooking(row), privateNote: notes.get(row.id) ?? null })),
    adjustments: adjustments.data.map((row): Adjustment => ({
      id: row.id,
      delta: row.delta,
      reason: row.reason,
      createdAt: row.created_at,
    })),
  };
}

export function memberCoachingQueryOptions(userId: string) {
  return queryOptions({
    queryKey: coachingKeys.member(userId),
    queryFn: () => getMemberCoaching(userId),
    retry: retryUnlessRefused,
    meta: { errorMessage: 'Could not read the member’s coaching' },
  });
}

export function useMemberCoaching(userId: string): ReadState<MemberCoaching> {
  return readState(useQuery(memberCoachingQueryOptions(userId)));
}
