import type { ReactNode } from 'react';
import { ScrollTable } from '@/components/ui/scroll-table';
import type { ReadState } from '@/lib/read-state';
import { providerLabel, sessionTime, type StaffBooking } from '../lib/coaching';
import { MeetingLink } from './session-parts';
import { StaffNav } from './staff-nav';
import { Read } from './staff-read';

export type SessionsViewProps = {
  upcoming: ReadState<StaffBooking[]>;
  /** Each member's account e-mail, by user id, once read; the booking's own e-mail until then. */
  memberEmails?: ReadonlyMap<string, string>;
  /** The unmatched bookings' section (UnmatchedBookingsView, with its own read and action). */
  unmatched?: ReactNode;
  /** The live sessions and the timed benefits (their own views, read and written on their own). */
  live?: ReactNode;
  /** The most the list shows: past it, the page says the list is cut. */
  limit: number;
  /** The zone times are shown in (tests); the staff member's own by default. */
  timeZone?: string;
};

/** The zone times are shown in, named: the browser's own unless given. */
function zoneName(timeZone: string | undefined): string {
  return timeZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * /staff/sessions: every coaching session booked from now on, soonest first, the unmatched
 * bookings, and the live sessions with the benefits they belong to.
 */
export function SessionsView({
  upcoming,
  memberEmails = new Map(),
  unmatched,
  live,
  limit,
  timeZone,
}: SessionsViewProps) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-3">
        <StaffNav />
        <h1 className="text-navy-900 font-serif text-3xl font-bold">Sessions</h1>
        <p className="text-navy-800">
          The one-to-one coaching sessions members booked on Cal.com or Calendly. Times are in your time zone (
          {zoneName(timeZone)}). A member&apos;s notes and adjustments are on their page under Members. The live circles
          and Q&amp;A calls follow them.
        </p>
      </header>
      {unmatched}
      <section aria-labelledby="upcoming-sessions-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="upcoming-sessions-title" className="text-navy-900 font-serif text-xl font-bold">
          Upcoming sessions
        </h2>
        <div className="mt-3">
          <Read read={upcoming} what="the upcoming sessions">
            {(rows) =>
              rows.length === 0 ? (
                <p className="text-navy-800 text-sm">No session is booked from now on.</p>
              ) : (
                <>
                  <UpcomingTable rows={rows} memberEmails={memberEmails} timeZone={timeZone} />
                  {rows.length >= limit && (
                    <p className="mt-2 text-sm text-slate-700">The first {limit} sessions are shown.</p>
                  )}
                </>
              )
            }
          </Read>
        </div>
      </section>
      {live}
    </main>
  );
}

function UpcomingTable({
  rows,
  memberEmails,
  timeZone,
}: {
  rows: StaffBooking[];
  memberEmails: ReadonlyMap<string, string>;
  timeZone: string | undefined;
}) {
  return (
    <ScrollTable
      captionId="upcoming-sessions-caption"
      caption="Upcoming sessions, soonest first"
      columns={['When', 'Member', 'Provider', 'Meeting', 'Allowance']}
      minWidthClassName="min-w-[48rem]"
    >
      {rows.map((row) => (
        <tr key={row.id} className="border-navy-100 border-t align-top">
          <th scope="row" className="text-navy-900 px-3 py-2 text-left font-semibold">
            {sessionTime(row.startsAt, row.endsAt, timeZone)}
          </th>
          <td className="px-3 py-2 break-all">
            <Member booking={row} accountEmail={row.userId ? memberEmails.get(row.userId) : undefined} />
          </td>
          <td className="px-3 py-2">{providerLabel(row.provider)}</td>
          <td className="px-3 py-2">
            <MeetingLink url={row.meetingUrl} />
          </td>
          <td className="px-3 py-2">
            {row.overAllowance ? (
              <span className="rounded bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800">Over allowance</span>
            ) : (
              'Within'
            )}
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

/**
 * The member's account e-mail, and the one typed on the booking page when it differs (a booking
 * assigned by staff, or matched by the member id its link carried); "Unmatched" for none.
 */
function Member({ booking, accountEmail }: { booking: StaffBooking; accountEmail: string | undefined }) {
  if (!booking.userId) return <span className="font-semibold">Unmatched</span>;
  const email = accountEmail ?? booking.email ?? 'A member (no e-mail given)';
  const bookedAs = accountEmail && booking.email && booking.email !== accountEmail.toLowerCase() ? booking.email : null;
  return (
    <>
      {email}
      {bookedAs && <span className="block text-xs text-slate-700">booked as {bookedAs}</span>}
    </>
  );
}
