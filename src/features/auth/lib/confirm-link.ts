import { paths, safeNextPath } from '@/config/paths';

/** The kinds of mail whose link leads to the confirm page, as the templates name them. */
export type LinkType = 'invite' | 'signup' | 'recovery' | 'email_change';

/** A mail's link to /auth/confirm: the token hash, its type and the address it was sent to. */
export type ConfirmLink = { tokenHash: string; type: LinkType; email: string };

const linkTypes: readonly LinkType[] = ['invite', 'signup', 'recovery', 'email_change'];

/** Reads the confirm page's address; null when it carries no usable link (typed by hand, cut short). */
export function readConfirmLink(search: URLSearchParams): ConfirmLink | null {
  const tokenHash = search.get('token_hash') ?? '';
  const type = search.get('type') as LinkType | null;
  if (!/^[0-9a-f]{8,128}$/i.test(tokenHash) || !type || !linkTypes.includes(type)) return null;
  return { tokenHash, type, email: search.get('email') ?? '' };
}

/**
 * Where the person was going when they signed up: the `next` of the sign-up's redirect, which
 * the confirmation mail carries as `redirect_to` (GoTrue's `{{ .RedirectTo }}`); this site's only.
 */
export function nextFromRedirect(search: URLSearchParams, origin: string): string | null {
  try {
    const redirect = new URL(search.get('redirect_to') ?? '');
    return redirect.origin === origin ? redirect.searchParams.get('next') : null;
  } catch {
    return null;
  }
}

/** What the page says before the press, by the kind of mail. */
export const confirmCopy: Record<LinkType, { title: string; intro: string; button: string; busy: string }> = {
  invite: {
    title: 'Your files are ready',
    intro: 'Press the button to open your account. Next you choose the password you will sign in with.',
    button: 'Open my account',
    busy: 'Opening...',
  },
  signup: {
    title: 'Confirm your e-mail address',
    intro: 'Press the button to confirm your address and sign in.',
    button: 'Confirm my address',
    busy: 'Confirming...',
  },
  recovery: {
    title: 'Reset your password',
    intro: 'Press the button to continue. Next you choose a new password.',
    button: 'Choose a new password',
    busy: 'Checking...',
  },
  email_change: {
    title: 'Confirm your new e-mail address',
    intro: 'Press the button to confirm the change of address.',
    button: 'Confirm the change',
    busy: 'Confirming...',
  },
};

/** Where the set-password page is told the person came from (the copy it shows). */
export type SetPasswordPurpose = 'invite' | 'signup' | 'recovery';

/** Where a confirmed link goes: the page the mail promised, and what it should say there. */
export function destination(type: LinkType, next: string | null): { to: string; purpose: SetPasswordPurpose | null } {
  if (type === 'email_change') return { to: paths.resources, purpose: null };
  if (type === 'signup')
    return { to: `${paths.setPassword}?next=${encodeURIComponent(safeNextPath(next))}`, purpose: 'signup' };
  return { to: paths.setPassword, purpose: type };
}

/** The purpose the confirm page passed in the navigation's state, if any. */
export function confirmedPurpose(state: unknown): SetPasswordPurpose | null {
  const purpose = state && typeof state === 'object' ? (state as { purpose?: unknown }).purpose : null;
  return purpose === 'invite' || purpose === 'signup' || purpose === 'recovery' ? purpose : null;
}
