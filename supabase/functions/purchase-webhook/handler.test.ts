import { describe, expect, it } from 'vitest';
import { createWebhookHandler, type LogEntry } from './handler.ts';
import { shopifyProvider } from './shopify.ts';
import { stripeProvider, type StripeLineItems } from './stripe.ts';
import {
  BASE,
  MemoryStore,
  SHOPIFY_SECRET,
  STRIPE_SECRET,
  shopifyOrder,
  shopifyRequest,
  stripeRequest,
  stripeSessionEvent,
  stripeSignature,
} from './test-support.ts';
import type { Sale } from './types.ts';
import { encodeReference, type Campaign } from '../../../src/lib/campaign.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const REDIRECT = 'https://site.test/auth/set-password';

function setup({ lineItems = null }: { lineItems?: StripeLineItems | null } = {}) {
  const store = new MemoryStore();
  const logs: LogEntry[] = [];
  const handle = createWebhookHandler({
    providers: [shopifyProvider(SHOPIFY_SECRET), stripeProvider(STRIPE_SECRET, lineItems)],
    store,
    inviteRedirectTo: REDIRECT,
    log: (entry) => logs.push(entry),
    now: () => NOW,
  });
  return { store, logs, handle };
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('Shopify', () => {
  it('records a correctly signed orders/paid: order id, lower-cased e-mail, tier, amount in cents, currency', async () => {
    const { store, handle } = setup();
    const res = await answer(await handle(await shopifyRequest('orders/paid', shopifyOrder(), { webhookId: 'wh-1' })));
    expect(res).toEqual({
      status: 200,
      body: { ok: true, outcome: 'recorded', tier: 'foundation', account: 'none', invitation: 'invited' },
    });
    expect(store.calls[0]).toEqual({
      kind: 'purchase',
      sale: {
        kind: 'sale',
        provider: 'shopify',
        eventId: 'wh-1',
        orderId: '5551234567',
        email: 'buyer@example.com',
        lines: [{ shopify_product: 'REPLACE_ME_shopify_product_foundation', shopify_variant: '77' }],
        amountCents: 4900,
        currency: 'USD',
        occurredAt: '2026-11-20T15:00:00.000Z',
        campaign: null,
      },
    });
  });

  it('refuses a signature made with another secret (401) and writes nothing', async () => {
    const { store, handle } = setup();
    const res = await handle(await shopifyRequest('orders/paid', shopifyOrder(), { secret: 'not-the-secret' }));
    expect(res.status).toBe(401);
    expect(store.calls).toEqual([]);
  });

  it('refuses a body changed after signing (401)', async () => {
    const { store, handle } = setup();
    const signed = await shopifyRequest('orders/paid', shopifyOrder());
    const tampered = new Request(signed.url, {
      method: 'POST',
      headers: signed.headers,
      body: JSON.stringify(shopifyOrder({ line_items: [{ product_id: 'REPLACE_ME_shopify_product_complete' }] })),
    });
    expect((await handle(tampered)).status).toBe(401);
    expect(store.calls).toEqual([]);
  });

  it('refuses a missing or non-base64 signature (401)', async () => {
    const { store, handle } = setup();
    expect((await handle(await shopifyRequest('orders/paid', shopifyOrder(), { hmac: null }))).status).toBe(401);
    expect((await handle(await shopifyRequest('orders/paid', shopifyOrder(), { hmac: '%%%' }))).status).toBe(401);
    expect(store.calls).toEqual([]);
  });

  it('checks the signature before parsing: an unsigned malformed body is 401, a signed one 400', async () => {
    const { store, handle } = setup();
    expect((await handle(await shopifyRequest('orders/paid', '{not json', { hmac: 'AAAA' }))).status).toBe(401);
    expect((await handle(await shopifyRequest('orders/paid', '{not json'))).status).toBe(400);
    expect(
      (await handle(await shopifyRequest('orders/paid', shopifyOrder({ email: null, customer: null })))).status,
    ).toBe(400);
    expect((await handle(await shopifyRequest('orders/paid', shopifyOrder({ total_price: '49.001' })))).status).toBe(
      400,
    );
    expect(store.calls).toEqual([]);
  });

  it('needs X-Shopify-Webhook-Id, the id de-duplication keys on (400 without)', async () => {
    const { store, handle } = setup();
    const req = await shopifyRequest('orders/paid', shopifyOrder());
    req.headers.delete('X-Shopify-Webhook-Id');
    expect((await handle(req)).status).toBe(400);
    expect(store.calls).toEqual([]);
  });

  it('a replayed delivery (same webhook id, however old: Shopify signs no time) changes nothing and invites no one again', async () => {
    const { store, handle } = setup();
    const first = await answer(
      await handle(await shopifyRequest('orders/paid', shopifyOrder(), { webhookId: 'wh-r' })),
    );
    const replay = await answer(
      await handle(await shopifyRequest('orders/paid', shopifyOrder(), { webhookId: 'wh-r' })),
    );
    expect(first.body.outcome).toBe('recorded');
    expect(replay.body).toMatchObject({ ok: true, outcome: 'duplicate' });
    expect(store.calls.filter((c) => c.kind === 'invite')).toHaveLength(1);
  });

  it('grants the highest tier of a multi-product order and records the order total', async () => {
    const { store, handle } = setup();
    const order = shopifyOrder({
      total_price: '1519.95',
      line_items: [
        { product_id: 'REPLACE_ME_shopify_product_ebook', variant_id: 1 },
        { product_id: 'REPLACE_ME_shopify_product_complete', variant_id: 2 },
        { product_id: 999, variant_id: 3 },
      ],
    });
    await handle(await shopifyRequest('orders/paid', order));
    expect(store.calls[0]).toMatchObject({ sale: { amountCents: 151995 } });
    expect(await store.recordPurchase({ ...(store.calls[0] as { sale: Sale }).sale, eventId: 'again' })).toMatchObject({
      tier: 'complete',
    });
  });

  it('records amounts in the currency’s own minor units (JPY has none)', async () => {
    const { store, handle } = setup();
    await handle(await shopifyRequest('orders/paid', shopifyOrder({ currency: 'jpy', total_price: '7400' })));
    expect(store.calls[0]).toMatchObject({ sale: { amountCents: 7400, currency: 'JPY' } });
  });

  it('records a sale of an unknown product as unmatched (200), says so in the log and invites nobody', async () => {
    const { store, logs, handle } = setup();
    const unknownProduct = shopifyOrder({ line_items: [{ product_id: 123, variant_id: 456 }] });
    expect(await answer(await handle(await shopifyRequest('orders/paid', unknownProduct)))).toEqual({
      status: 200,
      body: { ok: true, outcome: 'unmatched' },
    });
    expect(store.calls).toMatchObject([
      { kind: 'purchase', sale: { lines: [{ shopify_product: '123', shopify_variant: '456' }] } },
    ]);
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      'sale of an unknown product recorded as unmatched',
    ]);
  });

  it('acknowledges an unknown topic (200), logs it and changes nothing', async () => {
    const { store, logs, handle } = setup();
    expect(await answer(await handle(await shopifyRequest('orders/cancelled', shopifyOrder())))).toMatchObject({
      status: 200,
      body: { outcome: 'ignored' },
    });
    expect(store.calls).toEqual([]);
    expect(logs.filter((l) => l.message === 'event ignored').map((l) => l.reason)).toEqual([
      'topic orders/cancelled is not handled',
    ]);
  });

  it('refunds/create returning a product withdraws the order; a shipping-only refund does not', async () => {
    const { store, handle } = setup();
    const productRefund = {
      id: 9,
      order_id: 5551234567,
      created_at: '2026-11-21T09:00:00Z',
      refund_line_items: [{ line_item: { product_id: 'REPLACE_ME_shopify_product_foundation', variant_id: 77 } }],
    };
    const res = await answer(
      await handle(await shopifyRequest('refunds/create', productRefund, { webhookId: 'wh-ref' })),
    );
    expect(res).toEqual({ status: 200, body: { ok: true, outcome: 'refunded' } });
    expect(store.calls).toEqual([
      {
        kind: 'refund',
        refund: {
          kind: 'refund',
          provider: 'shopify',
          eventId: 'wh-ref',
          orderId: '5551234567',
          occurredAt: '2026-11-21T09:00:00.000Z',
          lines: [{ shopify_product: 'REPLACE_ME_shopify_product_foundation', shopify_variant: '77' }],
        },
      },
    ]);
    const shippingOnly = { id: 10, order_id: 5551234567, refund_line_items: [] };
    expect(await answer(await handle(await shopifyRequest('refunds/create', shippingOnly)))).toMatchObject({
      status: 200,
      body: { outcome: 'ignored' },
    });
    expect(store.calls).toHaveLength(1);
  });
});

