// The purchase webhook end to end: a signed delivery to the stand-in, the function in real Deno,
// supabase-js with the service-role key, the ledger's RPCs in Postgres, and the tier that results.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_FUNCTION_SECRETS } from '../functions/service.mjs';
import { ANON_KEY } from '../keys.mjs';
import {
  shopifyOrder,
  shopifyRequest,
  stripeRequest,
  stripeSessionEvent,
} from '../../../supabase/functions/purchase-webhook/test-support.ts';
import { encodeReference } from '../../../src/lib/campaign.ts';
import { anonClient, serviceClient, startStandIn, uniqueEmail, type StandIn } from './helpers';

const shopifySecret = LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET;
const stripeSecret = LOCAL_FUNCTION_SECRETS.STRIPE_WEBHOOK_SECRET;

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
});
afterAll(async () => {
  await server?.close();
});

/** Sends a request made for the function (test-support signs it) to the stand-in. */
async function deliver(made: Request): Promise<{ status: number; body: Record<string, unknown> }> {
  const provider = new URL(made.url).pathname.split('/').pop();
  const res = await fetch(`${server.url}/functions/v1/purchase-webhook/${provider}`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function sale(email: string, order: number, product: string, total: string, webhookId?: string) {
  const order_ = shopifyOrder({
    id: order,
    email,
    total_price: total,
    line_items: [{ product_id: `REPLACE_ME_shopify_product_${product}` }],
  });
  return shopifyRequest('orders/paid', order_, { secret: shopifySecret, ...(webhookId ? { webhookId } : {}) });
}

function refund(order: number, product: string) {
  const body = {
    id: order + 1,
    order_id: order,
    refund_line_items: [{ line_item: { product_id: `REPLACE_ME_shopify_product_${product}` } }],
  };
  return shopifyRequest('refunds/create', body, { secret: shopifySecret });
}

async function confirmedUser(): Promise<{ id: string; email: string }> {
  const email = uniqueEmail('buyer');
  const { data, error } = await serviceClient(server.url).auth.admin.createUser({
    email,
    password: 'password123',
    email_confirm: true,
  });
  if (error || !data.user) throw error ?? new Error('no user');
  return { id: data.user.id, email };
}

async function tierOf(userId: string): Promise<string | null> {
  const { data, error } = await serviceClient(server.url)
    .from('user_tiers')
    .select('tier')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  return (data?.tier as string | null | undefined) ?? null;
}

async function purchasesOf(email: string) {
  const { data, error } = await serviceClient(server.url)
    .from('purchases')
    .select('provider, order_id, email, product, tier, amount_cents, currency, status, user_id')
    .eq('email', email)
    .order('order_id');
  if (error) throw error;
  return data;
}

let nextOrder = 7_000_000 + (process.pid % 1000) * 1000;
const order = () => ++nextOrder;

describe('purchase webhook → ledger → tier', () => {
  it('a sale to a confirmed account grants the tier at once, with amount and currency recorded', async () => {
    const user = await confirmedUser();
    const id = order();
    const res = await deliver(await sale(user.email.toUpperCase(), id, 'foundation', '49.00'));
    expect(res).toEqual({
      status: 200,
      body: { ok: true, outcome: 'recorded', tier: 'foundation', account: 'confirmed' },
    });
    expect(await tierOf(user.id)).toBe('foundation');
    expect(await purchasesOf(user.email)).toEqual([
      {
        provider: 'shopify',
        order_id: String(id),
        email: user.email,
        product: 'foundation',
        tier: 'foundation',
        amount_cents: 4900,
        currency: 'USD',
        status: 'paid',
        user_id: user.id,
      },
    ]);
  });

  it('the same delivery twice changes nothing the second time', async () => {
    const user = await confirmedUser();
    const id = order();
    const first = await deliver(await sale(user.email, id, 'accelerated', '499.00', `wh-${id}`));
    const again = await deliver(await sale(user.email, id, 'accelerated', '499.00', `wh-${id}`));
    expect([first.body.outcome, again.body.outcome]).toEqual(['recorded', 'duplicate']);
    expect(await purchasesOf(user.email)).toHaveLength(1);
    expect(await tierOf(user.id)).toBe('accelerated');
  });

  it('out of order, a lower purchase after a higher one never downgrades; a refund falls back to the highest left', async () => {
    const user = await confirmedUser();
    const high = order();
    const low = order();
    await deliver(await sale(user.email, high, 'complete', '1495.00'));
    await deliver(await sale(user.email, low, 'foundation', '49.00'));
    expect(await tierOf(user.id)).toBe('complete');
    expect((await deliver(await refund(high, 'complete'))).body).toEqual({ ok: true, outcome: 'refunded' });
    expect(await tierOf(user.id)).toBe('foundation');
    await deliver(await refund(low, 'foundation'));
    expect(await tierOf(user.id)).toBeNull();
  });

  it('a refund that arrives before its sale is remembered: the sale then grants nothing', async () => {
    const user = await confirmedUser();
    const id = order();
    expect((await deliver(await refund(id, 'ebook'))).body).toEqual({ ok: true, outcome: 'refund_before_sale' });
    const late = await deliver(await sale(user.email, id, 'ebook', '24.95'));
    expect(late.status).toBe(200);
    expect(await tierOf(user.id)).toBeNull();
    expect(await purchasesOf(user.email)).toMatchObject([{ status: 'refunded', amount_cents: 2495 }]);
  });

  it('Stripe: a paid Checkout Session grants, a full charge refund withdraws', async () => {
    const user = await confirmedUser();
    const intent = `pi_${order()}`;
    const now = Math.floor(Date.now() / 1000);
    const paid = stripeSessionEvent({ payment_intent: intent, customer_details: { email: user.email } });
    expect((await deliver(await stripeRequest(paid, { secret: stripeSecret, timestamp: now }))).status).toBe(200);
    expect(await tierOf(user.id)).toBe('accelerated');
    const refunded = {
      id: `evt_r_${intent}`,
      type: 'charge.refunded',
      created: now,
      data: { object: { id: 'ch_1', payment_intent: intent, refunded: true } },
    };
    expect((await deliver(await stripeRequest(refunded, { secret: stripeSecret, timestamp: now }))).body).toEqual({
      ok: true,
      outcome: 'refunded',
    });
    expect(await tierOf(user.id)).toBeNull();
    expect(await purchasesOf(user.email)).toMatchObject([
      { provider: 'stripe', order_id: intent, amount_cents: 49900, currency: 'USD', status: 'refunded' },
    ]);
  });
});

/** The campaign row kept for the purchase with that provider and order id; null when none. */
async function campaignOf(provider: string, orderId: string) {
  const service = serviceClient(server.url);
  const purchase = await service
    .from('purchases')
    .select('id')
    .eq('provider', provider)
    .eq('order_id', orderId)
    .single();
  if (purchase.error) throw purchase.error;
  const { data, error } = await service
    .from('purchase_campaigns')
    .select('source, medium, campaign, referrer')
    .eq('purchase_id', (purchase.data as { id: string }).id)
    .maybeSingle();
  if (error) throw error;
  return data;
}

describe('the campaign a checkout carried', () => {
  it('Stripe: a client_reference_id made by encodeReference leaves a purchase_campaigns row', async () => {
    const user = await confirmedUser();
    const intent = `pi_${order()}`;
    const campaign = { source: 'podcast', medium: 'audio', campaign: 'launch', referrer: 'youtube.com' };
    const paid = stripeSessionEvent({
      payment_intent: intent,
      customer_details: { email: user.email },
      client_reference_id: encodeReference(campaign),
    });
    const now = Math.floor(Date.now() / 1000);
    const res = await deliver(await stripeRequest(paid, { secret: stripeSecret, timestamp: now }));
    expect(res).toEqual({
      status: 200,
      body: { ok: true, outcome: 'recorded', tier: 'accelerated', account: 'confirmed' },
    });
    expect(await campaignOf('stripe', intent)).toEqual(campaign);
  });

  it('Stripe: a sale without one is recorded, with no campaign row', async () => {
    const user = await confirmedUser();
    const intent = `pi_${order()}`;
    const paid = stripeSessionEvent({ payment_intent: intent, customer_details: { email: user.email } });
    const now = Math.floor(Date.now() / 1000);
    const res = await deliver(await stripeRequest(paid, { secret: stripeSecret, timestamp: now }));
    expect(res.body).toMatchObject({ ok: true, outcome: 'recorded' });
    expect(await purchasesOf(user.email)).toMatchObject([{ provider: 'stripe', order_id: intent, status: 'paid' }]);
    expect(await campaignOf('stripe', intent)).toBeNull();
  });

  it('Shopify: the landing_site’s utm codes and the referring_site’s host', async () => {
    const user = await confirmedUser();
    const id = order();
    const body = shopifyOrder({
      id,
      email: user.email,
      line_items: [{ product_id: 'REPLACE_ME_shopify_product_ebook' }],
      landing_site: '/cart/1:1?utm_source=newsletter&utm_campaign=spring',
      referring_site: 'https://www.example.org/post',
    });
    const res = await deliver(await shopifyRequest('orders/paid', body, { secret: shopifySecret }));
    expect(res.body).toMatchObject({ outcome: 'recorded', tier: 'ebook' });
    expect(await campaignOf('shopify', String(id))).toEqual({
      source: 'newsletter',
      medium: null,
      campaign: 'spring',
      referrer: 'example.org',
    });
  });
});

type InboxMessage = { to: string; subject: string; link: string };

async function inbox(email: string): Promise<InboxMessage[]> {
  const res = await fetch(`${server.url}/inbox?email=${encodeURIComponent(email)}`, { headers: { apikey: ANON_KEY } });
  return ((await res.json()) as { messages: InboxMessage[] }).messages;
}

async function userIdOf(email: string): Promise<string> {
  const { data, error } = await serviceClient(server.url).auth.admin.listUsers({ perPage: 1000 });
  if (error) throw error;
  const user = data.users.find((u) => u.email === email);
  if (!user) throw new Error(`no user ${email}`);
  return user.id;
}

describe('a buyer without an account', () => {
  it('is invited to the set-password page; the purchase attaches when they accept', async () => {
    const email = uniqueEmail('newbuyer');
    const res = await deliver(await sale(email, order(), 'foundation', '49.00'));
    expect(res).toEqual({
      status: 200,
      body: { ok: true, outcome: 'recorded', tier: 'foundation', account: 'none', invitation: 'invited' },
    });
    expect(await purchasesOf(email)).toMatchObject([{ status: 'paid', user_id: null }]);
    const [invitation, ...more] = await inbox(email);
    expect(more).toEqual([]);
    // Through the mail API: the link leads to the site's confirm page, which verifies on its button.
    const link = new URL(invitation?.link ?? '');
    expect(link.origin + link.pathname).toBe('http://127.0.0.1:5173/auth/confirm');
    expect(link.searchParams.get('type')).toBe('invite');
    const userId = await userIdOf(email);
    expect(await tierOf(userId)).toBeNull();

    const person = anonClient(server.url);
    const accepted = await person.auth.verifyOtp({ token_hash: link.searchParams.get('token_hash')!, type: 'invite' });
    expect(accepted.error).toBeNull();
    expect(await tierOf(userId)).toBe('foundation');
    expect(await purchasesOf(email)).toMatchObject([{ user_id: userId }]);
  });

  it('an unconfirmed account with the buyer’s e-mail (a squatter) gets nothing; the real owner is invited', async () => {
    const email = uniqueEmail('squatted');
    const { data, error } = await serviceClient(server.url).auth.admin.createUser({ email, password: 'password123' });
    if (error || !data.user) throw error ?? new Error('no user');
    const res = await deliver(await sale(email, order(), 'complete', '1495.00'));
    expect(res.body).toMatchObject({ outcome: 'recorded', account: 'unconfirmed', invitation: 'invited' });
    expect(await tierOf(data.user.id)).toBeNull();
    expect(await purchasesOf(email)).toMatchObject([{ user_id: null }]);
    expect((await inbox(email)).map((m) => new URL(m.link).searchParams.get('type'))).toEqual(['invite']);
  });

  it('a buyer whose account is confirmed is not invited', async () => {
    const user = await confirmedUser();
    await deliver(await sale(user.email, order(), 'ebook', '24.95'));
    expect(await inbox(user.email)).toEqual([]);
  });
});

describe('the body limit, in Deno as hosted runs the function', () => {
  it('answers 413 to a chunked body with no length as soon as it passes 1 MiB, while the sender is still sending', async () => {
    const url = new URL(`${server.url}/functions/v1/purchase-webhook/shopify`);
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    // Just over the limit, and the request never ends: a function that reads the whole body
    // before measuring it would wait for the end, and this test would time out.
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let sent = 0; sent <= 1024 * 1024; sent += chunk.length) req.write(chunk);
    const res = await answered;
    req.destroy();
    expect(res).toEqual({ status: 413, body: JSON.stringify({ ok: false, error: 'body too large' }) });
  });
});
