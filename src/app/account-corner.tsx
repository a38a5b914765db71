import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth-provider';
import { cn } from '@/lib/cn';

/**
 * The menu's code. It pulls in react-query, Radix and supabase-js: only signed-in users
 * download it, when the menu first shows or, ahead, where a sign-in is about to lead
 * (routes/auth.tsx): a member's first page would otherwise wait for it after signing in.
 */
export const loadAccountMenu = () => import('@/features/profile/components/account-menu');

const AccountMenu = lazy(() => loadAccountMenu().then((module) => ({ default: module.AccountMenu })));

/**
 * The fixed top-right area: a Sign In button for visitors, the profile menu for signed-in
 * users. `fixed` is the spec's layout; pages that already have a header pass `inline`.
 */
export function AccountCorner({
  inline = false,
  signOut,
}: {
  inline?: boolean;
  /** The page's own sign-out, for pages that must run it themselves (/resources). */
  signOut?: { onSignOut: () => Promise<void>; onSignedOut: () => void };
}) {
  const { status, user } = useAuth();
  const wrapper = inline ? 'flex items-center' : 'fixed right-3 top-3 z-50 sm:right-4 sm:top-4';

  if (status === 'loading') return <div className={cn(wrapper, 'size-10')} aria-hidden="true" />;

  return (
    <div className={wrapper}>
      {status === 'signed-in' && user ? (
        <Suspense fallback={<div className="bg-navy-100 size-10 rounded-full" aria-hidden="true" />}>
          <AccountMenu user={user} signOut={signOut} />
        </Suspense>
      ) : (
        <Link to={paths.auth} className={buttonClasses('outline', 'sm', 'shadow')}>
          Sign In
        </Link>
      )}
    </div>
  );
}
