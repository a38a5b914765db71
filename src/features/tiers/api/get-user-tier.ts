import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isTier, type Tier } from '@/content/tiers';
import { supabase } from '@/lib/supabase';

export const tierKeys = {
  all: ['tiers'] as const,
  detail: (userId: string) => ['tiers', 'detail', userId] as const,
};

/** The user's tier, or null when they have none. Throws on a backend error. */
export async function getUserTier(userId: string): Promise<Tier | null> {
  const { data, error } = await supabase.from('user_tiers').select('tier').eq('user_id', userId).maybeSingle();
  if (error) throw error;
  return data && isTier(data.tier) ? data.tier : null;
}

export function userTierQueryOptions(userId: string) {
  return queryOptions({ queryKey: tierKeys.detail(userId), queryFn: () => getUserTier(userId) });
}

/**
 * The signed-in user's tier. Per the spec a failed read is logged and treated as "no
 * tier": the page then shows the no-subscription notice instead of an error.
 */
export function useUserTier(userId: string) {
  const query = useQuery(userTierQueryOptions(userId));
  useEffect(() => {
    if (query.error) console.error('Could not read your subscription tier', query.error);
  }, [query.error]);
  return { tier: query.data ?? null, isPending: query.isPending };
}
