import type { User } from '@supabase/supabase-js';
import { useUserTier } from '@/features/tiers';
import { QueryProvider } from '@/lib/query-client';
import { BuyerAccessView } from './buyer-access-view';

/**
 * The signed-in version of /upgrade's access box: the user's tier, with the way to their
 * files. Lazy-loaded by the route (it pulls in react-query and supabase-js), so visitors
 * never download it.
 */
export function MemberAccess({ user }: { user: User }) {
  return (
    <QueryProvider>
      <MemberAccessContainer user={user} />
    </QueryProvider>
  );
}

function MemberAccessContainer({ user }: { user: User }) {
  const tier = useUserTier(user.id);
  return <BuyerAccessView state={{ kind: 'member', email: user.email ?? null, tier }} />;
}
