import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { RetryButton } from '@/components/ui/retry-button';
import { Spinner } from '@/components/ui/spinner';
import { waitingInvitationsCopy as copy } from '@/content/invitations';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import { canResend, waitingState, type InvitationRow, type WaitingState } from '../lib/invitations';
import { formatDateTime } from '../lib/members';

export type WaitingInvitationsViewProps = {
  invitations: ReadState<InvitationRow[]>;
  /** Queues the buyer's invitation again; throws when it cannot. */
  onResend: (email: string) => Promise<void>;
  /** The time the list is judged at (tests); now by default. */
  now?: Date;
};

/**
 * /staff/members: the buyers who paid but have no working invitation yet (pending on the
 * e-mail budget, failed, being sent, or expired unused), each with why and a "Send again".
 */
export function WaitingInvitationsView({ invitations, onResend, now = new Date() }: WaitingInvitationsViewProps) {
  return (
    <section aria-labelledby="waiting-invitations-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="waiting-invitations-title" className="text-navy-900 font-serif text-xl font-bold">
        {copy.title}
      </h2>
      <p className="text-navy-800 mt-1 text-sm">{copy.intro}</p>
      <div className="mt-4">
        {invitations.status === 'loading' && (
          <Spinner label={invitations.retrying ? copy.stillLoading : copy.loading} className="py-6" />
        )}
        {invitations.status === 'error' && (
          <div role="alert" className="flex flex-col items-start gap-3 py-4">
            <p className="text-navy-900 font-semibold">{copy.loadFailed}</p>
            <p className="text-navy-800">{errorMessage(invitations.error)}</p>
            <RetryButton retry={invitations.retry} retrying={invitations.retrying} variant="gold" size="md" />
          </div>
        )}
        {invitations.status === 'ready' && (
          <>
            {invitations.refreshFailed && (
              <p role="status" className="mb-3 flex flex-wrap items-center gap-3 text-sm text-slate-700">
                {copy.staleNote}
                <RetryButton retry={invitations.retry} retrying={invitations.retrying} />
              </p>
            )}
            <WaitingList rows={invitations.data} onResend={onResend} now={now} />
          </>
        )}
      </div>
    </section>
  );
}

function WaitingList({
  rows,
  onResend,
  now,
}: {
  rows: InvitationRow[];
  onResend: (email: string) => Promise<void>;
  now: Date;
}) {
  const waiting = rows.flatMap((row) => {
    const state = waitingState(row, now);
    return state ? [{ row, state }] : [];
  });
  if (waiting.length === 0) return <p className="text-navy-800 text-sm">{copy.none}</p>;
  return (
    <ul className="divide-navy-100 border-navy-100 divide-y rounded-lg border">
      {waiting.map(({ row, state }) => (
        <WaitingItem key={row.email} row={row} state={state} onResend={onResend} />
      ))}
    </ul>
  );
}

function WaitingItem({
  row,
  state,
  onResend,
}: {
  row: InvitationRow;
  state: WaitingState;
  onResend: (email: string) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);

  async function resend() {
    if (busy) return;
    setBusy(true);
    try {
      await onResend(row.email);
      toast.success(copy.queuedTitle, { description: copy.queuedDescription(row.email) });
    } catch (error) {
      toast.error(copy.resendFailed, { description: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  const reason = state === 'failed' || (state === 'pending' && row.lastError) ? row.lastError : null;
  return (
    <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="text-navy-900 font-semibold break-all">{row.email}</p>
        <p className="text-navy-800 text-sm">
          <span className="font-medium">{copy.state[state]}</span>
          {reason ? `: ${reason}` : ''}
        </p>
        <p className="text-sm text-slate-700">
          {copy.since(formatDateTime(row.createdAt))} · {copy.attempts(row.attempts)}
        </p>
      </div>
      {canResend(state) && (
        <Button
          variant="outline"
          size="sm"
          aria-label={copy.resendLabel(row.email)}
          aria-disabled={busy || undefined}
          aria-busy={busy || undefined}
          onClick={() => void resend()}
          className="shrink-0 self-start sm:self-center"
        >
          {busy ? (
            <>
              <span
                aria-hidden="true"
                className="border-navy-100 border-t-gold-500 mr-2 inline-block size-4 animate-spin rounded-full border-2"
              />
              {copy.resending}
            </>
          ) : (
            copy.resend
          )}
        </Button>
      )}
    </li>
  );
}
