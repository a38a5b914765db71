import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Button, buttonClasses } from '@/components/ui/button';
import { RetryButton } from '@/components/ui/retry-button';
import { paths } from '@/config/paths';
import { resourceCards } from '@/content/resources';
import { site } from '@/content/site';
import { tierLabel, type Tier } from '@/content/tiers';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import { cardView, showsReadyForMore, type FilesState } from '../lib/resource-files';
import { ResourceCardView } from './resource-card-view';

/** The tier as read: a tier or none (`null`), or could not load. */
export type TierState = Exclude<ReadState<Tier | null>, { status: 'loading' }>;

/** Still loading: the page's frame and the cards' own text, before the member's data. */
export type PendingTier = { status: 'loading' };

export type ResourcesViewProps = {
  tier: TierState | PendingTier;
  /** File list per card slug; only unlocked cards have one. */
  files: Partial<Record<string, FilesState>>;
  /** Resolves when signed out; throws otherwise. Absent while the page is still loading. */
  onSignOut?: () => Promise<void>;
  /** Called after the sign-out toast (the container goes home). */
  onSignedOut?: () => void;
  /** Follows a download link signed again on click (default: in this tab, as a download). */
  onFollowDownload?: (url: string) => void;
  /** This session is the account's first sign-in: "Welcome!" rather than "Welcome Back!". */
  firstSignIn?: boolean;
  /** The account menu for the header (the route composes it; absent in isolation). */
  accountMenu?: ReactNode;
  /** The member's coaching, under the greeting (for the bundles that include it). */
  coaching?: ReactNode;
  /** The member's community access and live sessions (nothing for a member who never held them). */
  live?: ReactNode;
};

/** The /resources page for a signed-in user: plain props, no data fetching. */
export function ResourcesView({
  tier,
  files,
  onSignOut,
  onSignedOut,
  onFollowDownload,
  firstSignIn = false,
  accountMenu,
  coaching,
  live,
}: ResourcesViewProps) {
  const pending = tier.status === 'loading';
  // undefined while the tier could not be loaded: nothing is locked, nothing is sold.
  const knownTier = tier.status === 'ready' ? tier.data : undefined;

  return (
    <div className="bg-cream flex min-h-screen flex-col">
      <ResourcesHeader onSignOut={onSignOut} onSignedOut={onSignedOut} accountMenu={accountMenu} />

      <main aria-busy={pending} className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-8 px-4 py-8 sm:px-6">
        <Welcome tier={tier} firstSignIn={firstSignIn} />
        {coaching}
        {live}
        <ResourceCards files={files} pending={pending} knownTier={knownTier} onFollowDownload={onFollowDownload} />
        {showsReadyForMore(knownTier) && <ReadyForMore />}
      </main>

      <footer className="border-navy-100 border-t bg-white">
        <p className="text-navy-800 mx-auto max-w-6xl px-4 py-6 text-center text-sm sm:px-6">
          Need help with your resources? Email us at{' '}
          <a className="text-navy-900 font-semibold underline" href={`mailto:${site.contactEmail}`}>
            {site.contactEmail}
          </a>
        </p>
      </footer>
    </div>
  );
}

/** The page's title bar: the way home, the heading, Sign Out and the account menu. */
function ResourcesHeader({
  onSignOut,
  onSignedOut,
  accountMenu,
}: Pick<ResourcesViewProps, 'onSignOut' | 'onSignedOut' | 'accountMenu'>) {
  const [signingOut, setSigningOut] = useState(false);

  async function handleSignOut() {
    if (!onSignOut) return;
    setSigningOut(true);
    try {
      await onSignOut();
      toast.success('Signed out successfully', { description: 'Come back anytime to access your resources!' });
      onSignedOut?.();
    } catch (error) {
      toast.error('Error signing out', { description: errorMessage(error) });
      setSigningOut(false);
    }
  }

  return (
    <header className="bg-navy-900 text-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-3 px-4 py-4 sm:px-6">
        <div className="flex min-w-0 flex-col">
          <Link
            to={paths.home}
            className="text-navy-50 focus-visible:outline-gold-500 self-start text-sm font-semibold underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2"
          >
            <span aria-hidden="true">← </span>
            {site.productName} home
          </Link>
          <h1 className="font-serif text-2xl font-bold sm:text-3xl">Subscriber Resources</h1>
        </div>
        <div className="flex items-center gap-3">
          <Button variant="outline" size="sm" onClick={() => void handleSignOut()} disabled={signingOut || !onSignOut}>
            {signingOut ? 'Signing out...' : 'Sign Out'}
          </Button>
          {accountMenu}
        </div>
      </div>
    </header>
  );
}

