import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { resourceCards } from '@/content/resources';
import { isUnlocked } from '@/content/tiers';
import { signOut } from '@/features/auth';
import { useAuth } from '@/lib/auth-provider';
import { errorMessage } from '@/lib/error-message';
import { useUserTier } from '@/features/tiers';
import { useRenewResourceLink, useResourceFiles } from '../api/list-resource-files';
import type { FilesState } from '../lib/resource-files';
import { ResourcesView } from './resources-view';

/**
 * Container for /resources: the gate (loading, then /auth?next=/resources whenever there is
 * no session, including a sign-out in another tab or an expired session), and the data.
 */
export function ResourcesScreen() {
  const { status, user } = useAuth({ connect: true });
  const navigate = useNavigate();
  // Set while this page's own Sign Out runs: that one goes home, not to /auth.
  const [leaving, setLeaving] = useState(false);

  if (status === 'loading') return <FullPageSpinner label="Loading your resources..." className="bg-cream" />;
  if (!user) {
    if (leaving) return <FullPageSpinner label="Signing out..." className="bg-cream" />;
    return <Navigate to={`${paths.auth}?next=${paths.resources}`} replace />;
  }

  async function handleSignOut() {
    setLeaving(true);
    try {
      await signOut();
    } catch (error) {
      setLeaving(false);
      throw error;
    }
  }

  return (
    <SignedInResources
      userId={user.id}
      onSignOut={handleSignOut}
      onSignedOut={() => void navigate(paths.home, { replace: true })}
    />
  );
}

function SignedInResources({
  userId,
  onSignOut,
  onSignedOut,
}: {
  userId: string;
  onSignOut: () => Promise<void>;
  onSignedOut: () => void;
}) {
  const { tier, isPending } = useUserTier(userId);
  // Locked cards never ask for their folder; until the tier is known, nothing is asked.
  const unlocked = isPending ? [] : resourceCards.filter((card) => isUnlocked(tier, card.tier));
  const results = useResourceFiles(unlocked, userId);
  const renewLink = useRenewResourceLink(userId);

  if (isPending) return <FullPageSpinner label="Loading your resources..." className="bg-cream" />;

  const files: Partial<Record<string, FilesState>> = {};
  unlocked.forEach((card, index) => {
    const result = results[index];
    if (!result || result.isPending) files[card.slug] = { status: 'loading' };
    else if (result.isError)
      files[card.slug] = { status: 'error', message: errorMessage(result.error), retry: () => void result.refetch() };
    else files[card.slug] = { status: 'ready', files: result.data, renew: (name) => renewLink(card, name) };
  });

  return <ResourcesView tier={tier} files={files} onSignOut={onSignOut} onSignedOut={onSignedOut} />;
}