describe('Stripe', () => {
  it('records a correctly signed checkout.session.completed: payment intent as order, amount_total, upper-case currency', async () => {
    const { store, handle } = setup();
    const event = stripeSessionEvent();
    const res = await answer(await handle(await stripeRequest(event, { timestamp: NOW_S })));
    expect(res.status).toBe(200);
    expect(store.calls[0]).toEqual({
      kind: 'purchase',
      sale: {
        kind: 'sale',
        provider: 'stripe',
        eventId: event.id,
        orderId: 'pi_test_123',
        email: 'stripe.buyer@example.com',
        lines: [{ stripe_price: 'REPLACE_ME_stripe_price_accelerated' }],
        amountCents: 49900,
        currency: 'USD',
        occurredAt: new Date(1_795_000_000_000).toISOString(),
        campaign: null,
      },
    });
  });

  it('refuses a signature made with another secret, and a missing or unparseable header (401)', async () => {
    const { store, handle } = setup();
    const event = stripeSessionEvent();
    expect((await handle(await stripeRequest(event, { timestamp: NOW_S, secret: 'whsec_other' }))).status).toBe(401);
    expect((await handle(await stripeRequest(event, { timestamp: NOW_S, header: null }))).status).toBe(401);
    expect((await handle(await stripeRequest(event, { timestamp: NOW_S, header: 't=abc,v1=zz' }))).status).toBe(401);
    const raw = JSON.stringify(event);
    const noV1 = `t=${NOW_S},v0=${await stripeSignature(raw, NOW_S)}`;
    expect((await handle(await stripeRequest(raw, { timestamp: NOW_S, header: noV1 }))).status).toBe(401);
    expect(store.calls).toEqual([]);
  });

  it('refuses a timestamp older than 5 minutes even when correctly signed; accepts one just inside', async () => {
    const { store, handle } = setup();
    const stale = await answer(await handle(await stripeRequest(stripeSessionEvent(), { timestamp: NOW_S - 301 })));
    expect(stale).toEqual({ status: 401, body: { ok: false, error: 'signature timestamp is older than 5 minutes' } });
    expect(store.calls).toEqual([]);
    expect((await handle(await stripeRequest(stripeSessionEvent(), { timestamp: NOW_S - 299 }))).status).toBe(200);
  });

  it('refuses a signature over another timestamp (the t= value is signed too)', async () => {
    const { store, handle } = setup();
    const raw = JSON.stringify(stripeSessionEvent());
    const header = `t=${NOW_S},v1=${await stripeSignature(raw, NOW_S - 1000)}`;
    expect((await handle(await stripeRequest(raw, { timestamp: NOW_S, header }))).status).toBe(401);
    expect(store.calls).toEqual([]);
  });

  it('accepts any one of several v1 signatures (a secret being rolled)', async () => {
    const { handle } = setup();
    const raw = JSON.stringify(stripeSessionEvent());
    const good = await stripeSignature(raw, NOW_S);
    const other = await stripeSignature(raw, NOW_S, 'whsec_old');
    const header = `t=${NOW_S},v1=${other},v1=${good}`;
    expect((await handle(await stripeRequest(raw, { timestamp: NOW_S, header }))).status).toBe(200);
  });

  it('a replayed event (same id, freshly signed) changes nothing the second time', async () => {
    const { store, handle } = setup();
    const event = stripeSessionEvent();
    await handle(await stripeRequest(event, { timestamp: NOW_S - 10 }));
    const replay = await answer(await handle(await stripeRequest(event, { timestamp: NOW_S })));
    expect(replay.body).toMatchObject({ ok: true, outcome: 'duplicate' });
    expect(store.calls.filter((c) => c.kind === 'invite')).toHaveLength(1);
  });

  it('answers 400 to a signed body that is not an event', async () => {
    const { store, handle } = setup();
    expect((await handle(await stripeRequest('[1,2]', { timestamp: NOW_S }))).status).toBe(400);
    expect(
      (await handle(await stripeRequest({ id: 'evt_1', type: 'charge.refunded' }, { timestamp: NOW_S }))).status,
    ).toBe(400);
    const noEmail = stripeSessionEvent({ customer_details: {}, customer_email: null });
    expect((await handle(await stripeRequest(noEmail, { timestamp: NOW_S }))).status).toBe(400);
    expect(store.calls).toEqual([]);
  });

  it('records a sale of an unknown price as unmatched, with its price and product ids', async () => {
    const { store, handle } = setup();
    const unknownPrice = stripeSessionEvent({
      line_items: { data: [{ price: { id: 'price_new', product: 'prod_known' } }] },
    });
    const res = await answer(await handle(await stripeRequest(unknownPrice, { timestamp: NOW_S })));
    expect(res).toEqual({ status: 200, body: { ok: true, outcome: 'unmatched' } });
    expect(store.calls).toMatchObject([
      { sale: { lines: [{ stripe_price: 'price_new', stripe_product: 'prod_known' }] } },
    ]);
  });

  it('matches a new price of a catalog product by its Stripe product id', async () => {
    const { store, handle } = setup();
    store.catalog.set('stripe_product:prod_foundation', 'foundation');
    const newPrice = stripeSessionEvent({
      line_items: { data: [{ price: { id: 'price_raised', product: { id: 'prod_foundation' } } }] },
    });
    const res = await answer(await handle(await stripeRequest(newPrice, { timestamp: NOW_S })));
    expect(res.body).toMatchObject({ outcome: 'recorded', tier: 'foundation' });
  });

  it('acknowledges unknown event types and unpaid sessions (200) without writing', async () => {
    const { store, handle } = setup();
    const unknownType = { ...stripeSessionEvent(), type: 'customer.created' };
    const unpaid = stripeSessionEvent({ payment_status: 'unpaid' });
    for (const event of [unknownType, unpaid]) {
      const res = await answer(await handle(await stripeRequest(event, { timestamp: NOW_S })));
      expect(res).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    }
    expect(store.calls).toEqual([]);
  });

  it('reads the line items from Stripe when the event does not carry them', async () => {
    const asked: string[] = [];
    const { handle } = setup({
      lineItems: async (sessionId) => {
        asked.push(sessionId);
        return [{ stripe_price: 'REPLACE_ME_stripe_price_ebook' }];
      },
    });
    const res = await answer(
      await handle(await stripeRequest(stripeSessionEvent({ line_items: undefined }), { timestamp: NOW_S })),
    );
    expect(asked).toEqual(['cs_test_123']);
    expect(res.body).toMatchObject({ outcome: 'recorded', tier: 'ebook' });
  });

  it('answers 500 (Stripe retries) when it cannot read the line items, and writes nothing', async () => {
    const { store, handle } = setup();
    const res = await handle(await stripeRequest(stripeSessionEvent({ line_items: undefined }), { timestamp: NOW_S }));
    expect(res.status).toBe(500);
    expect(store.calls).toEqual([]);
  });

  it('a full charge.refunded withdraws the payment intent’s order; a partial refund does not', async () => {
    const { store, handle } = setup();
    const refund = (refunded: boolean) => ({
      id: `evt_${refunded}`,
      type: 'charge.refunded',
      created: NOW_S,
      data: {
        object: {
          id: 'ch_1',
          payment_intent: 'pi_test_123',
          amount: 49900,
          amount_refunded: refunded ? 49900 : 1000,
          refunded,
        },
      },
    });
    expect(await answer(await handle(await stripeRequest(refund(false), { timestamp: NOW_S })))).toMatchObject({
      body: { outcome: 'ignored' },
    });
    expect(await answer(await handle(await stripeRequest(refund(true), { timestamp: NOW_S })))).toMatchObject({
      body: { outcome: 'refunded' },
    });
    expect(store.calls).toEqual([
      {
        kind: 'refund',
        refund: {
          kind: 'refund',
          provider: 'stripe',
          eventId: 'evt_true',
          orderId: 'pi_test_123',
          occurredAt: NOW.toISOString(),
          lines: null,
        },
      },
    ]);
  });
});

