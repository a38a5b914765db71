// The webhook itself, as a plain `(Request) => Response` function: index.ts hands it to
// Deno.serve, the unit tests call it directly. Order matters: the signature is checked over the
// raw bytes before anything is parsed, and nothing is written until the event is understood.
import {
  WebhookError,
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
};

/** Shopify caps webhook bodies well below this; Stripe events are a few KB. */
export const MAX_BODY_BYTES = 1024 * 1024;

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

  async function readBody(req: Request): Promise<Uint8Array<ArrayBuffer>> {
    const declared = Number(req.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBodyBytes) throw new WebhookError(413, 'body too large');
    const body = new Uint8Array(await req.arrayBuffer());
    if (body.length > maxBodyBytes) throw new WebhookError(413, 'body too large');
    return body;
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
    // database then attaches the purchase. A repeated delivery invites again only when no
    // account exists at all, i.e. the first invitation failed (so a retry is worth something).
    const invite = result.duplicate ? result.account === 'none' : result.account !== 'confirmed';
    let invited: 'invited' | 'already_registered' | null = null;
    if (invite) {
      invited = await options.store.inviteBuyer(event.email, options.inviteRedirectTo);
      log({ level: 'info', message: `buyer ${invited}`, provider: event.provider, orderId: event.orderId });
    }
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
      // Anything else (the database, Auth, Stripe's API) is ours: a 500 makes the provider retry,
      // and a retried delivery is de-duplicated by its event id.
      log({ level: 'error', message: 'webhook failed', error: err instanceof Error ? err.message : String(err) });
      return json(500, { ok: false, error: 'internal error; the provider will retry' });
    }
  };
}
