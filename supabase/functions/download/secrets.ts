// The download function's secrets, as `GET …/download/secrets` reports them to the service-role
// key (../_shared/secrets-route.ts; `npm run smoke` asks): the three values every hosted function
// gets from the platform (handler.ts readDownloadConfig). Answering at all shows it is deployed.
// index.ts serves it in front of everything else:
//   Deno.serve(withSecretsRoute(Deno.env.toObject(), (req) => …));
import { withSecretsRoute as withRoute, type SecretsSpec } from '../_shared/secrets-route.ts';

export const DOWNLOAD_SECRETS: SecretsSpec = {
  required: ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'],
};

/** The download handler with `…/download/secrets` in front of it. */
export function withSecretsRoute(
  env: Record<string, string | undefined>,
  handler: (req: Request) => Response | Promise<Response>,
): (req: Request) => Promise<Response> {
  return withRoute('download', DOWNLOAD_SECRETS, env, handler);
}
