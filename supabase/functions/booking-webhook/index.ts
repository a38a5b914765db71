// The Deno entry of the booking webhook: reads the environment, makes the service-role client
// and serves the plain handler (handler.ts), with `…/booking-webhook/secrets` (secrets.ts) in
// front. Cal.com and Calendly send no Supabase JWT: their signature is the credential
// (verify_jwt = false in supabase/config.toml). Staff's GET is checked against the database with
// the caller's own token: the auth server says whose session it is, public.is_staff() whether
// they are staff. An incomplete configuration is logged at boot and every request is answered 503.
// Deployed with `supabase functions deploy booking-webhook --no-verify-jwt` (see README).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { readConfig, type BookingConfig } from './config.ts';
import { createBookingHandler } from './handler.ts';
import { notConfigured, withSecretsRoute } from './secrets.ts';
import { createSupabaseStore } from './store.ts';

const AUTH = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

function isStaffWith(config: BookingConfig) {
  return async (token: string): Promise<boolean> => {
    const client = createClient(config.supabaseUrl, config.anonKey, {
      auth: AUTH,
      global: { headers: { Authorization: `Bearer ${token}` } },
    });
    const { data, error } = await client.auth.getUser(token);
    if (error || !data.user) return false;
    const staff = await client.rpc('is_staff');
    if (staff.error) throw new Error(`staff check failed: ${staff.error.message}`);
    return staff.data === true;
  };
}

function bookingWebhook(env: Record<string, string>): (req: Request) => Promise<Response> {
  let config: BookingConfig;
  try {
    config = readConfig(env);
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', message: err instanceof Error ? err.message : String(err) }));
    return notConfigured();
  }
  const admin = createClient(config.supabaseUrl, config.serviceRoleKey, { auth: AUTH });
  for (const provider of config.providers.filter((p) => !p.enabled)) {
    console.warn(JSON.stringify({ level: 'warn', message: `${provider.name} is off: its deliveries are refused` }));
  }
  return createBookingHandler({
    providers: config.providers,
    store: createSupabaseStore((fn, args) => admin.rpc(fn, args)),
    isStaff: isStaffWith(config),
    log: (entry) => (entry.level === 'error' ? console.error : console.log)(JSON.stringify(entry)),
  });
}

const env = Deno.env.toObject();
Deno.serve(withSecretsRoute(env, bookingWebhook(env)));
