import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callAccountFunction } from '@/lib/account-function';
import { memberKeys } from './list-members';

export type Erasure = { userId: string; email: string; reason: string };

/**
 * Staff erase a member through the account function: it checks, server-side, that
 * the caller is staff, that the typed e-mail is the member's, that the member is not staff nor
 * the caller, and logs who erased whom and why.
 */
export async function eraseMember({ userId, email, reason }: Erasure): Promise<void> {
  await callAccountFunction<{ erased: boolean }>('erase', { user_id: userId, email, reason });
}

/** Erases, then reads the member list again (the member is gone from it). */
export function useEraseMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: eraseMember,
    onSettled: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
    meta: { errorMessage: 'Could not erase the member' },
  });
}
