// The purchase webhook's secrets, as `GET …/purchase-webhook/secrets` reports them to the
// service-role key (../_shared/secrets-route.ts; `npm run smoke` asks): what production needs is
// the platform's URL and key, SITE_URL, the mail API's key and sender (without them invitations
// go through Auth's hourly e-mail budget: docs/decisions/079-invitations-through-the-mail-api.md)
// and the signing secret of each checkout provider that is on (config.ts). And what the function
// answers when its configuration stops it: 503 to everything but that route, so the route can
// still say what is missing.
import { withSecretsRoute as withRoute, type SecretsSpec } from '../_shared/secrets-route.ts';
import { json } from './http.ts';
import { providerNames, type ProviderName } from './types.ts';

type Env = Record<string, string | undefined>;

const SIGNING_SECRET: Record<ProviderName, string> = {
  shopify: 'SHOPIFY_WEBHOOK_SECRET',
  stripe: 'STRIPE_WEBHOOK_SECRET',
};

/**
 * PURCHASE_PROVIDER names the providers that are on, each then needing its signing secret;
 * unset, at least one provider's secret is needed (config.ts readConfig's rule).
 */
export function webhookSecrets(env: Env): SecretsSpec {
  const listed = (env.PURCHASE_PROVIDER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name): name is ProviderName => (providerNames as readonly string[]).includes(name));
  const base = ['SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'SITE_URL', 'MAIL_API_KEY', 'MAIL_FROM'];
  return {
    required: listed.length ? [...base, ...listed.map((name) => SIGNING_SECRET[name])] : base,
    anyOf: listed.length ? [] : [providerNames.map((name) => SIGNING_SECRET[name])],
    // STRIPE_API_KEY reads a Checkout Session's line items when its event lacks them.
    optional: ['STRIPE_API_KEY', 'MAIL_API_URL', 'PURCHASE_PROVIDER'],
  };
}

/** The webhook's handler with `…/purchase-webhook/secrets` in front of it. */
export function withSecretsRoute(
  env: Env,
  handler: (req: Request) => Response | Promise<Response>,
): (req: Request) => Promise<Response> {
  return withRoute('purchase-webhook', webhookSecrets(env), env, handler);
}

/**
 * The function whose configuration is incomplete (readConfig threw; the log says why): 503 to
 * every delivery, so the provider retries once it is fixed, and nothing is recorded.
 */
export function notConfigured(): (req: Request) => Promise<Response> {
  return async (req) => {
    await req.body?.cancel();
    return json(503, {
      ok: false,
      error: 'the function is not configured; GET …/purchase-webhook/secrets says what is missing',
    });
  };
}
