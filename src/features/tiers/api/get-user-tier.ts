import { queryOptions, useQuery } from '@tanstack/react-query';
import { isTier, type Tier } from '@/content/tiers';
import { readState, type ReadState } from '@/lib/read-state';
import { supabase } from '@/lib/supabase';

export const tierKeys = {
  all: ['tiers'] as const,
  detail: (userId: string) => ['tiers', 'detail', userId] as const,
};

/**
 * The user's tier, or null when they have none. Throws on a backend error. postgrest-js's
 * own retries are off: react-query's (1 s, 2 s, then stop) are the one retry layer, else a
 * 503 or a refused connection would keep the page waiting about 30 s before saying so.
 */
export async function getUserTier(userId: string): Promise<Tier | null> {
  const { data, error } = await supabase
    .from('user_tiers')
    .select('tier')
    .eq('user_id', userId)
    .maybeSingle()
    .retry(false);
  if (error) throw error;
  return data && isTier(data.tier) ? data.tier : null;
}

export function userTierQueryOptions(userId: string) {
  return queryOptions({
    queryKey: tierKeys.detail(userId),
    queryFn: () => getUserTier(userId),
    // Logged by the query cache (the spec logs tier errors).
    meta: { errorMessage: 'Could not read your subscription tier' },
  });
}

/**
 * The signed-in user's tier: a tier, none (`null`), or could not load. The spec treats a
 * failed read as "no tier"; we do not (docs/decisions/024-tier-read-errors.md): a paying
 * member must never be told they own nothing because of a backend hiccup.
 */
export function useUserTier(userId: string): ReadState<Tier | null> {
  return readState(useQuery(userTierQueryOptions(userId)));
}
