// The Deno entry of the count function: reads the environment, makes the service-role client
// and serves the plain handler (handler.ts), with `…/count/secrets` (../_shared/secrets-route.ts)
// in front. Pages call it with no JWT (verify_jwt = false in supabase/config.toml): a count
// carries no credential, and the database function its batches go to is the service role's only.
// On hosted Supabase each batch's wait and write is handed to `EdgeRuntime.waitUntil`, and the
// counts still waiting are written when the isolate is about to stop (`beforeunload`).
// Deployed with `supabase functions deploy count --no-verify-jwt` (see README).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { withSecretsRoute } from '../_shared/secrets-route.ts';
import { COUNT_SECRETS, createCountHandler, readCountConfig } from './handler.ts';

type EdgeRuntimeGlobal = { EdgeRuntime?: { waitUntil: (promise: Promise<unknown>) => void } };

const env = Deno.env.toObject();
const config = readCountConfig(env);
const admin = createClient(config.supabaseUrl, config.serviceRoleKey, {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});
const edgeRuntime = (globalThis as EdgeRuntimeGlobal).EdgeRuntime;

const handler = createCountHandler({
  rpc: (fn, args) => admin.rpc(fn, args),
  siteUrl: config.siteUrl,
  log: (entry) => (entry.level === 'error' ? console.error : console.log)(JSON.stringify(entry)),
  waitUntil: edgeRuntime ? (promise) => edgeRuntime.waitUntil(promise) : undefined,
});

globalThis.addEventListener('beforeunload', () => void handler.flush());

Deno.serve(withSecretsRoute('count', COUNT_SECRETS, env, handler));
