// The buyer's invitation: sent once per sale through the ledger's claim, and the scheduled run
// (Supabase Cron through pg_net, at `…/purchase-webhook/invitations`) that sends the ones left
// pending: held back by the e-mail budget or a quota (429), or waiting out a mail outage (5xx, no
// answer) on the backoff below (docs/decisions/097-a-mail-outage-heals-itself.md). Built from
// the same store, redirect and log as the webhook handler.
import { sameSecret } from '../_shared/same-secret.ts';
import { json, type LogEntry } from './http.ts';
import { WebhookError, type InviteOutcome, type PurchaseStore, type Sale } from './types.ts';

/**
 * What a delivery did about the buyer's invitation: sent now; not needed (a confirmed account);
 * pending (the e-mail budget is spent, or the mail provider is down: the scheduled run sends it
 * when it frees, or once the backoff's wait has passed); failed (kept with the reason and shown
 * to staff, who send it again); already handled (another delivery holds it or sent it, and that
 * invitation is still good, or it waits out an outage on the schedule).
 */
export type InvitationAnswer = 'invited' | 'already_registered' | 'pending' | 'failed' | 'already_handled';

/** Due invitations one scheduled run takes (it runs every minute). */
export const SCHEDULE_BATCH = 100;

/**
 * After a mail outage (the provider's or Auth's 5xx, or no answer), the wait before each next try:
 * 1, 5, 15 and 60 minutes. The try after the last wait is the last: its outage fails the
 * invitation, with the reason for staff. The database applies it (retry_invitation), on its clock.
 */
export const INVITATION_BACKOFF_SECONDS: readonly number[] = Object.freeze([60, 300, 900, 3600]);

/** How often one instance of the function records which way invitations go (record_mail_path). */
export const MAIL_PATH_REPORT_EVERY_MS = 10 * 60_000;

export type InvitationOptions = {
  store: PurchaseStore;
  /** Where the invitation link lands: the site's set-password page. */
  inviteRedirectTo: string;
  log: (entry: LogEntry) => void;
  /** The bearer the scheduled run must send; unset, the run is 404. */
  scheduleKey?: string;
  /** How many due invitations one scheduled run takes. */
  scheduleBatch?: number;
  /** The waits after a mail outage (INVITATION_BACKOFF_SECONDS unless told). */
  backoffSeconds?: readonly number[];
  now?: () => Date;
};

export type Invitations = {
  /**
   * The buyer's invitation, for a recorded sale: never throws (the sale is recorded already).
   * `claimed`: the claim the store made with the sale (undefined: claim it now).
   */
  inviteOnce(sale: Sale, claimed: string | null | undefined): Promise<InvitationAnswer>;
  /**
   * The scheduled run: takes the due invitations and sends them until the budget is spent or
   * the mail provider is down; those not tried go back to pending with the same reason.
   */
  runSchedule(req: Request): Promise<Response>;
};

type LedgerState = 'sent' | 'accepted' | 'pending' | 'failed';

/** The ledger state an answer leaves the invitation in (an outage: retry_invitation decides). */
function ledgerOutcome(outcome: Exclude<InviteOutcome, { kind: 'unavailable' }>): {
  state: LedgerState;
  reason: string | null;
} {
  switch (outcome.kind) {
    case 'invited':
      return { state: 'sent', reason: null };
    case 'already_registered':
      return { state: 'accepted', reason: null };
    case 'rate_limited':
      return { state: 'pending', reason: outcome.reason };
    case 'failed':
      return { state: 'failed', reason: outcome.reason };
  }
}

const ANSWER: Record<LedgerState, InvitationAnswer> = {
  sent: 'invited',
  accepted: 'already_registered',
  pending: 'pending',
  failed: 'failed',
};

type Recorded = { state: LedgerState; reason: string | null; nextAttemptAt?: string | null; retries?: number };

/** Writes the outcome to the ledger: finish_invitation, or retry_invitation for an outage. */
async function record(
  options: InvitationOptions,
  email: string,
  claimId: string,
  outcome: InviteOutcome,
): Promise<Recorded> {
  if (outcome.kind !== 'unavailable') {
    const { state, reason } = ledgerOutcome(outcome);
    await options.store.finishInvitation(email, claimId, state, reason);
    return { state, reason };
  }
  const backoff = options.backoffSeconds ?? INVITATION_BACKOFF_SECONDS;
  const retry = await options.store.retryInvitation(email, claimId, outcome.reason, backoff);
  // Null: the claim lapsed (over 10 minutes) and another caller holds it now.
  if (!retry) return { state: 'pending', reason: outcome.reason };
  return { state: retry.status, reason: outcome.reason, nextAttemptAt: retry.nextAttemptAt, retries: retry.retries };
}

/**
 * Sends one claimed invitation and records what became of it. A failure to record the outcome
 * is logged, not thrown: the sale is recorded, and the claim lapses after 10 minutes.
 */
