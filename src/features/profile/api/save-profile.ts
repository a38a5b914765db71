import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { profileKeys } from './get-profile';

/** One profile field to write: the only columns a user may update. */
export type ProfileChange = { display_name: string | null } | { avatar_url: string };

/**
 * Updates one field of the user's profile row. The database creates that row for every user
 * (the on_auth_user_created trigger), so the client never inserts. Throws on a backend error,
 * and when the update matched no row: nothing was saved, and saying so beats a silent success.
 */
export async function saveProfile(userId: string, change: ProfileChange): Promise<void> {
  const { data, error } = await supabase.from('profiles').update(change).eq('user_id', userId).select('id');
  if (error) throw error;
  if (data.length === 0) throw new Error('Your profile was not found, so the change was not saved.');
}

export function useSaveProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) => saveProfile(userId, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.detail(userId) }),
  });
}
