import { queryOptions } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { Booking, Coaching } from '../lib/coaching';

export const coachingKeys = {
  /** One member's coaching (the user id keeps accounts apart in one browser). */
  member: (userId: string) => ['resources', 'coaching', userId] as const,
};

/**
 * The member's sessions (allowance, used, left, booking page) and their bookings with the notes
 * meant for them. Read again when the member comes back to the tab (from the booking page).
 */
export function coachingQueryOptions(userId: string) {
  return queryOptions({
    queryKey: coachingKeys.member(userId),
    queryFn: async (): Promise<Coaching> => {
      const [summary, bookings] = await Promise.all([
        supabase.rpc('member_coaching'),
        supabase
          .from('coaching_bookings')
          .select('id, starts_at, ends_at, meeting_url, status, member_note')
          .eq('user_id', userId)
          .eq('status', 'booked')
          .order('starts_at', { ascending: true }),
      ]);
      if (summary.error) throw summary.error;
      if (bookings.error) throw bookings.error;
      return { ...(summary.data as Omit<Coaching, 'bookings'>), bookings: bookings.data as Booking[] };
    },
    staleTime: 0,
    refetchOnWindowFocus: true,
    meta: { errorMessage: 'Could not load your coaching' },
  });
}