describe('the buyer’s account', () => {
  it('invites a buyer with no account or an unconfirmed one, to the set-password page', async () => {
    const { store, handle } = setup();
    store.accounts.set('squatted@example.com', 'unconfirmed');
    await handle(await shopifyRequest('orders/paid', shopifyOrder({ id: 1, email: 'new@example.com' })));
    await handle(await shopifyRequest('orders/paid', shopifyOrder({ id: 2, email: 'squatted@example.com' })));
    expect(store.calls.filter((c) => c.kind === 'invite')).toEqual([
      { kind: 'invite', email: 'new@example.com', redirectTo: REDIRECT },
      { kind: 'invite', email: 'squatted@example.com', redirectTo: REDIRECT },
    ]);
  });

  it('does not invite a buyer whose account is confirmed', async () => {
    const { store, handle } = setup();
    store.accounts.set('buyer@example.com', 'confirmed');
    const res = await answer(await handle(await shopifyRequest('orders/paid', shopifyOrder())));
    expect(res.body).toEqual({ ok: true, outcome: 'recorded', tier: 'foundation', account: 'confirmed' });
    expect(store.calls.map((c) => c.kind)).toEqual(['purchase']);
  });

  it('takes "already registered" as fine: the invitation is marked accepted', async () => {
    const { store, handle } = setup();
    store.inviteAnswer = { kind: 'already_registered' };
    const res = await answer(await handle(await shopifyRequest('orders/paid', shopifyOrder())));
    expect(res).toMatchObject({ status: 200, body: { invitation: 'already_registered' } });
    expect(store.invitations.get('buyer@example.com')?.status).toBe('accepted');
  });

  it('answers 200 once the sale is recorded even when the invitation is refused; a later delivery sends it', async () => {
    const { store, logs, handle } = setup();
    const reason = 'mail API 422 validation_error: Invalid `to` field.';
    store.inviteAnswer = { kind: 'failed', reason };
    const first = await answer(
      await handle(await shopifyRequest('orders/paid', shopifyOrder(), { webhookId: 'wh-x' })),
    );
    expect(first).toMatchObject({ status: 200, body: { outcome: 'recorded', invitation: 'failed' } });
    expect(store.invitations.get('buyer@example.com')?.status).toBe('failed');
    expect(logs).toContainEqual(expect.objectContaining({ message: 'invitation failed', reason }));
    store.inviteAnswer = { kind: 'invited' };
    const retry = await answer(
      await handle(await shopifyRequest('orders/paid', shopifyOrder(), { webhookId: 'wh-x' })),
    );
    expect(retry).toMatchObject({ status: 200, body: { outcome: 'duplicate', invitation: 'invited' } });
    expect(store.invitations.get('buyer@example.com')?.status).toBe('sent');
  });

  it('answers 200 when the e-mail budget is spent (429): the invitation waits as pending, with the reason', async () => {
    const { store, handle } = setup();
    store.inviteAnswer = { kind: 'rate_limited', reason: 'over_email_send_rate_limit: email rate limit exceeded' };
    const res = await answer(await handle(await shopifyRequest('orders/paid', shopifyOrder())));
    expect(res).toMatchObject({ status: 200, body: { outcome: 'recorded', invitation: 'pending' } });
    expect(store.calls.at(-1)).toEqual({
      kind: 'finish',
      email: 'buyer@example.com',
      outcome: 'pending',
      reason: 'over_email_send_rate_limit: email rate limit exceeded',
    });
  });

  it('never invites twice while the first invitation is good: a duplicate id, a new id, a second order', async () => {
    const { store, handle } = setup();
    const deliveries = await Promise.all([
      shopifyRequest('orders/paid', shopifyOrder({ id: 1 }), { webhookId: 'wh-1' }),
      shopifyRequest('orders/paid', shopifyOrder({ id: 1 }), { webhookId: 'wh-1' }),
      shopifyRequest('orders/paid', shopifyOrder({ id: 1 }), { webhookId: 'wh-2' }),
      shopifyRequest('orders/paid', shopifyOrder({ id: 2 }), { webhookId: 'wh-3' }),
    ]);
    const answers = await Promise.all(deliveries.map(async (d) => answer(await handle(d))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.body.invitation).sort()).toEqual([
      'already_handled',
      'already_handled',
      'already_handled',
      'invited',
    ]);
    expect(store.calls.filter((c) => c.kind === 'invite')).toHaveLength(1);
  });
});

