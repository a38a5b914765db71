import type { Credentials } from '../lib/credentials-schema';

import { paths } from '@/config/paths';
import { loadSupabase } from '@/lib/auth-provider';

/**
 * Creates an account. The confirmation e-mail links to the set-password page, carrying `next`
 * (where the person was going): following it confirms the address and signs them in, and a
 * password typed before the address was proven no longer opens the account (docs/database.md),
 * so they choose it there; the spec's link goes to origin + '/'
 * (docs/decisions/047-sign-up-confirms-the-address-first.md).
 * Resolves true when the account is signed in already (confirmations off return a session),
 * false when the address must be confirmed first, as production requires.
 */
export async function signUp({ email, password }: Credentials, next: string = paths.resources): Promise<boolean> {
  // Imported here, not at the top: /auth shows its form before supabase-js has loaded.
  const { supabase } = await loadSupabase();
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: { emailRedirectTo: `${window.location.origin}${paths.setPassword}?next=${encodeURIComponent(next)}` },
  });
  if (error) throw error;
  return data.session !== null;
}
