import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth-provider';

/**
 * The menu's code. It pulls in react-query, Radix and supabase-js: only signed-in users
 * download it, when the menu first shows or, ahead, where a sign-in is about to lead
 * (routes/auth.tsx): a member's first page would otherwise wait for it after signing in.
 */
export const loadAccountMenu = () => import('@/features/profile/components/account-menu');

const AccountMenu = lazy(() => loadAccountMenu().then((module) => ({ default: module.AccountMenu })));

/** Where a document page's island (src/document/member-island.tsx) finds the account corner. */
export const ACCOUNT_CORNER_ATTRIBUTE = 'data-account-corner';

type AccountCornerProps = {
  /** The page's own sign-out, for pages that must run it themselves (/resources). */
  signOut?: { onSignOut: () => Promise<void>; onSignedOut: () => void };
};

/**
 * The fixed top-right area: a Sign In button for visitors, the profile menu for signed-in
 * users. `fixed` is the spec's layout; pages that already have a header pass `inline`.
 */
export function AccountCorner({ inline = false, signOut }: AccountCornerProps & { inline?: boolean }) {
  const wrapper = inline ? 'flex items-center' : 'fixed right-3 top-3 z-50 sm:right-4 sm:top-4';
  return (
    <div className={wrapper} {...{ [ACCOUNT_CORNER_ATTRIBUTE]: '' }}>
      <AccountCornerContent signOut={signOut} />
    </div>
  );
}

/** What the corner holds: Sign In, the menu, or while the session is read, its place kept. */
export function AccountCornerContent({ signOut }: AccountCornerProps) {
  const { status, user } = useAuth();
  if (status === 'loading') return <div className="size-10" aria-hidden="true" />;
  if (status === 'signed-in' && user)
    return (
      <Suspense fallback={<div className="bg-navy-100 size-10 rounded-full" aria-hidden="true" />}>
        <AccountMenu user={user} signOut={signOut} />
      </Suspense>
    );
  return (
    <Link to={paths.auth} className={buttonClasses('outline', 'sm', 'shadow')}>
      Sign In
    </Link>
  );
}
