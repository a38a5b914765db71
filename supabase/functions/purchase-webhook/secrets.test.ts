// What `GET …/purchase-webhook/secrets` says production needs (secrets.ts), and the function whose
// configuration stops it: 503 to deliveries, while the route still names what is missing.
import { describe, expect, it } from 'vitest';
import { notConfigured, webhookSecrets, withSecretsRoute } from './secrets.ts';
import { secretsReport } from '../_shared/secrets-route.ts';
import { BASE } from './test-support.ts';

const KEY = 'service-role-key';
const FULL = {
  SUPABASE_URL: 'http://kong:8000',
  SUPABASE_SERVICE_ROLE_KEY: KEY,
  SITE_URL: 'https://site.test',
  MAIL_API_KEY: 're_x',
  MAIL_FROM: 'Shop <hi@shop.test>',
  SHOPIFY_WEBHOOK_SECRET: 'shh',
};

const missing = (env: Record<string, string>) => secretsReport('purchase-webhook', webhookSecrets(env), env).missing;

describe('the webhook’s secrets', () => {
  it('needs the mail API’s key and sender, SITE_URL and one provider’s signing secret', () => {
    expect(missing(FULL)).toEqual([]);
    const { MAIL_API_KEY: _key, MAIL_FROM: _from, ...noMail } = FULL;
    expect(missing(noMail)).toEqual(['MAIL_API_KEY', 'MAIL_FROM']);
    const { SHOPIFY_WEBHOOK_SECRET: _shopify, ...noProvider } = FULL;
    expect(missing(noProvider)).toEqual(['SHOPIFY_WEBHOOK_SECRET or STRIPE_WEBHOOK_SECRET']);
    expect(missing({ ...noProvider, STRIPE_WEBHOOK_SECRET: 'whsec' })).toEqual([]);
  });

  it('with PURCHASE_PROVIDER, each provider it names needs its own secret', () => {
    expect(missing({ ...FULL, PURCHASE_PROVIDER: 'shopify, Stripe' })).toEqual(['STRIPE_WEBHOOK_SECRET']);
    expect(webhookSecrets({ PURCHASE_PROVIDER: 'stripe' })).toMatchObject({ anyOf: [] });
  });

  it('lists what it reads when set as optional', () => {
    expect(secretsReport('purchase-webhook', webhookSecrets(FULL), FULL).optional).toEqual({
      STRIPE_API_KEY: false,
      MAIL_API_URL: false,
      PURCHASE_PROVIDER: false,
    });
  });
});

describe('a webhook its configuration stops', () => {
  it('answers 503 to a delivery (the provider retries), and the route still says what is missing', async () => {
    const { SHOPIFY_WEBHOOK_SECRET: _s, MAIL_FROM: _f, ...env } = FULL;
    const handle = withSecretsRoute(env, notConfigured());
    const delivery = await handle(new Request(`${BASE}/shopify`, { method: 'POST', body: '{}' }));
    expect(delivery.status).toBe(503);
    expect(await delivery.json()).toMatchObject({ ok: false });
    const route = await handle(new Request(`${BASE}/secrets`, { headers: { Authorization: `Bearer ${KEY}` } }));
    expect(((await route.json()) as { missing: string[] }).missing).toEqual([
      'MAIL_FROM',
      'SHOPIFY_WEBHOOK_SECRET or STRIPE_WEBHOOK_SECRET',
    ]);
  });
});
