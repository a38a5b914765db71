import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { whenIdle } from '@/lib/after-load';
import { supabase } from '@/lib/supabase';
import { tierKeys } from './get-user-tier';

/**
 * Follows the user's own `user_tiers` row live: a purchase, refund or staff grant that the
 * database records while the page is open (an INSERT for a first tier, an UPDATE after; a
 * lost tier stays a row with `tier = null`, as the publication sends no DELETEs) refreshes
 * the tier query, and with it which cards are open. Realtime delivers the row only if the
 * user may select it (RLS), and the query reads it again rather than trusting the payload.
 *
 * Joining also refreshes once: a change made between the page's first read and the join
 * (or while a dropped socket was rejoining) would otherwise be missed. The topic is unique
 * per mount, as in `useProfileRealtime`; the channel goes on unmount, which includes the
 * page's sign-out and another account signing in (a new `userId`).
 *
 * The channel opens when the browser is next idle, not in the task that shows the page:
 * opening the socket and joining is main-thread work the first paint of the cards need not
 * wait for, and the refresh on joining covers anything recorded in between.
 */
export function useTierRealtime(userId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: tierKeys.detail(userId) });
    const filter = `user_id=eq.${userId}`;
    const topic = `user-tier-${userId}-${Math.random().toString(36).slice(2)}`;
    let channel: ReturnType<typeof supabase.channel> | undefined;
    const cancel = whenIdle(() => {
      channel = supabase
        .channel(topic)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'user_tiers', filter }, refresh)
        .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'user_tiers', filter }, refresh)
        .subscribe((status) => {
          if (status === 'SUBSCRIBED') refresh();
        });
    });
    return () => {
      cancel();
      if (channel) void supabase.removeChannel(channel);
    };
  }, [queryClient, userId]);
}
