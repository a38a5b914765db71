import type { ReactNode } from 'react';
import { RetryButton } from '@/components/ui/retry-button';
import { site } from '@/content/site';
import type { ReadState } from '@/lib/read-state';
import { CardMedia } from './card-media';
import {
  googleCalendarUrl,
  icsFileName,
  icsFor,
  type CalendarEvent,
} from '../../../../supabase/functions/_shared/calendar';
import {
  COMMUNITY_BENEFITS,
  COMMUNITY_NAMES,
  recordings,
  formatDay,
  formatSessionStart,
  splitLive,
  type Benefit,
  type Live,
  type LiveSession,
} from '../lib/live';

/**
 * The member's live programme: each community's access with its end date and link (the link
 * only while it lasts; after the end, how to continue), and the circles and Q&A calls to come in
 * the viewer's own time zone, each with Add to calendar and, in its window, Join.
 */
export function LiveView({
  live,
  now = new Date(),
  timeZone,
  renderJoin,
}: {
  live: ReadState<Live>;
  now?: Date;
  /** The zone times are shown in: the viewer's own unless told (tests). */
  timeZone?: string;
  /** The Join link of a session in its window (the server hands it out; see live-section). */
  renderJoin: (session: LiveSession) => ReactNode;
}) {
  if (live.status === 'loading') return null;
  if (live.status === 'error') {
    return (
      <section aria-labelledby="live-heading" className="rounded-xl bg-white p-5 shadow-sm sm:p-6">
        <h2 id="live-heading" className="text-navy-900 font-serif text-2xl font-bold">
          Live sessions and community
        </h2>
        <div role="alert" className="mt-2 flex flex-col items-start gap-2 text-sm text-red-900">
          <p>Could not load your live sessions.</p>
          <RetryButton retry={live.retry} retrying={live.retrying} labels={['Try again', 'Trying again...']} />
        </div>
      </section>
    );
  }
  const communities = live.data.benefits.filter((b) => COMMUNITY_BENEFITS.has(b.benefit));
  const { upcoming, past } = splitLive(live.data.sessions, now);
  const recorded = recordings(past);
  if (live.data.benefits.length === 0) return null;
  return (
    <section aria-labelledby="live-heading" className="flex flex-col gap-4 rounded-xl bg-white p-5 shadow-sm sm:p-6">
      <h2 id="live-heading" className="text-navy-900 font-serif text-2xl font-bold">
        Live sessions and community
      </h2>
      {communities.map((benefit) => (
        <Access key={benefit.benefit} benefit={benefit} timeZone={timeZone} />
      ))}
      <div>
        <h3 className="text-navy-900 text-lg font-bold">Coming up</h3>
        {upcoming.length === 0 ? (
          <p className="text-navy-800 text-sm">No live session is scheduled yet. We will e-mail you when one is.</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-2">
            {upcoming.map((session) => (
              <SessionItem key={session.id} session={session} join={renderJoin(session)} timeZone={timeZone} />
            ))}
          </ul>
        )}
      </div>
      {recorded.length > 0 && (
        <div>
          <h3 className="text-navy-900 mb-2 text-lg font-bold">Recordings</h3>
          <CardMedia cardTitle="Live sessions" items={recorded} />
        </div>
      )}
    </section>
  );
}

function Access({ benefit, timeZone }: { benefit: Benefit; timeZone?: string }) {
  const names = COMMUNITY_NAMES[benefit.benefit] ?? { access: benefit.label, group: benefit.label };
  const help = (
    <a className="text-navy-900 font-semibold underline" href={`mailto:${site.contactEmail}`}>
      {site.contactEmail}
    </a>
  );
  if (!benefit.active) {
    return (
      <p className="text-navy-800">
        Your {names.access} ended on {formatDay(benefit.ends_at, timeZone)}. To continue, email {help} or see{' '}
        <a className="text-navy-900 font-semibold underline" href="/bundles">
          the bundles
        </a>
        .
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-navy-900 text-lg font-semibold">
        {benefit.label} until {formatDay(benefit.ends_at, timeZone)}
      </p>
      {benefit.link ? (
        <a
          className="text-navy-900 font-semibold underline"
          href={benefit.link}
          target="_blank"
          rel="noopener noreferrer"
        >
          Open {names.group}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : (
        <p className="text-navy-800 text-sm">The link is on its way. Questions? Email {help}</p>
      )}
    </div>
  );
}

function SessionItem({ session, join, timeZone }: { session: LiveSession; join: ReactNode; timeZone?: string }) {
  const event: CalendarEvent = {
    uid: session.id,
    title: session.title,
    description: session.description ?? undefined,
    startsAt: session.starts_at,
    minutes: session.minutes,
    url: `${window.location.origin}/resources`,
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([icsFor(event, new Date())], { type: 'text/calendar' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: icsFileName(event) });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <li className="border-navy-100 flex flex-col gap-1 rounded-lg border px-3 py-2">
      <p className="text-navy-900 font-semibold">
        {session.title} <span className="text-navy-800 text-sm font-normal">({session.label})</span>
      </p>
      <p className="text-navy-800">
        <time dateTime={session.starts_at}>{formatSessionStart(session.starts_at, timeZone)}</time>, {session.minutes}{' '}
        minutes
      </p>
      {session.description && <p className="text-navy-800 text-sm">{session.description}</p>}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {join}
        <button type="button" className="text-navy-900 font-semibold underline" onClick={download}>
          Add to calendar (.ics)
        </button>
        <a
          className="text-navy-900 font-semibold underline"
          href={googleCalendarUrl(event)}
          target="_blank"
          rel="noopener noreferrer"
        >
          Google Calendar<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
    </li>
  );
}
