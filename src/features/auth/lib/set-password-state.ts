import type { AuthRedirect } from '@/config/auth-storage';
import { paths } from '@/config/paths';
import type { AuthStatus } from '@/lib/auth-provider';

/** Where the visitor stands on /auth/set-password. */
export type SetPasswordState =
  /** The link's session (or a stored one) is being read. */
  | { kind: 'checking' }
  /**
   * Signed in: from an invitation (a new buyer), a sign-up confirmation (the address just
   * proven; a password typed before no longer works), or a recovery link (or simply signed in).
   */
  | { kind: 'ready'; purpose: 'invite' | 'signup' | 'recovery'; email: string | null }
  /** The link was refused: expired, already used or edited. */
  | { kind: 'link-error' }
  /** Opened without a link and not signed in. */
  | { kind: 'no-link' };

/**
 * Which screen /auth/set-password shows. The link's outcome is what the address said when
 * the app started (supabase-js clears it), and only when the link landed on this page.
 */
export function setPasswordState(
  status: AuthStatus,
  email: string | null,
  link: AuthRedirect | null,
  pathname: string = paths.setPassword,
  /** What the confirm page verified before it sent the person here (null: nothing). */
  confirmed: 'invite' | 'signup' | 'recovery' | null = null,
): SetPasswordState {
  const fromLink = link && link.pathname === pathname ? link : null;
  // A refused link says so even to someone signed in already: they asked for something new.
  if (fromLink?.error) return { kind: 'link-error' };
  if (status === 'loading') return { kind: 'checking' };
  if (status === 'signed-out') return { kind: 'no-link' };
  const linkType = fromLink?.type ?? confirmed;
  const purpose = linkType === 'invite' ? 'invite' : linkType === 'signup' ? 'signup' : 'recovery';
  return { kind: 'ready', purpose, email };
}