async function sendClaimed(
  options: InvitationOptions,
  reportMailPath: () => Promise<void>,
  email: string,
  claimId: string,
  context: Record<string, unknown>,
): Promise<{ outcome: InviteOutcome; state: LedgerState }> {
  const { store, log } = options;
  await reportMailPath();
  let outcome: InviteOutcome;
  try {
    outcome = await store.inviteBuyer(email, options.inviteRedirectTo);
  } catch (err) {
    // inviteBuyer answers every refusal and every request that got no answer as a value; what
    // it throws is unforeseen (a bug, an answer of the wrong shape), retried as an outage until
    // the series ends, so a buyer is not left unsent by one bad moment.
    outcome = { kind: 'unavailable', reason: err instanceof Error ? err.message.slice(0, 500) : String(err) };
  }
  let recorded: Recorded;
  try {
    recorded = await record(options, email, claimId, outcome);
  } catch (err) {
    recorded = outcome.kind === 'unavailable' ? { state: 'pending', reason: outcome.reason } : ledgerOutcome(outcome);
    log({
      level: 'error',
      message: 'invitation outcome not recorded',
      ...context,
      state: recorded.state,
      error: String(err),
    });
  }
  const { state, reason, nextAttemptAt, retries } = recorded;
  log({
    level: state === 'failed' || outcome.kind === 'unavailable' ? 'warn' : 'info',
    message: `invitation ${state}`,
    ...context,
    ...(reason ? { reason } : {}),
    ...(nextAttemptAt ? { nextAttemptAt } : {}),
    ...(retries !== undefined ? { retries } : {}),
  });
  return { outcome, state };
}

/**
 * Records which way invitations go (the mail API, or Auth's fallback) at most once per
 * MAIL_PATH_REPORT_EVERY_MS per instance; a failure is logged, never thrown.
 */
function mailPathReporter(options: InvitationOptions): () => Promise<void> {
  const now = options.now ?? (() => new Date());
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    const at = now().getTime();
    if (at - last < MAIL_PATH_REPORT_EVERY_MS) return;
    last = at;
    try {
      await options.store.recordMailPath();
    } catch (err) {
      options.log({ level: 'warn', message: 'mail path not recorded', error: String(err) });
    }
  };
}

async function inviteOnce(
  options: InvitationOptions,
  reportMailPath: () => Promise<void>,
  sale: Sale,
  claimed: string | null | undefined,
): Promise<InvitationAnswer> {
  const context = { provider: sale.provider, orderId: sale.orderId };
  try {
    const claimId = claimed === undefined ? await options.store.claimInvitation(sale.email) : claimed;
    if (!claimId) return 'already_handled';
    return ANSWER[(await sendClaimed(options, reportMailPath, sale.email, claimId, context)).state];
  } catch (err) {
    // The claim itself failed (the database): the row the sale queued stays pending, and the
    // scheduled run sends it.
    options.log({ level: 'error', message: 'invitation not claimed', ...context, error: String(err) });
    return 'pending';
  }
}

async function runSchedule(
  options: InvitationOptions,
  reportMailPath: () => Promise<void>,
  req: Request,
): Promise<Response> {
  const key = options.scheduleKey;
  if (!key) throw new WebhookError(404, 'not found');
  const bearer = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!sameSecret(bearer, key)) throw new WebhookError(401, 'the scheduled run needs the service-role key');
  await req.body?.cancel();
  await reportMailPath();
  const due = await options.store.claimDueInvitations(options.scheduleBatch ?? SCHEDULE_BATCH);
  const counts = { sent: 0, accepted: 0, pending: 0, failed: 0 };
  // The e-mail budget is spent or the provider is down: the rest are not tried in this run.
  let stopped: string | null = null;
  for (const { email, claimId } of due) {
    if (stopped !== null) {
      await options.store.finishInvitation(email, claimId, 'pending', stopped).catch((err: unknown) => {
        options.log({
          level: 'error',
          message: 'invitation outcome not recorded',
          scheduled: true,
          error: String(err),
        });
      });
      counts.pending++;
      continue;
    }
    const { outcome, state } = await sendClaimed(options, reportMailPath, email, claimId, { scheduled: true });
    counts[state]++;
    if (outcome.kind === 'rate_limited' || outcome.kind === 'unavailable') stopped = outcome.reason;
  }
  options.log({ level: 'info', message: 'scheduled invitations', due: due.length, ...counts });
  return json(200, { ok: true, due: due.length, ...counts });
}

export function createInvitations(options: InvitationOptions): Invitations {
  const reportMailPath = mailPathReporter(options);
  return {
    inviteOnce: (sale, claimed) => inviteOnce(options, reportMailPath, sale, claimed),
    runSchedule: (req) => runSchedule(options, reportMailPath, req),
  };
}
