import type { Credentials } from '../lib/credentials-schema';

/** Signs in with email and password; throws the provider's error (its message is shown). */
export async function signIn({ email, password }: Credentials): Promise<void> {
  // Imported here, not at the top: /auth shows its form before supabase-js has loaded.
  const { supabase } = await import('@/lib/supabase');
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
}
