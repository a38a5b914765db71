import { loadedSupabase, loadSupabase } from '@/lib/auth-provider';
import type { Credentials } from '../lib/credentials-schema';

/** The session a sign-in started: whose, and the token that reads as them. */
export type StartedSession = { userId: string; accessToken: string };

/**
 * Signs in with email and password and resolves with the new session; throws the provider's error (its message is shown), or,
 * past the auth server's per-network limit (config.toml [auth.rate_limit]), how long to wait.
 */
export async function signIn({ email, password }: Credentials): Promise<StartedSession> {
  // Imported here, not at the top: /auth shows its form before supabase-js has loaded. Once it
  // has (after the page's load), the request goes out in this turn, before the busy form renders.
  const { supabase } = loadedSupabase() ?? (await loadSupabase());
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  if (error?.code === 'over_request_rate_limit')
    throw new Error('Too many sign-in attempts from your network. Please wait a minute, then try again.');
  if (error) throw error;
  return { userId: data.user.id, accessToken: data.session.access_token };
}
