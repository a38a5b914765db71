import { useState, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { resourceCards } from '@/content/resources';
import { isUnlocked } from '@/content/tiers';
import { signOut } from '@/features/auth';
import { useTierRealtime, useUserTier } from '@/features/tiers';
import { useAuth } from '@/lib/auth-provider';
import { errorMessage } from '@/lib/error-message';
import { useSessionRevalidation } from '@/lib/use-session-revalidation';
import { usePrepareDownload, useResourceFiles } from '../api/list-resource-files';
import type { FilesState } from '../lib/resource-files';
import { isPlayable } from '../../../../supabase/functions/_shared/resource-types';
import { isFirstSignIn } from '../lib/welcome';
import { CoachingSection } from './coaching-section';
import { LiveSection } from './live-section';
import { MediaContext } from './media-context';
import { ResourcesView } from './resources-view';
import { useMemberMedia } from './use-member-media';

/** How the header's account menu signs out: through this page, so it goes home, not to /auth. */
export type PageSignOut = { onSignOut: () => Promise<void>; onSignedOut: () => void };

/**
 * Container for /resources, for the user the route loader let in (the loader is the gate:
 * no session, no page). When the session ends while the page is open (a sign-out in
 * another tab, an expiry that cannot be refreshed) it sends the visitor to sign in; another
 * account signing in runs the loader again; this page's own Sign Out goes home instead.
 */
export function ResourcesScreen({
  userId,
  renderAccountMenu,
}: {
  userId: string;
  /** The header's account menu, handed this page's sign-out (the route composes it). */
  renderAccountMenu?: (signOut: PageSignOut) => ReactNode;
}) {
  const navigate = useNavigate();
  const { user } = useAuth();
  // Set while this page's own Sign Out runs: that one goes home, not to /auth.
  const [leaving, setLeaving] = useState(false);
  const sessionUserId = useSessionRevalidation(userId, { paused: leaving });

  async function handleSignOut() {
    setLeaving(true);
    try {
      await signOut();
    } catch (error) {
      setLeaving(false);
      throw error;
    }
  }

  // Signed out while the page was open (another tab, an expired session): to sign in, and back here afterwards.
  if (!sessionUserId) return <Navigate to={`${paths.auth}?next=${paths.resources}`} replace />;

  const goHome = () => void navigate(paths.home, { replace: true });
  return (
    <SignedInResources
      userId={sessionUserId}
      firstSignIn={user !== null && user.id === sessionUserId && isFirstSignIn(user)}
      onSignOut={handleSignOut}
      onSignedOut={goHome}
      accountMenu={renderAccountMenu?.({ onSignOut: handleSignOut, onSignedOut: goHome })}
    />
  );
}

function SignedInResources({
  userId,
  firstSignIn,
  onSignOut,
  onSignedOut,
  accountMenu,
}: PageSignOut & {
  userId: string;
  firstSignIn: boolean;
  accountMenu: ReactNode;
}) {
  const tier = useUserTier(userId);
  // A purchase or refund recorded while the page is open opens or locks cards at once.
  useTierRealtime(userId);
  // Locked cards never ask for their folder; until the tier is known, nothing is asked.
  const unlocked = tier.status === 'ready' ? resourceCards.filter((card) => isUnlocked(tier.data, card.tier)) : [];
  const results = useResourceFiles(unlocked, userId);
  const prepareDownload = usePrepareDownload(userId);
  // The places and speed are read only once a card of the member's has audio or video.
  const hasMedia = results.some((result) => result.data?.some((file) => isPlayable(file.name)));
  const media = useMemberMedia(userId, hasMedia);

  if (tier.status === 'loading') {
    return (
      <FullPageSpinner
        label={tier.retrying ? 'Still loading your resources...' : 'Loading your resources...'}
        className="bg-cream"
      />
    );
  }

  const files: Partial<Record<string, FilesState>> = {};
  unlocked.forEach((card, index) => {
    const result = results[index];
    const retry = () => void result?.refetch();
    if (!result || result.isPending) files[card.slug] = { status: 'loading' };
    else if (result.data === undefined)
      files[card.slug] = { status: 'error', message: errorMessage(result.error), retry, retrying: result.isFetching };
    else
      files[card.slug] = {
        status: 'ready',
        files: result.data,
        prepare: (name) => prepareDownload(card, name),
        // A failed refresh keeps the last good list (react-query keeps the data).
        refreshFailed: result.isError ? { retry, retrying: result.isFetching } : undefined,
      };
  });

  return (
    <MediaContext value={media}>
      <ResourcesView
        tier={tier}
        files={files}
        onSignOut={onSignOut}
        onSignedOut={onSignedOut}
        firstSignIn={firstSignIn}
        accountMenu={accountMenu}
        coaching={
          tier.status === 'ready' && isUnlocked(tier.data, 'accelerated') && <CoachingSection userId={userId} />
        }
        live={tier.status === 'ready' && <LiveSection userId={userId} />}
      />
    </MediaContext>
  );
}
