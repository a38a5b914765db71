import { paths } from '@/config/paths';
import { loadSupabase } from '@/lib/auth-provider';
import { retryAfterSeconds } from '../lib/rate-limit';
import type { PasswordResetRequest } from './request-password-reset';

/**
 * Sends the sign-up's confirmation mail again (a new code and link; the older ones stop
 * working), leading back to where the person was going. A 429 (one mail per address per
 * minute, or the project's limit) is returned with the wait, not thrown; anything else throws.
 */
export async function resendSignUp(email: string, next: string): Promise<PasswordResetRequest> {
  const { supabase } = await loadSupabase();
  const { error } = await supabase.auth.resend({
    type: 'signup',
    email,
    options: { emailRedirectTo: `${window.location.origin}${paths.setPassword}?next=${encodeURIComponent(next)}` },
  });
  if (!error) return { status: 'sent' };
  if (error.status === 429) return { status: 'rate-limited', retryAfterSeconds: retryAfterSeconds(error.message) };
  throw error;
}
