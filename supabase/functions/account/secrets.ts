// The account function's secrets, as `GET …/account/secrets` reports them to the service-role
// key (../_shared/secrets-route.ts; `npm run smoke` asks): the three values every hosted function
// gets from the platform (handler.ts readAccountConfig). Answering at all shows it is deployed.
import { withSecretsRoute as withRoute, type SecretsSpec } from '../_shared/secrets-route.ts';

export const ACCOUNT_SECRETS: SecretsSpec = {
  required: ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'],
};

/** The account handler with `…/account/secrets` in front of it. */
export function withSecretsRoute(
  env: Record<string, string | undefined>,
  handler: (req: Request) => Response | Promise<Response>,
): (req: Request) => Promise<Response> {
  return withRoute('account', ACCOUNT_SECRETS, env, handler);
}
