import type { EmailOtpType } from '@supabase/supabase-js';
import { loadSupabase } from '@/lib/auth-provider';

/** What pressing a mail's button, or typing its code, came to. */
export type VerifyOutcome =
  /** Signed in: the address is proven. */
  | { status: 'signed-in' }
  /** The first of an e-mail change's two links: the other address must confirm too. */
  | { status: 'half-confirmed' }
  /** Already used, expired, replaced by a newer mail, or (a code) mistyped. */
  | { status: 'spent' }
  /** The auth server's per-network limit on tries: wait, then try again. */
  | { status: 'rate-limited' };

type VerifyAnswer = {
  data: { session: unknown };
  error: { status?: number; code?: string } | null;
};

function outcome({ data, error }: VerifyAnswer): VerifyOutcome {
  if (!error) return data.session ? { status: 'signed-in' } : { status: 'half-confirmed' };
  if (error.code === 'otp_expired') return { status: 'spent' };
  if (error.status === 429) return { status: 'rate-limited' };
  throw error;
}

/**
 * Spends a mail's link: its token hash and type, sent only when the person presses the
 * confirm page's button (a mail scanner that opens the page sends nothing).
 */
export async function verifyEmailLink(tokenHash: string, type: EmailOtpType): Promise<VerifyOutcome> {
  // Imported here: the confirm page paints its button before supabase-js has loaded.
  const { supabase } = await loadSupabase();
  return outcome(await supabase.auth.verifyOtp({ token_hash: tokenHash, type }));
}

/** Spends a mail's 6-digit code for the address it was sent to. */
export async function verifyEmailCode(email: string, code: string, type: EmailOtpType): Promise<VerifyOutcome> {
  const { supabase } = await loadSupabase();
  return outcome(await supabase.auth.verifyOtp({ email, token: code, type }));
}

/**
 * Sign-up confirmed by its code in the tab that signed up: the code proves the address to the
 * person who typed the password there, so that password is set again once signed in (the proof
 * took the one given before it; docs/decisions/064-code-in-the-same-tab-keeps-the-password.md).
 * Done on a client of its own, which keeps nothing: the app's client is signed in only once the
 * password is set, so the page moves on (it does on sign-in) with the account complete.
 */
export async function confirmSignUpByCode(email: string, code: string, password: string): Promise<VerifyOutcome> {
  const { supabase, detachedClient } = await loadSupabase();
  const alone = detachedClient();
  const answer = await alone.auth.verifyOtp({ email, token: code, type: 'signup' });
  const verified = outcome(answer);
  if (verified.status !== 'signed-in' || !answer.data.session) return verified;
  const saved = await alone.auth.updateUser({ password });
  if (saved.error) throw saved.error;
  const { access_token, refresh_token } = answer.data.session;
  const signedIn = await supabase.auth.setSession({ access_token, refresh_token });
  if (signedIn.error) throw signedIn.error;
  return verified;
}
