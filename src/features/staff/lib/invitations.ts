import { z } from '@/config/zod-config';

/** How long an invitation's link works (config.toml [auth.email] otp_expiry). */
export const INVITATION_LINK_LIFETIME_MS = 60 * 60 * 1000;

const invitationRowSchema = z
  .object({
    email: z.string(),
    status: z.enum(['pending', 'sending', 'sent', 'failed', 'accepted']),
    last_error: z.string().nullable(),
    attempts: z.number(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .transform((row) => ({
    email: row.email,
    status: row.status,
    lastError: row.last_error,
    attempts: row.attempts,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  }));

export type InvitationRow = z.infer<typeof invitationRowSchema>;

/** What staff are told about one waiting invitation. */
export type WaitingState = 'budget' | 'pending' | 'sending' | 'failed' | 'expired';

/** The columns the list reads from public.buyer_invitations. */
export const INVITATION_COLUMNS = 'email, status, last_error, attempts, created_at, sent_at';

export function parseInvitations(rows: unknown): InvitationRow[] {
  return z.array(invitationRowSchema).parse(rows);
}

/**
 * Why a buyer waits, or null when they do not (sent and still good, or accepted). A pending
 * invitation refused by the e-mail budget says so (GoTrue's over_email_send_rate_limit).
 */
export function waitingState(row: InvitationRow, now: Date): WaitingState | null {
  switch (row.status) {
    case 'pending':
      return row.lastError?.startsWith('over_email_send_rate_limit') ? 'budget' : 'pending';
    case 'sending':
      return 'sending';
    case 'failed':
      return 'failed';
    case 'sent':
      return row.sentAt && now.getTime() - Date.parse(row.sentAt) > INVITATION_LINK_LIFETIME_MS ? 'expired' : null;
    case 'accepted':
      return null;
  }
}

/** Staff may queue it again unless it is being sent right now. */
export function canResend(state: WaitingState): boolean {
  return state !== 'sending';
}
