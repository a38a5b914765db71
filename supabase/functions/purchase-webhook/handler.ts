// The webhook itself, as a plain `(Request) => Response` function: index.ts hands it to
// Deno.serve, the unit tests call it directly. Order matters: the signature is checked over the
// raw bytes before anything is parsed, and nothing is written until the event is understood.
// `…/purchase-webhook/invitations` is the scheduled run, handed to invitations.ts.
import { json, readBody, type LogEntry } from './http.ts';
import { createInvitations, type Invitations } from './invitations.ts';
import { runMemberMail, type MemberMailOptions } from './member-mail.ts';
import {
  WebhookError,
  type ParsedEvent,
  type ProviderName,
  type PurchaseProvider,
  type PurchaseStore,
  type Refund,
  type Sale,
} from './types.ts';

export type { LogEntry } from './http.ts';
export { INVITATION_BACKOFF_SECONDS, SCHEDULE_BATCH, type InvitationAnswer } from './invitations.ts';

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
  /** The waits after a mail outage (invitations.ts INVITATION_BACKOFF_SECONDS unless told). */
  backoffSeconds?: readonly number[];
  /** `…/purchase-webhook/member-mail`, the members' reminders (member-mail.ts); unset, 404. */
  memberMail?: Omit<MemberMailOptions, 'log' | 'scheduleKey'>;
};

/** Shopify caps webhook bodies well below this; Stripe events are a few KB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** What the webhook's steps share once the options are resolved. */
type Context = {
  store: PurchaseStore;
  log: (entry: LogEntry) => void;
  invitations: Invitations;
};

function lastSegment(url: URL): string {
  return url.pathname.split('/').filter(Boolean).pop() ?? '';
}

function pickProvider(providers: readonly PurchaseProvider[], url: URL): PurchaseProvider {
  const last = lastSegment(url);
  const named = providers.find((p) => p.name === last);
  if (named) return named;
  if (last === 'shopify' || last === 'stripe') throw new WebhookError(404, `provider ${last} is not enabled`);
  if (providers.length === 1 && providers[0]) return providers[0];
  throw new WebhookError(404, 'name the provider: …/purchase-webhook/shopify or …/purchase-webhook/stripe');
}

async function apply(ctx: Context, provider: ProviderName, event: ParsedEvent): Promise<Response> {
  if (event.kind === 'ignored') {
    ctx.log({ level: 'info', message: 'event ignored', provider, eventId: event.eventId, reason: event.reason });
    return json(200, { ok: true, outcome: 'ignored', reason: event.reason });
  }
  if (event.kind === 'refund') return refund(ctx, event);
  return sale(ctx, event);
}

async function refund(ctx: Context, event: Refund): Promise<Response> {
  const result = await ctx.store.recordRefund(event);
  const { provider, eventId, orderId } = event;
  if (result.ignored) {
    const reason = 'the refund returns no product of the order';
    ctx.log({ level: 'info', message: 'event ignored', provider, eventId, reason });
    return json(200, { ok: true, outcome: 'ignored', reason });
  }
  const outcome = result.duplicate
    ? 'duplicate'
    : result.found
      ? 'refunded'
      : result.unmatched
        ? 'unmatched_refunded'
        : 'refund_before_sale';
  ctx.log({ level: 'info', message: `refund ${outcome}`, provider, eventId, orderId });
  return json(200, { ok: true, outcome });
}

/** A sale of a product the catalog does not know: kept for staff, and said loudly in the log. */
function unmatched(ctx: Context, event: Sale, duplicate: boolean): Response {
  ctx.log({
    level: 'warn',
    message: duplicate ? 'unmatched sale already recorded' : 'sale of an unknown product recorded as unmatched',
    provider: event.provider,
    eventId: event.eventId,
    orderId: event.orderId,
    lines: event.lines,
    amountCents: event.amountCents,
    currency: event.currency,
  });
  return json(200, { ok: true, outcome: duplicate ? 'duplicate' : 'unmatched' });
}

/**
 * Keeps the campaign of a recorded sale (a duplicate delivery too: the upsert writes the same
 * row). Its failure is logged: the sale stands and the answer does not change.
 */
async function keepCampaign(ctx: Context, event: Sale): Promise<void> {
  const { campaign, provider, eventId, orderId } = event;
  if (!campaign || !ctx.store.recordCampaign) return;
  try {
    const kept = await ctx.store.recordCampaign(provider, orderId, campaign);
    if (!kept) ctx.log({ level: 'warn', message: 'campaign not kept: no purchase', provider, eventId, orderId });
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    ctx.log({ level: 'error', message: 'campaign not kept', provider, eventId, orderId, error });
  }
}

async function sale(ctx: Context, event: Sale): Promise<Response> {
  const result = await ctx.store.recordPurchase(event);
  if (result.unmatched) return unmatched(ctx, event, result.duplicate);
  await keepCampaign(ctx, event);
  ctx.log({
    level: 'info',
    message: result.duplicate ? 'sale already recorded' : 'sale recorded',
    provider: event.provider,
    eventId: event.eventId,
    orderId: event.orderId,
    tier: result.tier,
    amountCents: event.amountCents,
    currency: event.currency,
    account: result.account,
  });
  // A buyer without a confirmed account is invited: accepting confirms the address, and the
  // database then attaches the purchase. Every delivery (a duplicate too) asks, and the ledger
  // lets exactly one of them send while an invitation is still good (claim_invitation). From
  // here on the sale is recorded: whatever becomes of the e-mail, the answer is 200.
  const invited =
    result.account === 'confirmed' ? null : await ctx.invitations.inviteOnce(event, result.invitationClaim);
  return json(200, {
    ok: true,
    outcome: result.duplicate ? 'duplicate' : 'recorded',
    tier: result.tier,
    account: result.account,
    ...(invited ? { invitation: invited } : {}),
  });
}

function refusal(log: (entry: LogEntry) => void, err: unknown): Response {
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

export function createWebhookHandler(options: WebhookHandlerOptions): (req: Request) => Promise<Response> {
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const invitations = createInvitations({
    store: options.store,
    inviteRedirectTo: options.inviteRedirectTo,
    log,
    scheduleKey: options.scheduleKey,
    scheduleBatch: options.scheduleBatch,
    ...(options.backoffSeconds ? { backoffSeconds: options.backoffSeconds } : {}),
    now,
  });
  const ctx: Context = { store: options.store, log, invitations };

  return async (req) => {
    const url = new URL(req.url);
    try {
      if (req.method !== 'POST') throw new WebhookError(405, 'POST only');
      if (lastSegment(url) === 'invitations') return await invitations.runSchedule(req);
      if (lastSegment(url) === 'member-mail' && options.memberMail) {
        return await runMemberMail({ ...options.memberMail, log, scheduleKey: options.scheduleKey }, req);
      }
      const provider = pickProvider(options.providers, url);
      const raw = await readBody(req, maxBodyBytes);
      await provider.verify(raw, req.headers, now());
      const event = await provider.parse(raw, req.headers);
      return await apply(ctx, provider.name, event);
    } catch (err) {
      return refusal(log, err);
    }
  };
}
