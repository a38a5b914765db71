import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberCoaching } from '../lib/coaching';
import { coachingKeys } from './coaching-keys';
import { callStaffRpc, StaffRpcError } from './staff-rpc';

/**
 * Gives (+) or takes (−) a member's sessions with a reason; answers their new allowance. The
 * database's refusal of a blank reason (22023) is said as the form says it.
 */
export async function adjustCoaching(userId: string, delta: number, reason: string): Promise<number> {
  try {
    return Number(await callStaffRpc('staff_adjust_coaching', { p_user: userId, p_delta: delta, p_reason: reason }));
  } catch (caught) {
    if (caught instanceof StaffRpcError && caught.message === 'a reason is required') {
      throw new StaffRpcError('Give a reason: it is kept with the adjustment.', caught.code);
    }
    throw caught;
  }
}

export type CoachingAdjustment = { userId: string; delta: number; reason: string };

/**
 * The member's count changes at once (the allowance the database answered, less what is
 * booked), then their coaching is read again for the adjustment's line in the history.
 */
export function useAdjustCoaching() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, delta, reason }: CoachingAdjustment) => adjustCoaching(userId, delta, reason),
    onSuccess: (sessions, { userId }) => {
      queryClient.setQueryData<MemberCoaching>(coachingKeys.member(userId), (old) =>
        old ? { ...old, count: { ...old.count, sessions, left: Math.max(0, sessions - old.count.used) } } : old,
      );
    },
    onSettled: (_sessions, _error, { userId }) =>
      queryClient.invalidateQueries({ queryKey: coachingKeys.member(userId) }),
    meta: { errorMessage: 'Could not adjust the member’s sessions' },
  });
}
