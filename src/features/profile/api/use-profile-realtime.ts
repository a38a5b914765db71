import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { supabase } from '@/lib/supabase';
import { profileKeys } from './get-profile';

/**
 * Follows live UPDATEs of the user's own profile row (e.g. an edit in another tab) and
 * refreshes the menu. The topic is unique per mount: two menus, or StrictMode's double
 * effect, must not share (and then remove) one channel.
 */
export function useProfileRealtime(userId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const topic = `profile-${userId}-${Math.random().toString(36).slice(2)}`;
    const channel = supabase
      .channel(topic)
      .on(
        'postgres_changes',
        { event: 'UPDATE', schema: 'public', table: 'profiles', filter: `user_id=eq.${userId}` },
        () => void queryClient.invalidateQueries({ queryKey: profileKeys.detail(userId) }),
      )
      .subscribe();
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [queryClient, userId]);
}
