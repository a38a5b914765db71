// The webhook itself, as a plain `(Request) => Response` function: index.ts hands it to
// Deno.serve, the unit tests call it directly. Order matters: the signature is checked over the
// raw bytes before anything is parsed, and nothing is written until the event is understood.
import {
  WebhookError,
  type InviteOutcome,
  type ParsedEvent,
  type ProviderName,
  type PurchaseProvider,
  type PurchaseStore,
  type Sale,
} from './types.ts';

export type LogEntry = { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>;

export type WebhookHandlerOptions = {
  /** The enabled providers; the last path segment (`…/purchase-webhook/stripe`) picks one. */
  providers: readonly PurchaseProvider[];
  store: PurchaseStore;
  /** Where the invitation link lands: the site's set-password page. */
  inviteRedirectTo: string;
  log?: (entry: LogEntry) => void;
  now?: () => Date;
  maxBodyBytes?: number;
  /**
   * The bearer the scheduled run (Supabase Cron through pg_net) sends to
   * `…/purchase-webhook/invitations`: the project's service-role key. Unset, that path is 404.
   */
  scheduleKey?: string;
  /** How many due invitations one scheduled run takes. */
  scheduleBatch?: number;
};

/**
 * What a delivery did about the buyer's invitation: sent now; not needed (a confirmed account);
 * pending (the e-mail budget is spent: the scheduled run sends it when it frees); failed (kept
 * with the reason, retried by the scheduled run and shown to staff); already handled (another
 * delivery holds it or sent it, and that invitation is still good).
 */
export type InvitationAnswer = 'invited' | 'already_registered' | 'pending' | 'failed' | 'already_handled';

/** Shopify caps webhook bodies well below this; Stripe events are a few KB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Due invitations one scheduled run takes (it runs every minute). */
export const SCHEDULE_BATCH = 100;

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
function json(status: number, body: Record<string, unknown>): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (status === 405) headers.Allow = 'POST';
  return new Response(JSON.stringify(body), { status, headers });
}

