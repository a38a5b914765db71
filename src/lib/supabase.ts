import { createClient } from '@supabase/supabase-js';
import { AUTH_STORAGE_KEY } from '@/config/auth-storage';
import { parseEnv } from '@/config/env';
import type { Database } from '@/types/database';

// Imported only by lazy chunks (member routes, the account menu, the auth provider's
// dynamic import), so the landing page's first paint never waits for supabase-js.
const env = parseEnv(import.meta.env);

export const supabase = createClient<Database>(env.VITE_SUPABASE_URL, env.VITE_SUPABASE_ANON_KEY, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: true,
    storageKey: AUTH_STORAGE_KEY,
  },
});

export type SupabaseClient = typeof supabase;

/**
 * A client that keeps nothing (no storage, no refresh, no URL reading), for work that must
 * finish before the app's client hears of a sign-in (a sign-up's code, then its password).
 */
export function detachedClient() {
  return createClient<Database>(env.VITE_SUPABASE_URL, env.VITE_SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, storageKey: 'detached' },
  });
}
