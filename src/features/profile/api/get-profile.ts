import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { Profile } from '../lib/profile-state';

export type { Profile } from '../lib/profile-state';

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
    .maybeSingle()
    // postgrest-js retries a failed GET 3 times itself (1, 2, 4 s); on top of the query
    // client's 2 retries that is 12 requests and ~20 s before "could not load". One policy.
    .retry(false);
  if (error) throw error;
  return data ? { displayName: data.display_name, avatarUrl: data.avatar_url } : null;
}

export function profileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: profileKeys.detail(userId),
    queryFn: () => getProfile(userId),
    // The spec logs a failed read; the query client does so, once the retries are spent.
    meta: { errorMessage: 'Could not read your profile' },
  });
}

/**
 * The profile read for the menu. The caller tells its three outcomes apart (`profileState`):
 * a row or none is data; a failure is "could not load", never "No name set".
 */
export function useProfile(userId: string) {
  return useQuery(profileQueryOptions(userId));
}
