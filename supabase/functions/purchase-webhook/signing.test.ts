// signing.ts is the one definition both sides of the tests use (test-support.ts signs with it,
// the providers verify with it), so a mistake in it would pass them all. Here it meets an
// outside party: Stripe's own library, and the Node crypto recipe of Shopify's documentation.
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { shopifySignatureHeader, stripeSignatureHeader } from './signing.ts';

const raw = JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', note: 'café, ✓' });

describe('Stripe-Signature', () => {
  it('is the header Stripe’s library makes, and Stripe’s library accepts it', async () => {
    const secret = 'whsec_signing_test';
    const timestamp = Math.floor(Date.now() / 1000);
    const ours = await stripeSignatureHeader(secret, timestamp, raw);
    expect(ours).toBe(await Stripe.webhooks.generateTestHeaderStringAsync({ payload: raw, secret, timestamp }));
    await expect(Stripe.webhooks.constructEventAsync(raw, ours, secret)).resolves.toMatchObject({ id: 'evt_1' });
    await expect(Stripe.webhooks.constructEventAsync(raw, ours, 'whsec_other')).rejects.toThrow(/signature/i);
  });
});

describe('X-Shopify-Hmac-Sha256', () => {
  it('is the base64 HMAC-SHA256 of the raw body that Shopify’s documentation computes', async () => {
    const secret = 'shopify_signing_test';
    const documented = createHmac('sha256', secret).update(raw, 'utf8').digest('base64');
    expect(await shopifySignatureHeader(secret, raw)).toBe(documented);
    expect(await shopifySignatureHeader('another secret', raw)).not.toBe(documented);
  });
});
