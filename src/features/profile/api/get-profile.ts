import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { supabase } from '@/lib/supabase';

export type Profile = { displayName: string | null; avatarUrl: string | null };

export const profileKeys = {
  all: ['profiles'] as const,
  detail: (userId: string) => ['profiles', 'detail', userId] as const,
};

/** The user's profile, or null when no row exists yet. Throws on a backend error. */
export async function getProfile(userId: string): Promise<Profile | null> {
  const { data, error } = await supabase
    .from('profiles')
    .select('display_name, avatar_url')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  return data ? { displayName: data.display_name, avatarUrl: data.avatar_url } : null;
}

export function profileQueryOptions(userId: string) {
  return queryOptions({ queryKey: profileKeys.detail(userId), queryFn: () => getProfile(userId) });
}

/** The profile for the menu; per the spec a failed read is only logged (the menu falls back). */
export function useProfile(userId: string) {
  const query = useQuery(profileQueryOptions(userId));
  useEffect(() => {
    if (query.error) console.error('Could not read your profile', query.error);
  }, [query.error]);
  return query.data ?? null;
}
