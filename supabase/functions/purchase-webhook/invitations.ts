// The buyer's invitation: sent once per sale through the ledger's claim, and the scheduled run
// (Supabase Cron through pg_net, at `…/purchase-webhook/invitations`) that sends the ones left
// pending or failed. Built from the same store, redirect and log as the webhook handler.
import { json, type LogEntry } from './http.ts';
import { WebhookError, type InviteOutcome, type PurchaseStore, type Sale } from './types.ts';

/**
 * What a delivery did about the buyer's invitation: sent now; not needed (a confirmed account);
 * pending (the e-mail budget is spent: the scheduled run sends it when it frees); failed (kept
 * with the reason, retried by the scheduled run and shown to staff); already handled (another
 * delivery holds it or sent it, and that invitation is still good).
 */
export type InvitationAnswer = 'invited' | 'already_registered' | 'pending' | 'failed' | 'already_handled';

/** Due invitations one scheduled run takes (it runs every minute). */
export const SCHEDULE_BATCH = 100;

export type InvitationOptions = {
  store: PurchaseStore;
  /** Where the invitation link lands: the site's set-password page. */
  inviteRedirectTo: string;
  log: (entry: LogEntry) => void;
  /** The bearer the scheduled run must send; unset, the run is 404. */
  scheduleKey?: string;
  /** How many due invitations one scheduled run takes. */
  scheduleBatch?: number;
};

export type Invitations = {
  /**
   * The buyer's invitation, for a recorded sale: never throws (the sale is recorded already).
   * `claimed`: the claim the store made with the sale (undefined: claim it now).
   */
  inviteOnce(sale: Sale, claimed: string | null | undefined): Promise<InvitationAnswer>;
  /**
   * The scheduled run: takes the due invitations and sends them until Auth says the e-mail
   * budget is spent; those not tried yet go back to pending with the same reason.
   */
  runSchedule(req: Request): Promise<Response>;
};

/** Compares two strings in time that does not depend on where they differ. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** The ledger state an Auth answer leaves the invitation in. */
function ledgerOutcome(outcome: InviteOutcome): {
  state: 'sent' | 'accepted' | 'pending' | 'failed';
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

const ANSWER: Record<InviteOutcome['kind'], InvitationAnswer> = {
  invited: 'invited',
  already_registered: 'already_registered',
  rate_limited: 'pending',
  failed: 'failed',
};

/**
 * Sends one claimed invitation and records what became of it. A failure to record the outcome
 * is logged, not thrown: the sale is recorded, and the claim lapses after 10 minutes.
 */
async function sendClaimed(
  options: InvitationOptions,
  email: string,
  claimId: string,
  context: Record<string, unknown>,
): Promise<InviteOutcome> {
  const { store, log } = options;
  let outcome: InviteOutcome;
  try {
    outcome = await store.inviteBuyer(email, options.inviteRedirectTo);
  } catch (err) {
    outcome = { kind: 'failed', reason: err instanceof Error ? err.message.slice(0, 500) : String(err) };
  }
  const { state, reason } = ledgerOutcome(outcome);
  try {
    await store.finishInvitation(email, claimId, state, reason);
  } catch (err) {
    log({ level: 'error', message: 'invitation outcome not recorded', ...context, state, error: String(err) });
  }
  log({
    level: outcome.kind === 'failed' ? 'warn' : 'info',
    message: `invitation ${state}`,
    ...context,
    ...(reason ? { reason } : {}),
  });
  return outcome;
}

async function inviteOnce(
  options: InvitationOptions,
  sale: Sale,
  claimed: string | null | undefined,
): Promise<InvitationAnswer> {
  const context = { provider: sale.provider, orderId: sale.orderId };
  try {
    const claimId = claimed === undefined ? await options.store.claimInvitation(sale.email) : claimed;
    if (!claimId) return 'already_handled';
    return ANSWER[(await sendClaimed(options, sale.email, claimId, context)).kind];
  } catch (err) {
    // The claim itself failed (the database): the row the sale queued stays pending, and the
    // scheduled run sends it.
    options.log({ level: 'error', message: 'invitation not claimed', ...context, error: String(err) });
    return 'pending';
  }
}

async function runSchedule(options: InvitationOptions, req: Request): Promise<Response> {
  const key = options.scheduleKey;
  if (!key) throw new WebhookError(404, 'not found');
  const bearer = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!sameSecret(bearer, key)) throw new WebhookError(401, 'the scheduled run needs the service-role key');
  await req.body?.cancel();
  const due = await options.store.claimDueInvitations(options.scheduleBatch ?? SCHEDULE_BATCH);
  const counts = { sent: 0, accepted: 0, pending: 0, failed: 0 };
  let budgetSpent: string | null = null;
  for (const { email, claimId } of due) {
    if (budgetSpent !== null) {
      await options.store.finishInvitation(email, claimId, 'pending', budgetSpent);
      counts.pending++;
      continue;
    }
    const outcome = await sendClaimed(options, email, claimId, { scheduled: true });
    counts[ledgerOutcome(outcome).state]++;
    if (outcome.kind === 'rate_limited') budgetSpent = outcome.reason;
  }
  options.log({ level: 'info', message: 'scheduled invitations', due: due.length, ...counts });
  return json(200, { ok: true, due: due.length, ...counts });
}

export function createInvitations(options: InvitationOptions): Invitations {
  return {
    inviteOnce: (sale, claimed) => inviteOnce(options, sale, claimed),
    runSchedule: (req) => runSchedule(options, req),
  };
}
