// The Deno entry of the download function: reads the environment and serves the plain handler
// (handler.ts), and at `…/download/expire` the scheduled removal of old stamped copies
// (expire.ts, service role only), and at `…/download/secrets` the names of its secrets that are
// set (../_shared/secrets-route.ts, service role only). The gateway checks the caller's JWT (verify_jwt stays on); the
// handler asks the auth server whether that session still exists before anything is read.
// Deployed with `supabase functions deploy download` (see README).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { PLATFORM_SECRETS, withSecretsRoute } from '../_shared/secrets-route.ts';
import { createExpireHandler, isExpireRequest } from './expire.ts';
import { createDownloadHandler, readDownloadConfig } from './handler.ts';

const config = readDownloadConfig(Deno.env.toObject());
const clientFor = (key: string) =>
  createClient(config.supabaseUrl, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
const log = (entry: Record<string, unknown>) => console.log(JSON.stringify(entry));

const download = createDownloadHandler({ ...config, createClient: clientFor, log });
// Supabase Cron calls …/download/expire daily with this key (migration 20261128020000).
const expire = createExpireHandler({
  admin: clientFor(config.serviceRoleKey),
  serviceRoleKey: config.serviceRoleKey,
  log,
});

// `…/download/secrets` answers the service-role key which secrets are set (npm run smoke asks).
Deno.serve(
  withSecretsRoute('download', PLATFORM_SECRETS, Deno.env.toObject(), (req) =>
    isExpireRequest(req) ? expire(req) : download(req),
  ),
);
