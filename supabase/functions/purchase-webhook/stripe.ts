// Stripe Checkout: `checkout.session.completed` (paid) grants, `charge.refunded` (in full)
// withdraws. Stripe-Signature is `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: HMAC-SHA256 of
// `${t}.${raw body}` with the endpoint secret; several v1 appear while a secret is being rolled.
// As Stripe's own libraries do, a timestamp more than 5 minutes old is refused. The session's
// client_reference_id, when the site's checkout link set it, carries the visit's campaign.
import { decodeReference } from '../../../src/lib/campaign.ts';
import { fromHex, timingSafeEqual } from './crypto.ts';
import {
  idString,
  isObject,
  parseJsonObject,
  requireCurrency,
  requireEmail,
  requireId,
  requireMinorUnits,
  stripeLineIds,
} from './payload.ts';
import { stripeSignature } from './signing.ts';
import { WebhookError, type LineIds, type ParsedEvent, type PurchaseProvider } from './types.ts';

export const STRIPE_TOLERANCE_SECONDS = 300;

/** Reads a Checkout Session's line items' ids from Stripe (webhook events never include line items). */
export type StripeLineItems = (sessionId: string) => Promise<LineIds[]>;

export function stripeProvider(secret: string, lineItems: StripeLineItems | null): PurchaseProvider {
  return {
    name: 'stripe',
    verify: (rawBody, headers, now) => verifyStripeSignature(secret, rawBody, headers, now),
    parse: (rawBody) => parseStripeEvent(rawBody, lineItems),
  };
}

/** Splits Stripe-Signature into its timestamp and the v1 signatures that are well-formed hex. */
function readSignatureHeader(header: string): { timestamp: number; signatures: Uint8Array[] } {
  let timestamp = NaN;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1') {
      const bytes = fromHex(value);
      if (bytes) signatures.push(bytes);
    }
  }
  return { timestamp, signatures };
}

async function verifyStripeSignature(
  secret: string,
  rawBody: Uint8Array<ArrayBuffer>,
  headers: Headers,
  now: Date,
): Promise<void> {
  const header = headers.get('stripe-signature');
  if (!header) throw new WebhookError(401, 'Stripe-Signature is missing');
  const { timestamp, signatures } = readSignatureHeader(header);
  if (Number.isNaN(timestamp) || signatures.length === 0) {
    throw new WebhookError(401, 'Stripe-Signature has no timestamp or no v1 signature');
  }
  const expected = await stripeSignature(secret, timestamp, rawBody);
  // Every candidate is compared, so the time taken does not say which one matched.
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(signature, expected) || matched;
  if (!matched) throw new WebhookError(401, 'signature does not match');
  if (timestamp < Math.floor(now.getTime() / 1000) - STRIPE_TOLERANCE_SECONDS) {
    throw new WebhookError(401, 'signature timestamp is older than 5 minutes');
  }
}

async function parseStripeEvent(
  rawBody: Uint8Array<ArrayBuffer>,
  lineItems: StripeLineItems | null,
): Promise<ParsedEvent> {
  const body = parseJsonObject(rawBody);
  const eventId = requireId(body.id, 'event id');
  const type = typeof body.type === 'string' ? body.type : '';
  const data = isObject(body.data) ? body.data : null;
  const object = data && isObject(data.object) ? data.object : null;
  if (!object) throw new WebhookError(400, 'data.object is missing');
  const created = typeof body.created === 'number' ? new Date(body.created * 1000) : new Date();

  if (type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded') {
    return checkoutSale(eventId, object, created, lineItems);
  }

  if (type === 'charge.refunded') {
    // A partial refund (a goodwill discount) keeps the purchase: only a full refund withdraws it.
    if (object.refunded !== true) {
      return { kind: 'ignored', provider: 'stripe', eventId, reason: 'partial refund: the purchase stands' };
    }
    const intent = isObject(object.payment_intent) ? object.payment_intent.id : object.payment_intent;
    const orderId = requireId(intent, 'payment_intent');
    return { kind: 'refund', provider: 'stripe', eventId, orderId, occurredAt: created.toISOString(), lines: null };
  }

  return { kind: 'ignored', provider: 'stripe', eventId, reason: `event type ${type || '(none)'} is not handled` };
}

/** A completed Checkout Session: the sale, or ignored while unpaid. */
async function checkoutSale(
  eventId: string,
  object: Record<string, unknown>,
  created: Date,
  lineItems: StripeLineItems | null,
): Promise<ParsedEvent> {
  // Bank debits and the like complete unpaid; their async_payment_succeeded event is the sale.
  if (object.payment_status !== 'paid') {
    return { kind: 'ignored', provider: 'stripe', eventId, reason: 'the session is not paid yet' };
  }
  const sessionId = requireId(object.id, 'session id');
  const details = isObject(object.customer_details) ? object.customer_details : {};
  const email = requireEmail(details.email, object.customer_email);
  const currency = requireCurrency(object.currency);
  const amountCents = requireMinorUnits(object.amount_total);
  const intent = isObject(object.payment_intent) ? object.payment_intent.id : object.payment_intent;
  const orderId = idString(intent) ?? sessionId;
  const lines = await sessionLineIds(object, sessionId, lineItems);
  return {
    kind: 'sale',
    provider: 'stripe',
    eventId,
    orderId,
    email,
    lines,
    amountCents,
    currency,
    occurredAt: created.toISOString(),
    campaign: typeof object.client_reference_id === 'string' ? decodeReference(object.client_reference_id) : null,
  };
}

/** Price and product ids of an expanded session's line items, else as Stripe's API lists them. */
async function sessionLineIds(
  session: Record<string, unknown>,
  sessionId: string,
  lineItems: StripeLineItems | null,
): Promise<LineIds[]> {
  const expanded = isObject(session.line_items) ? session.line_items.data : undefined;
  if (Array.isArray(expanded)) return expanded.flatMap((item) => stripeLineIds(item) ?? []);
  // Not a 400: the event is fine, this deployment cannot read it. A 500 makes Stripe retry.
  if (!lineItems) throw new Error('STRIPE_API_KEY is not set: cannot read the Checkout Session line items');
  return lineItems(sessionId);
}

/** Lists a session's line items with a restricted key (Checkout Sessions: read). */
export function stripeLineItemsFromApi(apiKey: string, fetchImpl: typeof fetch = fetch): StripeLineItems {
  return async (sessionId) => {
    const response = await fetchImpl(
      `https://api.stripe.com/v1/checkout/sessions/${encodeURIComponent(sessionId)}/line_items?limit=100`,
      { headers: { Authorization: `Bearer ${apiKey}` } },
    );
    if (!response.ok) throw new Error(`Stripe line items: HTTP ${response.status}`);
    const list: unknown = await response.json();
    const data = isObject(list) && Array.isArray(list.data) ? list.data : [];
    return data.flatMap((item) => stripeLineIds(item) ?? []);
  };
}
