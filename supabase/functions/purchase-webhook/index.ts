// The Deno entry of the purchase webhook: reads the environment, makes the service-role client
// and serves the plain handler (handler.ts), with `…/purchase-webhook/secrets` (secrets.ts) in
// front. Everything else is plain TypeScript, tested in Node. An incomplete configuration is
// logged at boot, names what is missing, and every delivery is answered 503 (the provider retries)
// while the secrets route still says what is missing.
// Deployed with `supabase functions deploy purchase-webhook --no-verify-jwt` (see README).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { readConfig, type WebhookConfig } from './config.ts';
import { createWebhookHandler } from './handler.ts';
import { notConfigured, withSecretsRoute } from './secrets.ts';
import { createSupabaseStore } from './store.ts';

function webhook(env: Record<string, string>): (req: Request) => Promise<Response> {
  let config: WebhookConfig;
  try {
    config = readConfig(env);
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', message: err instanceof Error ? err.message : String(err) }));
    return notConfigured();
  }
  const supabase = createClient(config.supabaseUrl, config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  if (!config.mailApi) {
    console.warn(
      JSON.stringify({
        level: 'warn',
        message: 'MAIL_API_KEY is not set: invitations go through Auth and share its hourly e-mail budget',
      }),
    );
  }
  return createWebhookHandler({
    providers: config.providers,
    store: createSupabaseStore(
      {
        rpc: (fn, args) => supabase.rpc(fn, args),
        inviteUserByEmail: (email, options) => supabase.auth.admin.inviteUserByEmail(email, options),
        generateInviteLink: (email, options) => supabase.auth.admin.generateLink({ type: 'invite', email, options }),
      },
      config.mailApi ? { api: config.mailApi, siteUrl: config.siteUrl } : undefined,
    ),
    inviteRedirectTo: `${config.siteUrl}/auth/set-password`,
    log: (entry) => console.log(JSON.stringify(entry)),
    // Supabase Cron calls …/purchase-webhook/invitations with this key (migration 20261126010000),
    // and …/member-mail (migration 20261208010000).
    scheduleKey: config.serviceRoleKey,
    memberMail: { rpc: (fn, args) => supabase.rpc(fn, args), mailApi: config.mailApi, siteUrl: config.siteUrl },
  });
}

const env = Deno.env.toObject();
Deno.serve(withSecretsRoute(env, webhook(env)));
