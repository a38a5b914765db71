// GET …/functions/v1/<function>/secrets: which of the function's secrets are set, by name only,
// never a value, for a caller whose bearer is the project's service-role key (compared in time
// that does not depend on where it differs); anyone else gets 401. `npm run smoke` asks each
// function (scripts/checks/smoke.mjs), so it fails a project that lacks what production needs and
// says which. The webhook names what it needs in its own secrets.ts; account and download need only
// the platform's three values (PLATFORM_SECRETS). Each wraps its handler here.
import { sameSecret } from './same-secret.ts';

/** What a function needs from its environment. */
export type SecretsSpec = {
  /** Each must be set. */
  required: readonly string[];
  /** Groups of which at least one must be set (one checkout provider's signing secret). */
  anyOf?: readonly (readonly string[])[];
  /** Read when set; the function runs without them. */
  optional?: readonly string[];
};

/** The route's answer: each name and whether it is set. */
export type SecretsReport = {
  function: string;
  required: Record<string, boolean>;
  anyOf: Record<string, boolean>[];
  optional: Record<string, boolean>;
  /** What is missing, in words: a name, or `A or B` for a group. Empty: nothing is. */
  missing: string[];
};

type Env = Record<string, string | undefined>;

/**
 * What every hosted function gets from the platform, and all the account and download functions
 * need (their handlers' read…Config): answering at all shows such a function is deployed.
 */
export const PLATFORM_SECRETS: SecretsSpec = {
  required: ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'],
};

/** The route's last path segment: `…/<function>/secrets`. */
export const SECRETS_ROUTE = 'secrets';

const isSet = (env: Env, name: string) => Boolean(env[name]?.trim());

const presence = (env: Env, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, isSet(env, name)]));

export function secretsReport(fn: string, spec: SecretsSpec, env: Env): SecretsReport {
  const groups = spec.anyOf ?? [];
  return {
    function: fn,
    required: presence(env, spec.required),
    anyOf: groups.map((group) => presence(env, group)),
    optional: presence(env, spec.optional ?? []),
    missing: [
      ...spec.required.filter((name) => !isSet(env, name)),
      ...groups.filter((group) => !group.some((name) => isSet(env, name))).map((group) => group.join(' or ')),
    ],
  };
}

/** Whether the request is for the secrets route (`…/<function>/secrets`). */
export function isSecretsRequest(req: Request): boolean {
  return new URL(req.url).pathname.split('/').filter(Boolean).pop() === SECRETS_ROUTE;
}

function answer(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...extra },
  });
}

/** The route itself: GET only, the service-role key only (no key configured: nobody). */
export async function secretsResponse(req: Request, fn: string, spec: SecretsSpec, env: Env): Promise<Response> {
  await req.body?.cancel();
  const key = env.SUPABASE_SERVICE_ROLE_KEY?.trim() ?? '';
  const bearer = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1]?.trim() ?? '';
  if (!key || !sameSecret(bearer, key)) {
    return answer(401, { error: 'service_role_only', message: 'Only the service-role key may read this.' });
  }
  if (req.method !== 'GET') return answer(405, { error: 'method_not_allowed', message: 'Use GET.' }, { Allow: 'GET' });
  return answer(200, secretsReport(fn, spec, env));
}

/** `handler`, with the secrets route in front of it. */
export function withSecretsRoute(
  fn: string,
  spec: SecretsSpec,
  env: Env,
  handler: (req: Request) => Response | Promise<Response>,
): (req: Request) => Promise<Response> {
  return async (req) => (isSecretsRequest(req) ? secretsResponse(req, fn, spec, env) : handler(req));
}
