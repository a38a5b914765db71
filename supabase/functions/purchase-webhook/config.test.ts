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

  it('sends invitations through the mail API when MAIL_API_KEY is set, and then needs MAIL_FROM', () => {
    const shop = { ...base, SHOPIFY_WEBHOOK_SECRET: 's' };
    expect(readConfig(shop).mailApi).toBeNull();
    expect(readConfig({ ...shop, MAIL_API_KEY: ' ', MAIL_FROM: 'x@y.test' }).mailApi).toBeNull();
    expect(readConfig({ ...shop, MAIL_API_KEY: 're_k', MAIL_FROM: 'Yes <hi@y.test>' }).mailApi).toEqual({
      url: 'https://api.resend.com',
      key: 're_k',
      from: 'Yes <hi@y.test>',
    });
    const other = { ...shop, MAIL_API_KEY: 'k', MAIL_FROM: 'hi@y.test', MAIL_API_URL: 'http://127.0.0.1:54321/mail/' };
    expect(readConfig(other).mailApi?.url).toBe('http://127.0.0.1:54321/mail');
    expect(() => readConfig({ ...shop, MAIL_API_KEY: 're_k' })).toThrow('MAIL_FROM is not set');
    expect(() => readConfig({ ...other, MAIL_API_URL: 'ftp://mail.test' })).toThrow(
      'MAIL_API_URL is not an http(s) URL',
    );
  });
});
