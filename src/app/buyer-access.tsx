import { lazy, Suspense } from 'react';
import { BuyerAccessView } from '@/features/upgrade/components/buyer-access-view';
import { useAuth } from '@/lib/auth-provider';

/** Where /upgrade's island (src/document/member-island.tsx) finds the access box. */
export const BUYER_ACCESS_ATTRIBUTE = 'data-buyer-access';

// Only a signed-in user downloads the tier read (react-query, supabase-js).
const MemberAccess = lazy(() =>
  import('@/features/upgrade/components/member-access').then((module) => ({ default: module.MemberAccess })),
);

/**
 * The visitor version first, always (the prerendered page, and while the session is read);
 * the signed-in version replaces it in the same box once a session is known.
 */
export function BuyerAccess() {
  const { status, user } = useAuth();
  if (status !== 'signed-in' || !user) return <BuyerAccessView state={{ kind: 'visitor' }} />;
  const checking = { kind: 'member', email: user.email ?? null, tier: { status: 'loading', retrying: false } } as const;
  return (
    <Suspense fallback={<BuyerAccessView state={checking} />}>
      <MemberAccess user={user} />
    </Suspense>
  );
}
