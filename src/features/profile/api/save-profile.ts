import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { profileKeys } from './get-profile';

export type ProfileChange = { display_name: string | null } | { avatar_url: string };

/**
 * Writes one profile field: inserts the row (id = user id) when the user has none yet,
 * otherwise updates it. Throws on a backend error.
 */
export async function saveProfile(userId: string, change: ProfileChange): Promise<void> {
  const existing = await supabase.from('profiles').select('id').eq('user_id', userId).maybeSingle();
  if (existing.error) throw existing.error;

  const { error } = existing.data
    ? await supabase.from('profiles').update(change).eq('user_id', userId)
    : await supabase.from('profiles').insert({ id: userId, user_id: userId, ...change });
  if (error) throw error;
}

export function useSaveProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) => saveProfile(userId, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.detail(userId) }),
  });
}
