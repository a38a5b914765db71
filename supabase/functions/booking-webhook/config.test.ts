// Which providers are on (config.ts), and what `GET …/booking-webhook/secrets` says production
// needs (secrets.ts).
import { describe, expect, it } from 'vitest';
import { secretsReport } from '../_shared/secrets-route.ts';
import { readConfig } from './config.ts';
import { bookingSecrets, notConfigured, withSecretsRoute } from './secrets.ts';
import { BASE } from './test-support.ts';

const KEY = 'service-role-key';
const PLATFORM = { SUPABASE_URL: 'http://kong:8000', SUPABASE_ANON_KEY: 'anon', SUPABASE_SERVICE_ROLE_KEY: KEY };
const on = (env: Record<string, string | undefined>) =>
  Object.fromEntries(readConfig(env).providers.map((p) => [p.name, p.enabled]));
const missing = (env: Record<string, string>) => secretsReport('booking-webhook', bookingSecrets(env), env).missing;

describe('readConfig', () => {
  it('turns on each provider whose secret is set; BOOKING_PROVIDER can switch one off', () => {
    const both = { ...PLATFORM, CALCOM_WEBHOOK_SECRET: 'c', CALENDLY_WEBHOOK_SIGNING_KEY: ' k ' };
    expect(on(both)).toEqual({ calcom: true, calendly: true });
    expect(on({ ...both, BOOKING_PROVIDER: 'Calendly' })).toEqual({ calcom: false, calendly: true });
    expect(on({ ...PLATFORM, CALCOM_WEBHOOK_SECRET: ' ' })).toEqual({ calcom: false, calendly: false });
  });

  it('stops at boot on an unknown provider or without the platform’s values', () => {
    expect(() => readConfig({ ...PLATFORM, BOOKING_PROVIDER: 'acuity' })).toThrow('unknown BOOKING_PROVIDER acuity');
    expect(() => readConfig({ ...PLATFORM, SUPABASE_ANON_KEY: '' })).toThrow('SUPABASE_ANON_KEY is not set');
  });
});

describe('the webhook’s secrets', () => {
  it('needs the platform’s values and one provider’s secret; with BOOKING_PROVIDER, each one named', () => {
    expect(missing({ ...PLATFORM, CALENDLY_WEBHOOK_SIGNING_KEY: 'k' })).toEqual([]);
    expect(missing(PLATFORM)).toEqual(['CALCOM_WEBHOOK_SECRET or CALENDLY_WEBHOOK_SIGNING_KEY']);
    expect(missing({ ...PLATFORM, CALCOM_WEBHOOK_SECRET: 'c', BOOKING_PROVIDER: 'calcom,calendly' })).toEqual([
      'CALENDLY_WEBHOOK_SIGNING_KEY',
    ]);
    expect(bookingSecrets({}).optional).toEqual(['BOOKING_PROVIDER']);
  });

  it('a stopped function answers 503, and its secrets route still says what is missing', async () => {
    const env = { ...PLATFORM, SUPABASE_ANON_KEY: '' };
    const handle = withSecretsRoute(env, notConfigured());
    expect((await handle(new Request(BASE, { method: 'POST', body: '{}' }))).status).toBe(503);
    const route = await handle(new Request(`${BASE}/secrets`, { headers: { Authorization: `Bearer ${KEY}` } }));
    expect(((await route.json()) as { missing: string[] }).missing).toEqual([
      'SUPABASE_ANON_KEY',
      'CALCOM_WEBHOOK_SECRET or CALENDLY_WEBHOOK_SIGNING_KEY',
    ]);
  });
});
