// The booking webhook's secrets, as `GET …/booking-webhook/secrets` reports them to the
// service-role key (../_shared/secrets-route.ts; `npm run smoke` asks): the platform's URL and
// keys, and the signing secret of each provider that is on (config.ts). And what the function
// answers when its configuration stops it: 503 to everything but that route.
import { withSecretsRoute as withRoute, type SecretsSpec } from '../_shared/secrets-route.ts';
import { listedProviders, SIGNING_SECRET } from './config.ts';
import { json } from './http.ts';
import { providerNames } from './types.ts';

type Env = Record<string, string | undefined>;

/**
 * BOOKING_PROVIDER names the providers that are on, each then needing its secret; unset, at least
 * one provider's secret is needed. An unknown name is reported as if unset (readConfig refuses it).
 */
export function bookingSecrets(env: Env): SecretsSpec {
  let listed: readonly string[] = [];
  try {
    listed = env.BOOKING_PROVIDER?.trim() ? listedProviders(env) : [];
  } catch {
    listed = [];
  }
  const base = ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'];
  const named = providerNames.filter((name) => listed.includes(name));
  return {
    required: [...base, ...named.map((name) => SIGNING_SECRET[name])],
    anyOf: named.length ? [] : [providerNames.map((name) => SIGNING_SECRET[name])],
    optional: ['BOOKING_PROVIDER'],
  };
}

/** The webhook's handler with `…/booking-webhook/secrets` in front of it. */
export function withSecretsRoute(
  env: Env,
  handler: (req: Request) => Response | Promise<Response>,
): (req: Request) => Promise<Response> {
  return withRoute('booking-webhook', bookingSecrets(env), env, handler);
}

/** The function whose configuration is incomplete (the log says why): 503, nothing recorded. */
export function notConfigured(): (req: Request) => Promise<Response> {
  return async (req) => {
    await req.body?.cancel();
    return json(503, {
      ok: false,
      error: 'the function is not configured; GET …/booking-webhook/secrets says what is missing',
    });
  };
}
