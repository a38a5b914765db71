import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { tierLabel, type Tier } from '@/content/tiers';
import { cn } from '@/lib/cn';
import type { ReadState } from '@/lib/read-state';

/** Who is looking: a visitor (also while the session is still unknown), or a signed-in user. */
export type BuyerAccessState =
  { kind: 'visitor' } | { kind: 'member'; email: string | null; tier: ReadState<Tier | null> };

// Plain /auth: a sign-in leads to /resources by default (decision 007), and a second address
// for the same page would make the page's Speculation Rules prerender /auth twice.
const signInHref = paths.auth;

/**
 * How a buyer gets to their files, at the top of /upgrade. The visitor version is what the
 * page renders first (and what is prerendered); once a session is known the signed-in version
 * replaces it in the same box. Both versions sit in one grid cell and the visitor's stays
 * there invisibly (`visibility: hidden`: not seen, not focusable, not read), so the box keeps
 * its height and nothing below it moves.
 */
export function BuyerAccessView({ state }: { state: BuyerAccessState }) {
  const member = state.kind === 'member' ? state : null;
  return (
    <section
      aria-labelledby={member ? 'access-member-heading' : 'access-visitor-heading'}
      className="border-gold-500 mx-auto mt-8 grid max-w-3xl rounded-2xl border-2 bg-white p-5 text-left shadow-md sm:p-6"
    >
      <div className={cn('col-start-1 row-start-1', member && 'invisible')} aria-hidden={member ? true : undefined}>
        <h2 id="access-visitor-heading" className="font-serif text-2xl font-bold">
          Getting to your files
        </h2>
        <ol className="text-navy-800 mt-3 list-decimal space-y-2 pl-5">
          <li>
            New here? Check your inbox for the e-mail <strong>&ldquo;Your files are ready&rdquo;</strong> and follow its
            link to set your password.
          </li>
          <li>Already have an account? Sign in with the e-mail address you used at checkout.</li>
        </ol>
        <Link to={signInHref} className={buttonClasses('primary', 'md', 'mt-4')}>
          Sign in to your files
        </Link>
      </div>
      {member && (
        <div className="col-start-1 row-start-1">
          <h2 id="access-member-heading" className="font-serif text-2xl font-bold">
            Your files are waiting
          </h2>
          {member.email && <p className="text-navy-800 mt-3">Signed in as {member.email}.</p>}
          <p className="text-navy-800 mt-2" role="status">
            <MemberTier tier={member.tier} />
          </p>
          <Link to={paths.resources} className={buttonClasses('primary', 'md', 'mt-4')}>
            Go to your files
          </Link>
        </div>
      )}
    </section>
  );
}

function MemberTier({ tier }: { tier: ReadState<Tier | null> }) {
  switch (tier.status) {
    case 'loading':
      return <>Checking your purchases...</>;
    case 'error':
      return <>We couldn&rsquo;t check your purchases just now; your files page will show them.</>;
    case 'ready':
      return tier.data ? (
        <>
          Your tier: <strong>{tierLabel(tier.data)}</strong>
        </>
      ) : (
        <>
          No purchase on this account yet. A new purchase can take a minute to arrive; if you paid with another e-mail,
          sign in with that one.
        </>
      );
  }
}
