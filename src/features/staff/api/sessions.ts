import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { readState, type ReadState } from '@/lib/read-state';
import { supabase } from '@/lib/supabase';
import { BOOKING_COLUMNS, toStaffBooking, type StaffBooking } from '../lib/coaching';
import { coachingKeys } from './coaching-keys';
import { memberDetailQueryOptions } from './get-member-detail';
import { retryUnlessRefused } from './list-members';
import { toStaffError } from './staff-rpc';

/** The lists refresh while open: bookings keep arriving from the providers' webhooks. */
const REFRESH_MS = 60_000;
/** More than a programme's diary holds; the page says when the list is cut. */
export const SESSIONS_LIMIT = 500;

/**
 * Every booked session not over yet at `now` (one in progress included), soonest first,
 * matched or not. Staff read every booking (RLS).
 */
export async function listUpcomingSessions(now = new Date()): Promise<StaffBooking[]> {
  const at = now.toISOString();
  const { data, error } = await supabase
    .from('coaching_bookings')
    .select(BOOKING_COLUMNS)
    .eq('status', 'booked')
    .or(`ends_at.gte.${at},and(ends_at.is.null,starts_at.gte.${at})`)
    .order('starts_at', { ascending: true })
    .limit(SESSIONS_LIMIT)
    .retry(false);
  if (error) throw toStaffError(error);
  return data.map(toStaffBooking);
}

/** Bookings that matched no member, soonest session first (one with no time last). */
export async function listUnmatchedBookings(): Promise<StaffBooking[]> {
  const { data, error } = await supabase
    .from('coaching_bookings')
    .select(BOOKING_COLUMNS)
    .is('user_id', null)
    .order('starts_at', { ascending: true, nullsFirst: false })
    .limit(SESSIONS_LIMIT)
    .retry(false);
  if (error) throw toStaffError(error);
  return data.map(toStaffBooking);
}

export type CoachingAttention = { unmatched: number; overAllowance: number };

/**
 * For the dashboard: the bookings to assign, and the booked sessions still to come that were
 * booked with no session left (past ones are held: nothing to act on any more).
 */
export async function countCoachingAttention(now = new Date()): Promise<CoachingAttention> {
  const at = now.toISOString();
  const [unmatched, over] = await Promise.all([
    supabase.from('coaching_bookings').select('id', { count: 'exact', head: true }).is('user_id', null).retry(false),
    supabase
      .from('coaching_bookings')
      .select('id', { count: 'exact', head: true })
      .eq('status', 'booked')
      .eq('over_allowance', true)
      .or(`ends_at.gte.${at},and(ends_at.is.null,starts_at.gte.${at})`)
      .retry(false),
  ]);
  if (unmatched.error) throw toStaffError(unmatched.error);
  if (over.error) throw toStaffError(over.error);
  return { unmatched: unmatched.count ?? 0, overAllowance: over.count ?? 0 };
}

export function useUpcomingSessions(): ReadState<StaffBooking[]> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: coachingKeys.upcoming,
        queryFn: () => listUpcomingSessions(),
        retry: retryUnlessRefused,
        refetchInterval: REFRESH_MS,
        meta: { errorMessage: 'Could not list the upcoming sessions' },
      }),
    ),
  );
}

export function useUnmatchedBookings(): ReadState<StaffBooking[]> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: coachingKeys.unmatched,
        queryFn: listUnmatchedBookings,
        retry: retryUnlessRefused,
        refetchInterval: REFRESH_MS,
        meta: { errorMessage: 'Could not list the unmatched bookings' },
      }),
    ),
  );
}

export function useCoachingAttention(): ReadState<CoachingAttention> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: coachingKeys.attention,
        queryFn: () => countCoachingAttention(),
        retry: retryUnlessRefused,
        refetchInterval: REFRESH_MS,
        meta: { errorMessage: 'Could not count the coaching bookings' },
      }),
    ),
  );
}

/**
 * The account e-mail of each member these bookings belong to, as staff_member_detail answers it
 * (a booking keeps the e-mail typed on the booking page, which may be another). Shares the
 * members page's cache; an e-mail not read yet, or not readable, is simply absent.
 */
export function useMemberEmails(bookings: readonly StaffBooking[]): ReadonlyMap<string, string> {
  const ids = [...new Set(bookings.flatMap((booking) => (booking.userId ? [booking.userId] : [])))];
  const details = useQueries({ queries: ids.map((id) => memberDetailQueryOptions(id)) });
  return new Map(
    ids.flatMap((id, index) => {
      const email = details[index]?.data?.email;
      return email ? [[id, email] as const] : [];
    }),
  );
}
