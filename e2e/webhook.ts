import { randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import {
  shopifyOrder,
  shopifyRequest,
  stripeRequest,
  stripeSessionEvent,
} from '../supabase/functions/purchase-webhook/test-support.ts';
import { LOCAL_FUNCTION_SECRETS } from '../packages/supabase-stand-in/functions/secrets.mjs';
import type { Tier } from '../src/content/tiers';
import { e2eEnv } from './env';

// The published development secret: the stand-in gives it to the function, and so does a
// `supabase start` stack through supabase/functions/.env (scripts/dev/function-env.mjs). A stack with
// its own secret: set SHOPIFY_WEBHOOK_SECRET.
const secret = process.env.SHOPIFY_WEBHOOK_SECRET ?? LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET;

/** Sends a signed Shopify delivery to the purchase webhook, as the checkout would. */
async function deliver(made: Request): Promise<Record<string, unknown>> {
  const res = await fetch(`${e2eEnv.supabaseUrl}/functions/v1/purchase-webhook/shopify`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * A paid Shopify order of `product` by `email`, delivered to the webhook; `webhookId` repeats a
 * delivery as Shopify's retries do (a fresh id otherwise).
 */
export function deliverSale(
  email: string,
  product: Tier,
  orderId = `e2e-${randomUUID()}`,
  webhookId: string = randomUUID(),
) {
  const line = { product_id: `REPLACE_ME_shopify_product_${product}` };
  return shopifyRequest('orders/paid', shopifyOrder({ id: orderId, email, line_items: [line] }), {
    secret,
    webhookId,
  }).then(deliver);
}

/** A refund of the order's `product`, delivered to the webhook. */
export function deliverRefund(orderId: string, product: Tier) {
  const line = { line_item: { product_id: `REPLACE_ME_shopify_product_${product}` } };
  const refund = { id: `refund-${orderId}`, order_id: orderId, refund_line_items: [line] };
  return shopifyRequest('refunds/create', refund, { secret }).then(deliver);
}

const stripeSecret = process.env.STRIPE_WEBHOOK_SECRET ?? LOCAL_FUNCTION_SECRETS.STRIPE_WEBHOOK_SECRET;

/**
 * A paid Stripe Checkout Session of `priceId` (of Stripe product `productId`) by `email`, for
 * `amountCents` USD, delivered to the webhook; its payment intent is the order. A Payment Link
 * opened with `?client_reference_id=…` puts it on the session: `clientReferenceId`.
 */
export async function deliverStripeSale(
  email: string,
  priceId: string,
  productId: string,
  amountCents: number,
  clientReferenceId?: string,
) {
  const orderId = `pi_e2e_${randomUUID().replaceAll('-', '')}`;
  const event = stripeSessionEvent({
    id: `cs_e2e_${randomUUID().replaceAll('-', '')}`,
    ...(clientReferenceId && { client_reference_id: clientReferenceId }),
    payment_intent: orderId,
    amount_total: amountCents,
    customer_details: { email },
    line_items: { data: [{ price: { id: priceId, product: productId } }] },
  });
  // Paid now: the sale counts today on /staff.
  const now = Math.floor(Date.now() / 1000);
  const made = await stripeRequest({ ...event, created: now }, { secret: stripeSecret, timestamp: now });
  const res = await fetch(`${e2eEnv.supabaseUrl}/functions/v1/purchase-webhook/stripe`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
  expect(res.status).toBe(200);
  return { orderId, answer: (await res.json()) as Record<string, unknown> };
}
