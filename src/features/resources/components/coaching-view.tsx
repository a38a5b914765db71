import { buttonClasses } from '@/components/ui/button';
import { RetryButton } from '@/components/ui/retry-button';
import { site } from '@/content/site';
import type { ReadState } from '@/lib/read-state';
import { bookingLink } from '../../../../supabase/functions/_shared/booking-link';
import { sessionsLeftText, sessionTime, splitSessions, type Booking, type Coaching } from '../lib/coaching';

/**
 * The member's one-to-one coaching: how many sessions are left, the way to book one (the owner's
 * booking page, prefilled and carrying their id; no provider script is ever loaded here), the
 * sessions to come with their meeting links and those held with the notes written for them.
 * Times are in the viewer's own zone.
 */
export function CoachingView({
  userId,
  coaching,
  now = new Date(),
}: {
  userId: string;
  coaching: ReadState<Coaching>;
  now?: Date;
}) {
  if (coaching.status === 'loading') return null;
  if (coaching.status === 'error') {
    return (
      <section aria-labelledby="coaching-heading" className="rounded-xl bg-white p-5 shadow-sm sm:p-6">
        <h2 id="coaching-heading" className="text-navy-900 font-serif text-2xl font-bold">
          Your coaching
        </h2>
        <div role="alert" className="mt-2 flex flex-col items-start gap-2 text-sm text-red-900">
          <p>Could not load your coaching sessions.</p>
          <RetryButton retry={coaching.retry} retrying={coaching.retrying} labels={['Try again', 'Trying again...']} />
        </div>
      </section>
    );
  }
  const data = coaching.data;
  if (data.sessions === 0 && data.bookings.length === 0) return null;
  const { upcoming, past } = splitSessions(data.bookings, now);
  return (
    <section
      aria-labelledby="coaching-heading"
      className="flex flex-col gap-4 rounded-xl bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="coaching-heading" className="text-navy-900 font-serif text-2xl font-bold">
            Your coaching
          </h2>
          <p className="text-navy-800 text-lg">
            {sessionsLeftText(data)} <span className="text-base">({data.minutes} minutes each)</span>
          </p>
        </div>
        <BookAction userId={userId} coaching={data} />
      </div>
      <SessionList title="Coming up" sessions={upcoming} empty="No session booked yet." upcoming />
      {past.length > 0 && <SessionList title="Held" sessions={past} empty="" />}
    </section>
  );
}

function BookAction({ userId, coaching }: { userId: string; coaching: Coaching }) {
  const help = (
    <a className="text-navy-900 font-semibold underline" href={`mailto:${site.contactEmail}`}>
      {site.contactEmail}
    </a>
  );
  if (coaching.left === 0) {
    return <p className="text-navy-800">All your sessions are booked. Questions? Email {help}</p>;
  }
  if (!coaching.booking_url) {
    return <p className="text-navy-800">Booking opens soon. To book now, email {help}</p>;
  }
  const href = bookingLink(coaching.booking_url, { id: userId, email: coaching.email, name: coaching.name });
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={buttonClasses('gold', 'md')}>
      Book a session<span className="sr-only"> (opens the booking page in a new tab)</span>
    </a>
  );
}

function SessionList({
  title,
  sessions,
  empty,
  upcoming = false,
}: {
  title: string;
  sessions: Booking[];
  empty: string;
  upcoming?: boolean;
}) {
  return (
    <div>
      <h3 className="text-navy-900 text-lg font-bold">{title}</h3>
      {sessions.length === 0 ? (
        <p className="text-navy-800 text-sm">{empty}</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2">
          {sessions.map((session) => (
            <li key={session.id} className="border-navy-100 rounded-lg border px-3 py-2">
              <p className="text-navy-900 font-semibold">{sessionTime(session.starts_at!, session.ends_at)}</p>
              {upcoming && session.meeting_url && (
                <a className="text-navy-900 text-sm font-semibold underline" href={session.meeting_url}>
                  Join the session
                </a>
              )}
              {!upcoming && session.member_note && <p className="text-navy-800 mt-1 text-sm">{session.member_note}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
