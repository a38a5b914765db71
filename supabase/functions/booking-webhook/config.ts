// The function's settings, read from its environment (`supabase secrets set …`; the local
// stand-in passes development values). A provider is on when its secret is set, unless
// BOOKING_PROVIDER (`calcom`, `calendly` or `calcom,calendly`) leaves it out. A provider that is
// off refuses its deliveries with 401 (nothing can check them), rather than stopping the function.
import { calcomProvider } from './calcom.ts';
import { calendlyProvider } from './calendly.ts';
import { providerNames, type BookingProvider, type ProviderName } from './types.ts';

export type BookingConfig = {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  providers: BookingProvider[];
};

type Env = Record<string, string | undefined>;

/** Each provider's secret, by the environment variable it is read from. */
export const SIGNING_SECRET: Record<ProviderName, string> = {
  calcom: 'CALCOM_WEBHOOK_SECRET',
  calendly: 'CALENDLY_WEBHOOK_SIGNING_KEY',
};

/** The providers BOOKING_PROVIDER names; every provider when it is unset. Throws on an unknown name. */
export function listedProviders(env: Env): readonly ProviderName[] {
  const listed = env.BOOKING_PROVIDER?.trim();
  if (!listed) return providerNames;
  const names = listed.split(',').map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(providerNames as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`booking-webhook: unknown BOOKING_PROVIDER ${unknown.join(', ')}`);
  return providerNames.filter((name) => names.includes(name));
}

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`booking-webhook: ${name} is not set`);
  return value;
}

export function readConfig(env: Env): BookingConfig {
  const listed = listedProviders(env);
  const secret = (name: ProviderName) => (listed.includes(name) && env[SIGNING_SECRET[name]]?.trim()) || null;
  return {
    supabaseUrl: required(env, 'SUPABASE_URL'),
    anonKey: required(env, 'SUPABASE_ANON_KEY'),
    serviceRoleKey: required(env, 'SUPABASE_SERVICE_ROLE_KEY'),
    providers: [calcomProvider(secret('calcom')), calendlyProvider(secret('calendly'))],
  };
}
