import { ANON_KEY, SERVICE_ROLE_KEY } from '../packages/supabase-stand-in/keys.mjs';

/**
 * Where the e2e suite finds Supabase: a real stack when SUPABASE_URL and keys are set,
 * otherwise the local stand-in that playwright.config.ts starts on its own port.
 */
const standInPort = Number(process.env.E2E_STANDIN_PORT ?? 54329);
const usingStandIn = !process.env.SUPABASE_URL;

export const e2eEnv = {
  usingStandIn,
  standInPort,
  supabaseUrl: process.env.SUPABASE_URL ?? `http://127.0.0.1:${standInPort}`,
  anonKey: process.env.SUPABASE_ANON_KEY ?? ANON_KEY,
  serviceRoleKey: process.env.SUPABASE_SERVICE_ROLE_KEY ?? SERVICE_ROLE_KEY,
};
