import { NewTabLink } from '@/components/new-tab-link';
import { statusLabel, type StaffBooking } from '../lib/coaching';

const mark = 'ml-2 inline-block rounded px-2 py-0.5 text-xs font-semibold';

/** A session's marks, in words: cancelled or rescheduled, and booked with no session left. */
export function SessionMarks({ booking }: { booking: Pick<StaffBooking, 'status' | 'overAllowance'> }) {
  const status = statusLabel(booking.status);
  return (
    <>
      {status && <span className={`${mark} bg-slate-100 text-slate-800`}>{status}</span>}
      {booking.overAllowance && <span className={`${mark} bg-red-50 text-red-800`}>Over allowance</span>}
    </>
  );
}

/** The session's video call, in a new tab; said when the provider sent none. */
export function MeetingLink({ url }: { url: string | null }) {
  if (!url) return <span className="text-slate-700">No meeting link</span>;
  return (
    <NewTabLink href={url} className="text-navy-900 font-semibold underline underline-offset-2">
      Meeting link
    </NewTabLink>
  );
}