describe('the scheduled run (…/purchase-webhook/invitations)', () => {
  const KEY = 'service-role-key';
  function scheduled(key: string | null = KEY) {
    return new Request(`${BASE}/invitations`, {
      method: 'POST',
      headers: key === null ? {} : { Authorization: `Bearer ${key}` },
      body: '{}',
    });
  }

  it('needs the service-role key (401), and is 404 where no key is configured', async () => {
    const { store, handle } = setup();
    expect((await handle(scheduled())).status).toBe(404);
    const withKey = createWebhookHandler({ providers: [], store, inviteRedirectTo: REDIRECT, scheduleKey: KEY });
    expect((await withKey(scheduled('wrong'))).status).toBe(401);
    expect((await withKey(scheduled(null))).status).toBe(401);
    expect((await withKey(scheduled(`${KEY}x`))).status).toBe(401);
  });

  it('sends pending invitations until the budget is spent again, and leaves the rest pending', async () => {
    const { store, handle: deliver } = setup();
    store.inviteAnswer = { kind: 'rate_limited', reason: 'over_email_send_rate_limit' };
    for (const id of [1, 2, 3]) {
      await deliver(await shopifyRequest('orders/paid', shopifyOrder({ id, email: `b${id}@example.com` })));
    }
    expect([...store.invitations.values()].map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    const run = createWebhookHandler({ providers: [], store, inviteRedirectTo: REDIRECT, scheduleKey: KEY });
    // The budget frees for one e-mail: the first is sent, the second meets the 429, the third is not tried.
    let left = 1;
    store.inviteBuyer = async (email, redirectTo) => {
      store.calls.push({ kind: 'invite', email, redirectTo });
      return left-- > 0 ? { kind: 'invited' } : { kind: 'rate_limited', reason: 'over_email_send_rate_limit' };
    };
    const res = await answer(await run(scheduled()));
    expect(res).toEqual({ status: 200, body: { ok: true, due: 3, sent: 1, accepted: 0, pending: 2, failed: 0 } });
    expect([...store.invitations].map(([e, r]) => [e, r.status])).toEqual([
      ['b1@example.com', 'sent'],
      ['b2@example.com', 'pending'],
      ['b3@example.com', 'pending'],
    ]);
    left = 10;
    expect((await answer(await run(scheduled()))).body).toMatchObject({ due: 2, sent: 2 });
    expect(store.calls.filter((c) => c.kind === 'invite').map((c) => c.kind === 'invite' && c.email)).toEqual([
      'b1@example.com',
      'b2@example.com',
      'b3@example.com',
      'b1@example.com',
      'b2@example.com',
      'b2@example.com',
      'b3@example.com',
    ]);
  });
});

describe('the request', () => {
  it('takes POST only (405), names an enabled provider (404), and caps the body (413)', async () => {
    const { store, handle } = setup();
    const get = await handle(new Request(`${BASE}/shopify`));
    expect([get.status, get.headers.get('Allow')]).toEqual([405, 'POST']);
    expect((await handle(new Request(`${BASE}`, { method: 'POST', body: '{}' }))).status).toBe(404);
    const onlyShopify = createWebhookHandler({
      providers: [shopifyProvider(SHOPIFY_SECRET)],
      store,
      inviteRedirectTo: REDIRECT,
    });
    expect((await onlyShopify(new Request(`${BASE}/stripe`, { method: 'POST', body: '{}' }))).status).toBe(404);
    // With one provider enabled the bare URL is that provider.
    expect((await onlyShopify(new Request(`${BASE}`, { method: 'POST', body: '{}' }))).status).toBe(401);
    const big = await shopifyRequest('orders/paid', shopifyOrder({ note: 'x'.repeat(1024 * 1024) }));
    expect((await handle(big)).status).toBe(413);
    expect(store.calls).toEqual([]);
  });

  it('stops reading a body with no declared length at the limit (413), without reading the rest', async () => {
    const { store, handle } = setup();
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        // 8 MiB on offer; the limit is 1 MiB.
        if (pulled > 8 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const req = new Request(`${BASE}/shopify`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(req.headers.get('content-length')).toBeNull();
    expect((await handle(req)).status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1024 * 1024 + 2 * chunk.byteLength);
    expect(store.calls).toEqual([]);
  });

  it('answers 500 when the database fails to record the sale, so the provider retries', async () => {
    const { store, logs, handle } = setup();
    store.recordPurchase = async () => {
      throw new Error('connection refused');
    };
    expect((await handle(await shopifyRequest('orders/paid', shopifyOrder()))).status).toBe(500);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'error', error: 'connection refused' }));
  });
});

