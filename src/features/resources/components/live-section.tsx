import { useQuery } from '@tanstack/react-query';
import { buttonClasses } from '@/components/ui/button';
import { readState } from '@/lib/read-state';
import { joinLinkQueryOptions, liveQueryOptions } from '../api/live';
import type { LiveSession } from '../lib/live';
import { LiveView } from './live-view';

/** Container: the signed-in member's benefits and live sessions, read from the database. */
export function LiveSection({ userId }: { userId: string }) {
  const live = readState(useQuery(liveQueryOptions(userId)));
  return (
    <LiveView
      live={live}
      renderJoin={(session) => (session.joinable ? <JoinLink userId={userId} session={session} /> : null)}
    />
  );
}

/** Asks the database for the link only once the session is in its window. */
function JoinLink({ userId, session }: { userId: string; session: LiveSession }) {
  const link = useQuery(joinLinkQueryOptions(userId, session.id));
  if (link.isError)
    return <span className="text-sm text-red-900">Could not get the join link. It will be tried again.</span>;
  if (!link.data) return <span className="text-navy-800 text-sm">Getting the join link…</span>;
  return (
    <a href={link.data} target="_blank" rel="noopener noreferrer" className={buttonClasses('gold', 'sm')}>
      Join now<span className="sr-only">: {session.title} (opens in a new tab)</span>
    </a>
  );
}
