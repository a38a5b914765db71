import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { writeProfile, type ProfileChange, type ProfileStore } from '../lib/write-profile';
import { profileKeys } from './get-profile';

export type { ProfileChange } from '../lib/write-profile';

/** The profiles table through supabase-js (RLS limits every call to the caller's own row). */
const profileStore: ProfileStore = {
  exists: async (userId) => {
    const { data, error } = await supabase.from('profiles').select('id').eq('user_id', userId).maybeSingle();
    if (error) throw error;
    return data !== null;
  },
  insert: async (row) => await supabase.from('profiles').insert(row),
  update: async (userId, change) => await supabase.from('profiles').update(change).eq('user_id', userId),
};

/**
 * Writes one profile field: inserts the row (id = user id) when the user has none yet,
 * otherwise updates it; an insert that loses a race is retried as an update. Throws on a
 * backend error.
 */
export async function saveProfile(userId: string, change: ProfileChange): Promise<void> {
  await writeProfile(profileStore, userId, change);
}

export function useSaveProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) => saveProfile(userId, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.detail(userId) }),
  });
}
