import type { User } from '@supabase/supabase-js';

/**
 * A sign-in this close to the moment the account became usable is its first one. Generous,
 * because a confirmation or invitation link signs in within the same request, while a
 * second sign-in a few minutes later is also still "new" in any sense a person cares about.
 */
export const FIRST_SIGN_IN_WINDOW_MS = 10 * 60 * 1000;

type AccountTimes = Pick<User, 'created_at' | 'email_confirmed_at' | 'last_sign_in_at'>;

/**
 * Whether this session is the account's first sign-in, from what hosted Supabase Auth keeps
 * (it has no sign-in count). The account becomes usable when its e-mail is confirmed (a
 * sign-up confirmation, an accepted invitation), or when it is created if confirmation is off;
 * the session's `last_sign_in_at` is this session's sign-in (a token refresh does not move it).
 * Within the window: new. An unreadable date counts as returning ("Welcome Back!" is the
 * spec's text and never wrong for long).
 */
export function isFirstSignIn(user: AccountTimes): boolean {
  const usableFrom = Date.parse(user.email_confirmed_at ?? user.created_at);
  const signedIn = Date.parse(user.last_sign_in_at ?? '');
  if (Number.isNaN(usableFrom) || Number.isNaN(signedIn)) return false;
  return signedIn - usableFrom <= FIRST_SIGN_IN_WINDOW_MS;
}
