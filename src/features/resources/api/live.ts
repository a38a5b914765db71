import { queryOptions } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { Benefit, Live, LiveSession } from '../lib/live';

export const liveKeys = {
  /** One member's benefits and sessions (the user id keeps accounts apart in one browser). */
  member: (userId: string) => ['resources', 'live', userId] as const,
  join: (userId: string, sessionId: string) => ['resources', 'live', userId, 'join', sessionId] as const,
};

/**
 * The member's time-bound benefits and live sessions. Read again every minute, so a session's
 * Join link appears when its window opens and an access that ends leaves the page without a reload.
 */
export function liveQueryOptions(userId: string) {
  return queryOptions({
    queryKey: liveKeys.member(userId),
    queryFn: async (): Promise<Live> => {
      const [benefits, sessions] = await Promise.all([
        supabase.rpc('member_benefits'),
        supabase.rpc('member_live_sessions'),
      ]);
      if (benefits.error) throw benefits.error;
      if (sessions.error) throw sessions.error;
      return { benefits: benefits.data as Benefit[], sessions: sessions.data as LiveSession[] };
    },
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
    meta: { errorMessage: 'Could not load your live sessions' },
  });
}

/** A session's join link, handed out by the database only in its window and only to a holder. */
export function joinLinkQueryOptions(userId: string, sessionId: string) {
  return queryOptions({
    queryKey: liveKeys.join(userId, sessionId),
    queryFn: async (): Promise<string> => {
      const { data, error } = await supabase.rpc('session_join_link', { p_session: sessionId });
      if (error) throw error;
      return data as string;
    },
    staleTime: Infinity,
    meta: { errorMessage: 'Could not get the join link' },
  });
}