export function createWebhookHandler(options: WebhookHandlerOptions): (req: Request) => Promise<Response> {
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;

  function pickProvider(url: URL): PurchaseProvider {
    const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
    const named = options.providers.find((p) => p.name === last);
    if (named) return named;
    if (last === 'shopify' || last === 'stripe') throw new WebhookError(404, `provider ${last} is not enabled`);
    if (options.providers.length === 1 && options.providers[0]) return options.providers[0];
    throw new WebhookError(404, 'name the provider: …/purchase-webhook/shopify or …/purchase-webhook/stripe');
  }

  /**
   * The body, read chunk by chunk and given up (413) as soon as it passes the limit, whether or
   * not it declared a length: a chunked body is never read whole before it is measured.
   */
  async function readBody(req: Request): Promise<Uint8Array<ArrayBuffer>> {
    const declared = Number(req.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBodyBytes) throw new WebhookError(413, 'body too large');
    if (!req.body) return new Uint8Array(new ArrayBuffer(0));
    const reader = req.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBodyBytes) {
        await reader.cancel('body too large').catch(() => {});
        throw new WebhookError(413, 'body too large');
      }
      chunks.push(value);
    }
    const body = new Uint8Array(new ArrayBuffer(total));
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
    return body;
  }

  /**
   * Sends one claimed invitation and records what became of it. A failure to record the outcome
   * is logged, not thrown: the sale is recorded, and the claim lapses after 10 minutes.
   */
  async function sendClaimed(email: string, claimId: string, context: Record<string, unknown>): Promise<InviteOutcome> {
    let outcome: InviteOutcome;
    try {
      outcome = await options.store.inviteBuyer(email, options.inviteRedirectTo);
    } catch (err) {
      outcome = { kind: 'failed', reason: err instanceof Error ? err.message.slice(0, 500) : String(err) };
    }
    const { state, reason } = ledgerOutcome(outcome);
    try {
      await options.store.finishInvitation(email, claimId, state, reason);
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

  /**
   * The buyer's invitation, for a recorded sale: never throws (the sale is recorded already).
   * `claimed`: the claim the store made with the sale (undefined: claim it now).
   */
  async function inviteOnce(sale: Sale, claimed: string | null | undefined): Promise<InvitationAnswer> {
    const context = { provider: sale.provider, orderId: sale.orderId };
    try {
      const claimId = claimed === undefined ? await options.store.claimInvitation(sale.email) : claimed;
      if (!claimId) return 'already_handled';
      return ANSWER[(await sendClaimed(sale.email, claimId, context)).kind];
    } catch (err) {
      // The claim itself failed (the database): the row the sale queued stays pending, and the
      // scheduled run sends it.
      log({ level: 'error', message: 'invitation not claimed', ...context, error: String(err) });
      return 'pending';
    }
  }

  /**
   * The scheduled run: takes the due invitations and sends them until Auth says the e-mail
   * budget is spent; those not tried yet go back to pending with the same reason.
   */
  async function runSchedule(req: Request): Promise<Response> {
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
      const outcome = await sendClaimed(email, claimId, { scheduled: true });
      counts[ledgerOutcome(outcome).state]++;
      if (outcome.kind === 'rate_limited') budgetSpent = outcome.reason;
    }
    log({ level: 'info', message: 'scheduled invitations', due: due.length, ...counts });
    return json(200, { ok: true, due: due.length, ...counts });
  }

  async function apply(provider: ProviderName, event: ParsedEvent): Promise<Response> {
    if (event.kind === 'ignored') {
      log({ level: 'info', message: 'event ignored', provider, eventId: event.eventId, reason: event.reason });
      return json(200, { ok: true, outcome: 'ignored', reason: event.reason });
    }
    if (event.kind === 'refund') {
      const result = await options.store.recordRefund(event);
      const outcome = result.duplicate ? 'duplicate' : result.found ? 'refunded' : 'refund_before_sale';
      log({ level: 'info', message: `refund ${outcome}`, provider, eventId: event.eventId, orderId: event.orderId });
      return json(200, { ok: true, outcome });
    }
    return sale(event);
  }

  async function sale(event: Sale): Promise<Response> {
    const result = await options.store.recordPurchase(event);
    log({
      level: 'info',
      message: result.duplicate ? 'sale already recorded' : 'sale recorded',
      provider: event.provider,
      eventId: event.eventId,
      orderId: event.orderId,
      tier: event.tier,
      amountCents: event.amountCents,
      currency: event.currency,
      account: result.account,
    });
    // A buyer without a confirmed account is invited: accepting confirms the address, and the
    // database then attaches the purchase. Every delivery (a duplicate too) asks, and the ledger
    // lets exactly one of them send while an invitation is still good (claim_invitation). From
    // here on the sale is recorded: whatever becomes of the e-mail, the answer is 200.
    const invited = result.account === 'confirmed' ? null : await inviteOnce(event, result.invitationClaim);
    return json(200, {
      ok: true,
      outcome: result.duplicate ? 'duplicate' : 'recorded',
      tier: event.tier,
      account: result.account,
      ...(invited ? { invitation: invited } : {}),
    });
  }

  return async (req) => {
    const url = new URL(req.url);
    try {
      if (req.method !== 'POST') throw new WebhookError(405, 'POST only');
      if (url.pathname.split('/').filter(Boolean).pop() === 'invitations') return await runSchedule(req);
      const provider = pickProvider(url);
      const raw = await readBody(req);
      await provider.verify(raw, req.headers, now());
      const event = await provider.parse(raw, req.headers);
      return await apply(provider.name, event);
    } catch (err) {
      if (err instanceof WebhookError) {
        if (err.status === 401 || err.status === 400) {
          log({ level: 'warn', message: 'request refused', status: err.status, reason: err.message });
        }
        return json(err.status, { ok: false, error: err.message });
      }
      // Anything else before the sale is recorded (the database, Stripe's API) is ours: a 500
      // makes the provider retry, and a retried delivery is de-duplicated by its event id.
      log({ level: 'error', message: 'webhook failed', error: err instanceof Error ? err.message : String(err) });
      return json(500, { ok: false, error: 'internal error; the provider will retry' });
    }
  };
}