describe('the campaign the checkout link carried', () => {
  const launch: Campaign = { source: 'podcast', medium: 'audio', campaign: 'launch', referrer: 'youtube.com' };

  it('Stripe: client_reference_id made by encodeReference is kept with the recorded sale', async () => {
    const { store, handle } = setup();
    const event = stripeSessionEvent({ client_reference_id: encodeReference(launch) });
    const res = await answer(await handle(await stripeRequest(event, { timestamp: NOW_S })));
    expect(res.body).toMatchObject({ ok: true, outcome: 'recorded', tier: 'accelerated' });
    expect(store.calls[0]).toMatchObject({ kind: 'purchase', sale: { campaign: launch } });
    expect(store.calls[1]).toEqual({ kind: 'campaign', provider: 'stripe', orderId: 'pi_test_123', campaign: launch });
    expect(store.campaigns.get('stripe:pi_test_123')).toEqual(launch);
  });

  it('Stripe: no client_reference_id, or one the site did not make, records the sale with no campaign', async () => {
    const { store, handle } = setup();
    for (const [id, reference] of [
      ['pi_1', undefined],
      ['pi_2', null],
      ['pi_3', 'user_42'],
    ] as const) {
      const event = stripeSessionEvent({ payment_intent: id, client_reference_id: reference });
      const res = await answer(await handle(await stripeRequest(event, { timestamp: NOW_S })));
      expect(res.body).toMatchObject({ ok: true, outcome: 'recorded' });
    }
    expect(
      store.calls.filter((c) => c.kind === 'purchase').map((c) => c.kind === 'purchase' && c.sale.campaign),
    ).toEqual([null, null, null]);
    expect(store.calls.filter((c) => c.kind === 'campaign')).toEqual([]);
  });

  it('Shopify: the landing_site’s utm codes and the referring_site’s host', async () => {
    const { store, handle } = setup();
    const order = shopifyOrder({
      landing_site: '/cart/77:1?utm_source=Newsletter&utm_medium=email&utm_campaign=Spring',
      referring_site: 'https://www.Google.com/search?q=x',
      note_attributes: [{ name: 'utm_source', value: 'ignored' }],
    });
    await handle(await shopifyRequest('orders/paid', order));
    const expected = { source: 'newsletter', medium: 'email', campaign: 'spring', referrer: 'google.com' };
    expect(store.campaigns.get('shopify:5551234567')).toEqual(expected);
  });

  it('Shopify: else the note_attributes named utm_…; a referring_site on the site itself is no referrer', async () => {
    const store = new MemoryStore();
    const handle = createWebhookHandler({
      providers: [shopifyProvider(SHOPIFY_SECRET, () => NOW, 'https://www.site.test')],
      store,
      inviteRedirectTo: REDIRECT,
    });
    const order = shopifyOrder({
      landing_site: '/products/book',
      referring_site: 'https://site.test/bundles',
      note_attributes: [
        { name: 'utm_campaign', value: 'Launch' },
        { name: 'gift', value: 'yes' },
      ],
    });
    await handle(await shopifyRequest('orders/paid', order));
    expect(store.campaigns.get('shopify:5551234567')).toEqual({
      source: null,
      medium: null,
      campaign: 'launch',
      referrer: null,
    });
  });

  it('Shopify: nothing to go on is no campaign', async () => {
    const { store, handle } = setup();
    await handle(await shopifyRequest('orders/paid', shopifyOrder({ landing_site: '/', referring_site: '' })));
    expect(store.calls.filter((c) => c.kind === 'campaign')).toEqual([]);
    expect(store.calls[0]).toMatchObject({ sale: { campaign: null } });
  });

  it('a duplicate delivery keeps it again; an unmatched sale has no purchase to keep it on', async () => {
    const { store, handle } = setup();
    const event = stripeSessionEvent({ client_reference_id: encodeReference(launch) });
    await handle(await stripeRequest(event, { timestamp: NOW_S }));
    const again = await answer(await handle(await stripeRequest(event, { timestamp: NOW_S })));
    expect(again.body).toMatchObject({ outcome: 'duplicate' });
    expect(store.calls.filter((c) => c.kind === 'campaign')).toHaveLength(2);
    const unknown = stripeSessionEvent({
      payment_intent: 'pi_unknown',
      client_reference_id: encodeReference(launch),
      line_items: { data: [{ price: { id: 'price_not_in_catalog' } }] },
    });
    const res = await answer(await handle(await stripeRequest(unknown, { timestamp: NOW_S })));
    expect(res.body).toMatchObject({ outcome: 'unmatched' });
    expect(store.calls.filter((c) => c.kind === 'campaign')).toHaveLength(2);
  });

  it('a campaign the database refuses is logged; the sale stands, answered 200, and the buyer is invited', async () => {
    const { store, logs, handle } = setup();
    store.campaignFailure = new Error('function record_purchase_campaign does not exist');
    const event = stripeSessionEvent({ client_reference_id: encodeReference(launch) });
    const res = await answer(await handle(await stripeRequest(event, { timestamp: NOW_S })));
    expect(res).toEqual({
      status: 200,
      body: { ok: true, outcome: 'recorded', tier: 'accelerated', account: 'none', invitation: 'invited' },
    });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'campaign not kept',
        orderId: 'pi_test_123',
        error: 'function record_purchase_campaign does not exist',
      }),
    );
    expect(store.campaigns.size).toBe(0);
  });

  it('a campaign with no purchase to keep it on is logged as a warning', async () => {
    const { store, logs, handle } = setup();
    store.recordCampaign = async () => false;
    const event = stripeSessionEvent({ client_reference_id: encodeReference(launch) });
    expect((await handle(await stripeRequest(event, { timestamp: NOW_S }))).status).toBe(200);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', message: 'campaign not kept: no purchase' }));
  });
});
