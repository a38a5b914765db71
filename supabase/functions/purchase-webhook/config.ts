// The function's settings, read from its environment (`supabase secrets set …`; the local
// stand-in passes development values). Missing settings stop the function at boot with a
// message that names them, rather than failing on the first sale (index.ts logs it and answers
// 503; `…/purchase-webhook/secrets` names what is missing: secrets.ts).
import { shopifyProvider } from './shopify.ts';
import { stripeLineItemsFromApi, stripeProvider } from './stripe.ts';
import type { MailApi } from './mail.ts';
import { providerNames, type ProviderName, type PurchaseProvider } from './types.ts';

export type WebhookConfig = {
  supabaseUrl: string;
  serviceRoleKey: string;
  /** The site's origin; invitations land on `${siteUrl}/auth/set-password`. */
  siteUrl: string;
  providers: PurchaseProvider[];
  /** The transactional mail API invitations go through; null: Auth's own invite sends them. */
  mailApi: MailApi | null;
};

/** Resend's API, the provider MAIL_API_URL defaults to. */
export const DEFAULT_MAIL_API_URL = 'https://api.resend.com';

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`purchase-webhook: ${name} is not set`);
  return value;
}

/**
 * PURCHASE_PROVIDER (`shopify`, `stripe` or `shopify,stripe`) says which providers are on;
 * unset, every provider whose webhook secret is set is on. Each enabled provider needs its
 * secret: SHOPIFY_WEBHOOK_SECRET, STRIPE_WEBHOOK_SECRET (and STRIPE_API_KEY to read line items).
 */
export function readConfig(env: Env): WebhookConfig {
  const secrets: Record<ProviderName, string | undefined> = {
    shopify: env.SHOPIFY_WEBHOOK_SECRET?.trim() || undefined,
    stripe: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined,
  };
  const listed = env.PURCHASE_PROVIDER?.trim();
  let enabled: ProviderName[];
  if (listed) {
    const names = listed.split(',').map((n) => n.trim().toLowerCase());
    const unknown = names.filter((n) => !(providerNames as readonly string[]).includes(n));
    if (unknown.length) throw new Error(`purchase-webhook: unknown PURCHASE_PROVIDER ${unknown.join(', ')}`);
    enabled = providerNames.filter((n) => names.includes(n));
    for (const name of enabled) {
      if (!secrets[name]) throw new Error(`purchase-webhook: ${name.toUpperCase()}_WEBHOOK_SECRET is not set`);
    }
  } else {
    enabled = providerNames.filter((n) => secrets[n]);
  }
  if (enabled.length === 0) {
    throw new Error('purchase-webhook: no provider enabled; set SHOPIFY_WEBHOOK_SECRET or STRIPE_WEBHOOK_SECRET');
  }
  const mailApi = readMailApi(env);
  const supabaseUrl = required(env, 'SUPABASE_URL');
  const serviceRoleKey = required(env, 'SUPABASE_SERVICE_ROLE_KEY');
  const siteUrl = required(env, 'SITE_URL').replace(/\/+$/, '');
  const stripeApiKey = env.STRIPE_API_KEY?.trim();
  const providers = enabled.map((name) =>
    name === 'shopify'
      ? shopifyProvider(secrets.shopify ?? '', undefined, siteUrl)
      : stripeProvider(secrets.stripe ?? '', stripeApiKey ? stripeLineItemsFromApi(stripeApiKey) : null),
  );
  return { mailApi, supabaseUrl, serviceRoleKey, siteUrl, providers };
}

/**
 * MAIL_API_KEY (the provider's key) turns invitations through the mail API on; MAIL_FROM (an
 * address on the provider's verified domain) is then required, MAIL_API_URL optional.
 */
function readMailApi(env: Env): MailApi | null {
  const key = env.MAIL_API_KEY?.trim();
  if (!key) return null;
  const url = (env.MAIL_API_URL?.trim() || DEFAULT_MAIL_API_URL).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new Error(`purchase-webhook: MAIL_API_URL is not an http(s) URL: ${url}`);
  return { url, key, from: required(env, 'MAIL_FROM') };
}
