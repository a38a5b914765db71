// Shopify: `orders/paid` grants, `refunds/create` withdraws. Shopify signs the raw body with
// the app's webhook secret (base64 HMAC-SHA256 in X-Shopify-Hmac-Sha256) and names each
// delivery in X-Shopify-Webhook-Id, the id retries keep, which the database de-duplicates.
// Shopify signs no timestamp, so there is no staleness to check: a replayed delivery is caught
// by its webhook id instead (docs/decisions/029-stale-webhook-signatures.md). A paid order's
// campaign is read from its landing_site, note_attributes and referring_site (attribution.ts).
import { referrerHost, shopifyCampaign } from './attribution.ts';
import { fromBase64, timingSafeEqual } from './crypto.ts';
import {
  decimalToMinorUnits,
  isObject,
  isoOr,
  parseJsonObject,
  requireCurrency,
  requireEmail,
  requireId,
  shopifyLineIds,
} from './payload.ts';
import { shopifySignature } from './signing.ts';
import { WebhookError, type ParsedEvent, type PurchaseProvider } from './types.ts';

/** `siteUrl`: the site's origin; a referring_site on its host is no referrer. */
export function shopifyProvider(
  secret: string,
  now: () => Date = () => new Date(),
  siteUrl: string | null = null,
): PurchaseProvider {
  const siteHost = referrerHost(siteUrl);
  return {
    name: 'shopify',

    async verify(rawBody, headers) {
      const header = headers.get('x-shopify-hmac-sha256');
      if (!header) throw new WebhookError(401, 'X-Shopify-Hmac-Sha256 is missing');
      const given = fromBase64(header.trim());
      const expected = await shopifySignature(secret, rawBody);
      if (!given || !timingSafeEqual(given, expected)) throw new WebhookError(401, 'signature does not match');
    },

    async parse(rawBody, headers): Promise<ParsedEvent> {
      const eventId = headers.get('x-shopify-webhook-id')?.trim() || null;
      if (!eventId) throw new WebhookError(400, 'X-Shopify-Webhook-Id is missing');
      const topic = headers.get('x-shopify-topic')?.trim() ?? '';
      const body = parseJsonObject(rawBody);

      if (topic === 'orders/paid') {
        const orderId = requireId(body.id, 'order id');
        const customer = isObject(body.customer) ? body.customer : {};
        const email = requireEmail(body.email, body.contact_email, customer.email);
        const currency = requireCurrency(body.currency);
        if (!Array.isArray(body.line_items)) throw new WebhookError(400, 'line_items is missing');
        const lines = body.line_items.flatMap((line) => shopifyLineIds(line) ?? []);
        const amountCents = decimalToMinorUnits(body.current_total_price ?? body.total_price, currency);
        return {
          kind: 'sale',
          provider: 'shopify',
          eventId,
          orderId,
          email,
          lines,
          amountCents,
          currency,
          occurredAt: isoOr(body.processed_at ?? body.created_at, now()),
          campaign: shopifyCampaign(body, siteHost),
        };
      }

      if (topic === 'refunds/create') {
        const orderId = requireId(body.order_id, 'order id');
        const lines = Array.isArray(body.refund_line_items) ? body.refund_line_items : [];
        const refunded = lines.flatMap((line) => (isObject(line) ? (shopifyLineIds(line.line_item) ?? []) : []));
        // A refund of shipping or of an amount leaves the grant alone; whether the lines it returns
        // are a product the order sold, the database decides (record_catalog_refund).
        if (refunded.length === 0)
          return { kind: 'ignored', provider: 'shopify', eventId, reason: 'the refund returns no product' };
        const occurredAt = isoOr(body.created_at, now());
        return { kind: 'refund', provider: 'shopify', eventId, orderId, occurredAt, lines: refunded };
      }

      return { kind: 'ignored', provider: 'shopify', eventId, reason: `topic ${topic || '(none)'} is not handled` };
    },
  };
}
