import { supabase } from '@/lib/supabase';

/** Ends the session (this tab and, through storage events, the others); throws on error. */
export async function signOut(): Promise<void> {
  const { error } = await supabase.auth.signOut();
  if (error) throw error;
}
