import { supabase } from '@/lib/supabase';
import type { Credentials } from '../lib/credentials-schema';

/** Signs in with email and password; throws the provider's error (its message is shown). */
export async function signIn({ email, password }: Credentials): Promise<void> {
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
}
