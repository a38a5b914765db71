import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Tier } from '@/content/tiers';
import { tierKeys } from '@/features/tiers';
import { memberKeys } from './list-members';
import { callStaffRpc } from './staff-rpc';

/** A staff grant, replacing the member's active one; the database audits who, when and why. */
export async function grantTier(userId: string, tier: Tier, reason: string): Promise<void> {
  await callStaffRpc('grant_tier', { target_user: userId, new_tier: tier, reason });
}

/** Ends the member's active staff grant; their tier falls back to their purchases. */
export async function revokeTier(userId: string, reason: string): Promise<void> {
  await callStaffRpc('revoke_tier', { target_user: userId, reason });
}

export type TierChange = { userId: string; reason: string } & ({ kind: 'grant'; tier: Tier } | { kind: 'revoke' });

/**
 * Grants or revokes; afterwards the list and the member are read again (their tier and its
 * source changed), and any cached tier (staff changing their own account).
 */
export function useChangeMemberTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TierChange) =>
      change.kind === 'grant'
        ? grantTier(change.userId, change.tier, change.reason)
        : revokeTier(change.userId, change.reason),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: memberKeys.all }),
        queryClient.invalidateQueries({ queryKey: tierKeys.all }),
      ]),
    meta: { errorMessage: 'Could not change the member’s tier' },
  });
}