/** The greeting and the member's tier: loading, could not load, none (with the way to buy) or held. */
function Welcome({ tier, firstSignIn }: { tier: TierState | PendingTier; firstSignIn: boolean }) {
  return (
    <section aria-labelledby="welcome-heading" className="rounded-xl bg-white p-5 shadow-sm sm:p-6">
      <h2 id="welcome-heading" className="text-navy-900 font-serif text-2xl font-bold">
        {firstSignIn ? 'Welcome!' : 'Welcome Back!'}
      </h2>
      {tier.status === 'loading' ? (
        <p role="status" className="text-navy-800 mt-2 text-lg">
          Loading your resources...
        </p>
      ) : tier.status === 'error' ? (
        <TierProblem tier={tier} />
      ) : (
        <>
          {tier.data ? (
            <p className="text-navy-800 mt-2 text-lg">Current Tier: {tierLabel(tier.data)}</p>
          ) : (
            <div className="mt-4 flex flex-col gap-3 rounded-lg border border-yellow-400 bg-yellow-50 p-4 text-yellow-900 sm:flex-row sm:items-center sm:justify-between">
              <p>No active subscription: Purchase here to access additional resources</p>
              <Link to={paths.bundles} className={buttonClasses('gold', 'sm', 'shrink-0')}>
                Bundle Options
              </Link>
            </div>
          )}
          {tier.refreshFailed && <TierProblem tier={tier} />}
        </>
      )}
    </section>
  );
}

/** Every resource card, each locked, loading or open as the tier and its files say. */
function ResourceCards({
  files,
  pending,
  knownTier,
  onFollowDownload,
}: {
  files: ResourcesViewProps['files'];
  pending: boolean;
  knownTier: Tier | null | undefined;
  onFollowDownload: ResourcesViewProps['onFollowDownload'];
}) {
  return (
    <section aria-labelledby="resources-heading">
      <h2 id="resources-heading" className="sr-only">
        Your resources
      </h2>
      {/* Columns, not grid rows: a card with one file is not stretched to the height of
          its neighbour with seven (cards read top to bottom, column by column). */}
      <ul className="gap-5 sm:columns-2 lg:columns-3">
        {resourceCards.map((card) => {
          const cardFiles = files[card.slug];
          return (
            <li key={card.slug} className="mb-5 break-inside-avoid">
              <ResourceCardView
                card={card}
                view={pending ? 'loading' : cardView(knownTier, card.tier, cardFiles)}
                files={cardFiles}
                onFollowDownload={onFollowDownload}
              />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ReadyForMore() {
  return (
    <section
      aria-labelledby="more-heading"
      className="bg-navy-800 rounded-xl p-6 text-center text-white shadow-sm sm:p-8"
    >
      <h2 id="more-heading" className="font-serif text-2xl font-bold">
        Ready for More?
      </h2>
      <p className="text-navy-50 mx-auto mt-2 max-w-2xl">
        Go further with coaching, community and the complete publishing roadmap. Every bundle includes what you already
        have, and more.
      </p>
      <Link to={paths.bundles} className={buttonClasses('gold', 'md', 'mt-5')}>
        Compare Bundles
      </Link>
    </section>
  );
}

/**
 * The tier could not be read. With nothing read yet it is the banner's whole message; after
 * a good read it is a quiet note under the tier still shown (the last good one).
 */
function TierProblem({ tier }: { tier: Exclude<TierState, { status: 'ready'; refreshFailed: false }> }) {
  const blocking = tier.status === 'error';
  return (
    <div
      role={blocking ? 'alert' : 'status'}
      className={
        blocking
          ? 'mt-4 flex flex-col gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 sm:flex-row sm:items-center sm:justify-between'
          : 'text-navy-800 mt-3 flex flex-wrap items-center gap-3 text-sm'
      }
    >
      <p>
        {blocking
          ? "We couldn't load your subscription. Your purchases are safe; please try again."
          : "We couldn't refresh your subscription just now; this is what we last saw."}
      </p>
      <RetryButton retry={tier.retry} retrying={tier.retrying} className="shrink-0" />
    </div>
  );
}
