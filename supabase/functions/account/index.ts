// The Deno entry of the account function: reads the environment and serves the
// plain handler (handler.ts), with `…/account/secrets` (../_shared/secrets-route.ts) in front. The gateway checks
// the caller's JWT (verify_jwt stays on); the handler asks the auth server whether that session
// still exists before doing anything.
// Deployed with `supabase functions deploy account` (see README).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { PLATFORM_SECRETS, withSecretsRoute } from '../_shared/secrets-route.ts';
import { createAccountHandler, readAccountConfig } from './handler.ts';

const env = Deno.env.toObject();
const config = readAccountConfig(env);

Deno.serve(
  withSecretsRoute(
    'account',
    PLATFORM_SECRETS,
    env,
    createAccountHandler({
      ...config,
      createClient: (key, accessToken) =>
        createClient(config.supabaseUrl, key, {
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
          ...(accessToken ? { global: { headers: { Authorization: `Bearer ${accessToken}` } } } : {}),
        }),
      log: (entry) => console.log(JSON.stringify(entry)),
    }),
  ),
);
