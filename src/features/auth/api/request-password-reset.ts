import { paths } from '@/config/paths';
import { loadSupabase } from '@/lib/auth-provider';
import { retryAfterSeconds } from '../lib/rate-limit';

/** The answer to a reset request: sent (or nothing to send: the same answer), or too soon. */
export type PasswordResetRequest = { status: 'sent' } | { status: 'rate-limited'; retryAfterSeconds: number | null };

/**
 * Asks Supabase Auth to e-mail a password-reset link that lands on the set-password page.
 * The auth server answers the same whether or not the address has an account; a 429 (one
 * e-mail per address per minute, or the project's e-mail limit) is returned, not thrown, so
 * the form can say how long to wait. Anything else throws.
 */
export async function requestPasswordReset(email: string): Promise<PasswordResetRequest> {
  // Imported here, not at the top: /auth shows its form before supabase-js has loaded.
  const { supabase } = await loadSupabase();
  const { error } = await supabase.auth.resetPasswordForEmail(email, {
    redirectTo: `${window.location.origin}${paths.setPassword}`,
  });
  if (!error) return { status: 'sent' };
  if (error.status === 429) return { status: 'rate-limited', retryAfterSeconds: retryAfterSeconds(error.message) };
  throw error;
}
