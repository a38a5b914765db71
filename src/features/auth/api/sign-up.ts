import type { Credentials } from '../lib/credentials-schema';

/**
 * Creates an account. The confirmation e-mail (when the project requires one) links back
 * to the site's home page, as the spec says: origin + '/'. Resolves true when the account
 * is signed in already (auto-confirm returns a session), false when the address must be
 * confirmed first.
 */
export async function signUp({ email, password }: Credentials): Promise<boolean> {
  // Imported here, not at the top: /auth shows its form before supabase-js has loaded.
  const { supabase } = await import('@/lib/supabase');
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: { emailRedirectTo: `${window.location.origin}/` },
  });
  if (error) throw error;
  return data.session !== null;
}
