import { supabase } from '@/lib/supabase';

/** Sets the signed-in user's password (after a recovery or invitation link); throws on error. */
export async function setPassword(password: string): Promise<void> {
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}
