import { toast } from 'sonner';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import type { ReadState } from '@/lib/read-state';
import { providerLabel, sessionTime, type StaffBooking } from '../lib/coaching';
import { SessionMarks } from './session-parts';
import { Read } from './staff-read';

/** Ties a booking to the member with this e-mail; answers their e-mail; throws, in words, when it cannot. */
export type AssignBooking = (bookingId: string, email: string) => Promise<string>;

/**
 * The bookings that matched no member (the booking page was given an e-mail no confirmed
 * account has, and carried no member id): staff type the member's e-mail to assign each one.
 * An assigned booking counts against that member's sessions and leaves the list.
 */
export function UnmatchedBookingsView({
  unmatched,
  onAssign,
  timeZone,
}: {
  unmatched: ReadState<StaffBooking[]>;
  onAssign: AssignBooking;
  timeZone?: string;
}) {
  return (
    <section aria-labelledby="unmatched-bookings-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="unmatched-bookings-title" className="text-navy-900 font-serif text-xl font-bold">
        Unmatched bookings
      </h2>
      <p className="text-navy-800 mt-1 text-sm">
        Sessions booked with an e-mail no confirmed account has. Find the member by the e-mail they signed up with: the
        session then counts against their allowance.
      </p>
      <div className="mt-3">
        <Read read={unmatched} what="the unmatched bookings">
          {(rows) =>
            rows.length === 0 ? (
              <p className="text-navy-800 text-sm">None: every booking matched a member.</p>
            ) : (
              <ul aria-label="Unmatched bookings" className="flex flex-col gap-3">
                {rows.map((booking) => (
                  <UnmatchedItem key={booking.id} booking={booking} onAssign={onAssign} timeZone={timeZone} />
                ))}
              </ul>
            )
          }
        </Read>
      </div>
    </section>
  );
}

function UnmatchedItem({
  booking,
  onAssign,
  timeZone,
}: {
  booking: StaffBooking;
  onAssign: AssignBooking;
  timeZone: string | undefined;
}) {
  const who = booking.name || booking.email || 'someone';
  return (
    <li className="border-navy-100 flex flex-col gap-2 rounded-lg border p-3">
      <p className="text-navy-900 font-semibold wrap-anywhere">
        {booking.name || 'No name given'} · {booking.email || 'no e-mail given'}
      </p>
      <p className="text-navy-800 text-sm">
        {sessionTime(booking.startsAt, booking.endsAt, timeZone)} · {providerLabel(booking.provider)}
        <SessionMarks booking={booking} />
      </p>
      <AssignForm bookingId={booking.id} who={who} onAssign={onAssign} />
    </li>
  );
}

function AssignForm({ bookingId, who, onAssign }: { bookingId: string; who: string; onAssign: AssignBooking }) {
  const form = useForm();
  const id = `assign-${bookingId}`;

  async function submit(element: HTMLFormElement) {
    const email = String(new FormData(element).get('email') ?? '').trim();
    if (!email) {
      form.setFieldErrors({ email: 'Type the e-mail of the member’s account.' });
      return;
    }
    form.setFieldErrors({});
    await form.run('busy', async () => {
      const assigned = await onAssign(bookingId, email);
      toast.success(`Booking assigned to ${assigned}`);
    });
  }

  return (
    <Form
      state={form}
      onSubmit={submit}
      noValidate
      aria-label={`Assign the booking of ${who}`}
      className="flex flex-col gap-2"
    >
      <FormAlert message={form.error} />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <Field id={`${id}-email`} label="Member’s e-mail" error={form.fieldErrors.email}>
          <Input name="email" type="email" autoComplete="off" spellCheck={false} disabled={form.isBusy} />
        </Field>
        <SubmitButton busy={form.isBusy} label="Assign to a member" busyLabel="Assigning..." size="sm" announce />
      </div>
    </Form>
  );
}
