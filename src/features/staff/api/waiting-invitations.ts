import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { waitingInvitationsCopy } from '@/content/invitations';
import { supabase } from '@/lib/supabase';
import { readState, type ReadState } from '@/lib/read-state';
import {
  INVITATION_COLUMNS,
  INVITATION_LINK_LIFETIME_MS,
  parseInvitations,
  type InvitationRow,
} from '../lib/invitations';
import { retryUnlessRefused } from './list-members';
import { StaffRpcError, toStaffError } from './staff-rpc';

export const invitationKeys = {
  waiting: ['staff', 'invitations', 'waiting'] as const,
};

/** The list refreshes while open: the scheduled run sends waiting invitations every minute. */
const REFRESH_MS = 30_000;

/**
 * Every invitation that is pending, being sent, failed, or sent over an hour ago (its link has
 * expired unless accepted, which would have made it `accepted`), oldest first. Staff read the
 * table through its select policy (migration 20261126010000); anyone else reads no rows.
 */
export async function listWaitingInvitations(now = new Date()): Promise<InvitationRow[]> {
  const expiredBefore = new Date(now.getTime() - INVITATION_LINK_LIFETIME_MS).toISOString();
  const { data, error } = await supabase
    .from('buyer_invitations')
    .select(INVITATION_COLUMNS)
    .or(`status.in.(pending,sending,failed),and(status.eq.sent,sent_at.lt.${expiredBefore})`)
    .order('created_at', { ascending: true })
    .limit(1000)
    .retry(false);
  if (error) throw toStaffError(error);
  return parseInvitations(data);
}

export function waitingInvitationsQueryOptions() {
  return queryOptions({
    queryKey: invitationKeys.waiting,
    queryFn: () => listWaitingInvitations(),
    retry: retryUnlessRefused,
    refetchInterval: REFRESH_MS,
    meta: { errorMessage: 'Could not list waiting invitations' },
  });
}

export function useWaitingInvitations(): ReadState<InvitationRow[]> {
  return readState(useQuery(waitingInvitationsQueryOptions()));
}

/** Puts a buyer's invitation back in the queue (staff only; the next scheduled run sends it). */
export async function resendInvitation(email: string): Promise<void> {
  const { error } = await supabase.rpc('staff_resend_invitation', { p_email: email }).retry(false);
  if (error?.code === 'P0002') throw new StaffRpcError(waitingInvitationsCopy.nothingToResend, error.code);
  if (error) throw toStaffError(error);
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationKeys.waiting }),
    meta: { errorMessage: 'Could not queue the invitation' },
  });
}
