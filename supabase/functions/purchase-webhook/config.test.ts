import { describe, expect, it } from 'vitest';
import { readConfig } from './config.ts';

const base = {
  SUPABASE_URL: 'http://127.0.0.1:54321',
  SUPABASE_SERVICE_ROLE_KEY: 'service-role',
  SITE_URL: 'https://site.test/',
};

describe('readConfig', () => {
  it('enables every provider whose secret is set when PURCHASE_PROVIDER is unset', () => {
    const both = readConfig({ ...base, SHOPIFY_WEBHOOK_SECRET: 's', STRIPE_WEBHOOK_SECRET: 'w' });
    expect(both.providers.map((p) => p.name)).toEqual(['shopify', 'stripe']);
    expect(readConfig({ ...base, STRIPE_WEBHOOK_SECRET: 'w' }).providers.map((p) => p.name)).toEqual(['stripe']);
    expect(both.siteUrl).toBe('https://site.test');
  });

  it('PURCHASE_PROVIDER picks the providers, and each one picked needs its secret', () => {
    const env = { ...base, SHOPIFY_WEBHOOK_SECRET: 's', STRIPE_WEBHOOK_SECRET: 'w', PURCHASE_PROVIDER: 'stripe' };
    expect(readConfig(env).providers.map((p) => p.name)).toEqual(['stripe']);
    expect(() => readConfig({ ...base, PURCHASE_PROVIDER: 'shopify' })).toThrow('SHOPIFY_WEBHOOK_SECRET is not set');
    expect(() => readConfig({ ...base, SHOPIFY_WEBHOOK_SECRET: 's', PURCHASE_PROVIDER: 'paypal' })).toThrow(
      'unknown PURCHASE_PROVIDER paypal',
    );
  });

  it('stops at boot, naming what is missing', () => {
    expect(() => readConfig(base)).toThrow('no provider enabled');
    expect(() => readConfig({ ...base, SITE_URL: '', SHOPIFY_WEBHOOK_SECRET: 's' })).toThrow('SITE_URL is not set');
    expect(() => readConfig({ ...base, SUPABASE_SERVICE_ROLE_KEY: undefined, SHOPIFY_WEBHOOK_SECRET: 's' })).toThrow(
      'SUPABASE_SERVICE_ROLE_KEY is not set',
    );
  });
});
