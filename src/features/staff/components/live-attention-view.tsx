import { Link } from 'react-router-dom';
import { RetryButton } from '@/components/ui/retry-button';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import {
  formatDay,
  holdersText,
  memberPageLink,
  nextSessions,
  sessionWhen,
  type EndingAccess,
  type LiveOverview,
  type StaffLiveSession,
} from '../lib/live';

const card = 'flex flex-col gap-2 rounded-xl bg-white p-4 shadow-sm';
const link = 'text-navy-900 font-semibold underline underline-offset-2';

/**
 * The dashboard's live items, beside the coaching's: the next three sessions (with how many
 * members hold each) and the community accesses ending within a week, each leading to the page
 * where staff act on it.
 */
export function LiveAttentionView({
  overview,
  now = new Date(),
  timeZone,
}: {
  overview: ReadState<LiveOverview>;
  /** The time "next" is judged at (tests); now by default. */
  now?: Date;
  /** The zone times are shown in (tests); the staff member's own by default. */
  timeZone?: string;
}) {
  if (overview.status === 'loading') return null;
  if (overview.status === 'error') {
    return (
      <div role="alert" className="flex flex-col items-start gap-2 rounded-xl bg-white p-4 shadow-sm sm:col-span-2">
        <p className="text-navy-900 font-semibold">We couldn&apos;t load the live sessions.</p>
        <p className="text-navy-800 text-sm">{errorMessage(overview.error)}</p>
        <RetryButton retry={overview.retry} retrying={overview.retrying} />
      </div>
    );
  }
  return (
    <>
      <NextSessions sessions={nextSessions(overview.data.sessions, now)} timeZone={timeZone} />
      <EndingThisWeek rows={overview.data.ending} timeZone={timeZone} />
    </>
  );
}

function NextSessions({ sessions, timeZone }: { sessions: StaffLiveSession[]; timeZone: string | undefined }) {
  return (
    <section aria-labelledby="next-live-title" className={card}>
      <h2 id="next-live-title" className="text-navy-900 text-xl font-semibold">
        Next live sessions
      </h2>
      {sessions.length === 0 ? (
        <p className="text-navy-800 text-sm">None scheduled.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {sessions.map((session) => (
            <li key={session.id} className="text-navy-800 text-sm">
              <span className="text-navy-900 block font-semibold wrap-anywhere">{session.title}</span>
              {sessionWhen(session, timeZone)} · {holdersText(session.holders.length)}
            </li>
          ))}
        </ul>
      )}
      <Link to={paths.staffSessions} className={`${link} mt-auto text-sm`}>
        Schedule and change live sessions
      </Link>
    </section>
  );
}

function EndingThisWeek({ rows, timeZone }: { rows: EndingAccess[]; timeZone: string | undefined }) {
  return (
    <section aria-labelledby="access-ending-title" className={card}>
      <h2 id="access-ending-title" className="text-navy-900 text-xl font-semibold">
        Access ending this week
      </h2>
      {rows.length === 0 ? (
        <p className="text-navy-800 text-sm">No community access ends in the next 7 days.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {rows.map((row) => (
            <li key={`${row.userId}-${row.benefit}`} className="text-navy-800 text-sm">
              <Link to={memberPageLink(row.userId, row.email)} className={`${link} break-all`}>
                {row.email ?? 'A member (no e-mail)'}
              </Link>
              <span className="block">
                {row.label}: ends {formatDay(row.endsAt, timeZone)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
