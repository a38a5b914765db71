import { parseEnv } from '@/config/env';
import { preflight } from '@/lib/preflight';

/**
 * Asks ahead for the sign-in's CORS preflight (src/lib/preflight.ts): the address and the header
 * names supabase-js's `signInWithPassword` sends. e2e/sign-in-preflight.spec.ts holds the two
 * equal: a sign-in after this asks no preflight of its own. Loaded when the visitor is at the
 * form, not with it: /auth's first JavaScript stays within its budget.
 */
export function preflightSignIn(): void {
  const { VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key } = parseEnv(import.meta.env);
  preflight(new URL('auth/v1/token?grant_type=password', url.endsWith('/') ? url : `${url}/`).href, {
    apikey: key,
    Authorization: `Bearer ${key}`,
    'Content-Type': 'application/json;charset=UTF-8',
    'X-Client-Info': 'supabase-js',
    'X-Supabase-Api-Version': '2024-01-01',
  });
}
