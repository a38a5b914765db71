import { toast } from 'sonner';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import type { ReadState } from '@/lib/read-state';
import {
  adjustedText,
  checkAdjustment,
  checkNotes,
  deltaText,
  NOTE_MAX,
  providerLabel,
  sessionTime,
  splitSessions,
  usedText,
  type Adjustment,
  type MemberCoaching,
  type MemberSession,
} from '../lib/coaching';
import { formatDateTime } from '../lib/members';
import { MeetingLink, SessionMarks } from './session-parts';
import { Read } from './staff-read';

export type MemberCoachingViewProps = {
  email: string;
  coaching: ReadState<MemberCoaching>;
  /** Gives (+) or takes (−) sessions; answers the member's new allowance; throws when refused. */
  onAdjust: (delta: number, reason: string) => Promise<number>;
  onSaveNotes: (bookingId: string, memberNote: string, privateNote: string) => Promise<void>;
  /** The time sessions are judged upcoming or past at (tests); now by default. */
  now?: Date;
  /** The zone times are shown in (tests); the staff member's own by default. */
  timeZone?: string;
};

/**
 * A chosen member's one-to-one coaching: sessions used and left, staff's way to give or take
 * some with a reason, every session (times in the staff member's zone) with its notes, and the
 * history of adjustments.
 */
export function MemberCoachingView({ coaching, ...props }: MemberCoachingViewProps) {
  return (
    <section
      aria-labelledby="member-coaching-title"
      className="border-navy-100 rounded-xl border bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="member-coaching-title" className="text-navy-900 font-serif text-xl font-bold">
        Their coaching
      </h2>
      <div className="mt-2">
        <Read read={coaching} what="the coaching">
          {(data) => <CoachingBody data={data} {...props} />}
        </Read>
      </div>
    </section>
  );
}

function CoachingBody({
  data,
  email,
  onAdjust,
  onSaveNotes,
  now = new Date(),
  timeZone,
}: { data: MemberCoaching } & Omit<MemberCoachingViewProps, 'coaching'>) {
  const { upcoming, past } = splitSessions(data.sessions, now);
  const sessions = { onSaveNotes, timeZone };
  return (
    <div className="flex flex-col gap-5">
      <div>
        <p className="text-navy-900 text-lg font-semibold">{usedText(data.count)}</p>
        {data.count.sessions === 0 && (
          <p className="text-navy-800 text-sm">
            Their bundle includes no coaching, or every session was taken. Sessions given here count once they have a
            bundle that includes coaching.
          </p>
        )}
      </div>
      <AdjustForm email={email} onAdjust={onAdjust} />
      <SessionList title="Coming up" empty="No session booked." sessions={upcoming} {...sessions} />
      <SessionList title="Past" empty="No past sessions." sessions={past} {...sessions} />
      <Adjustments rows={data.adjustments} />
    </div>
  );
}

function AdjustForm({ email, onAdjust }: Pick<MemberCoachingViewProps, 'email' | 'onAdjust'>) {
  const form = useForm();

  async function submit(element: HTMLFormElement) {
    const values = new FormData(element);
    const checked = checkAdjustment({
      delta: String(values.get('delta') ?? ''),
      reason: String(values.get('reason') ?? ''),
    });
    if (!checked.ok) {
      form.setFieldErrors(checked.errors);
      return;
    }
    form.setFieldErrors({});
    const { delta, reason } = checked.data;
    await form.run('busy', async () => {
      const sessions = await onAdjust(delta, reason);
      toast.success(`${adjustedText(delta)} ${delta > 0 ? 'to' : 'from'} ${email}`, {
        description: `${sessions} session${sessions === 1 ? '' : 's'} in all now.`,
      });
      element.reset();
    });
  }

  return (
    <Form
      state={form}
      onSubmit={submit}
      noValidate
      aria-labelledby="adjust-coaching-title"
      className="flex flex-col gap-3"
    >
      <h3 id="adjust-coaching-title" className="text-navy-900 text-lg font-bold">
        Give or take sessions
      </h3>
      <FormAlert message={form.error} />
      <fieldset disabled={form.isBusy} className="grid gap-3 sm:grid-cols-[auto_1fr]">
        <Field
          id="adjust-coaching-delta"
          label="Sessions to give or take"
          error={form.fieldErrors.delta}
          hint="2 gives two sessions, −1 takes one (−20 to 20)"
        >
          <Input name="delta" type="number" min={-20} max={20} step={1} />
        </Field>
        <Field
          id="adjust-coaching-reason"
          label="Reason"
          error={form.fieldErrors.reason}
          hint="Kept with the adjustment, like a gift or a missed session given back"
        >
          <Input name="reason" maxLength={500} autoComplete="off" />
        </Field>
      </fieldset>
      <div>
        <SubmitButton
          busy={form.isBusy}
          label="Adjust sessions"
          busyLabel="Adjusting..."
          variant="outline"
          size="sm"
          announce
        />
      </div>
    </Form>
  );
}

function SessionList({
  title,
  empty,
  sessions,
  onSaveNotes,
  timeZone,
}: {
  title: string;
  empty: string;
  sessions: MemberSession[];
} & Pick<MemberCoachingViewProps, 'onSaveNotes' | 'timeZone'>) {
  return (
    <div>
      <h3 className="text-navy-900 text-lg font-bold">{title}</h3>
      {sessions.length === 0 ? (
        <p className="text-navy-800 text-sm">{empty}</p>
      ) : (
        <ul aria-label={title} className="mt-2 flex flex-col gap-3">
          {sessions.map((session) => (
            <SessionItem key={session.id} session={session} onSaveNotes={onSaveNotes} timeZone={timeZone} />
          ))}
        </ul>
      )}
    </div>
  );
}

function SessionItem({
  session,
  onSaveNotes,
  timeZone,
}: { session: MemberSession } & Pick<MemberCoachingViewProps, 'onSaveNotes' | 'timeZone'>) {
  const time = sessionTime(session.startsAt, session.endsAt, timeZone);
  return (
    <li className="border-navy-100 flex flex-col gap-2 rounded-lg border p-3">
      <p className="text-navy-900 font-semibold">
        {time}
        <SessionMarks booking={session} />
      </p>
      <p className="text-navy-800 text-sm">
        {providerLabel(session.provider)} · <MeetingLink url={session.meetingUrl} />
      </p>
      <NotesForm session={session} time={time} onSaveNotes={onSaveNotes} />
    </li>
  );
}

function NotesForm({
  session,
  time,
  onSaveNotes,
}: { session: MemberSession; time: string } & Pick<MemberCoachingViewProps, 'onSaveNotes'>) {
  const form = useForm();
  const id = `notes-${session.id}`;

  async function submit(element: HTMLFormElement) {
    const values = new FormData(element);
    const checked = checkNotes({
      member_note: String(values.get('member_note') ?? ''),
      private_note: String(values.get('private_note') ?? ''),
    });
    if (!checked.ok) {
      form.setFieldErrors(checked.errors);
      return;
    }
    form.setFieldErrors({});
    await form.run('busy', async () => {
      await onSaveNotes(session.id, checked.data.member_note, checked.data.private_note);
      toast.success('Notes saved', { description: time });
    });
  }

  return (
    <Form
      state={form}
      onSubmit={submit}
      noValidate
      aria-label={`Notes on the session of ${time}`}
      className="flex flex-col gap-2"
    >
      <FormAlert message={form.error} />
      <fieldset disabled={form.isBusy} className="grid gap-3 sm:grid-cols-2">
        <Field
          id={`${id}-member`}
          label="Note for the member"
          error={form.fieldErrors.member_note}
          hint="They read it with the session"
        >
          <Textarea name="member_note" rows={3} maxLength={NOTE_MAX} defaultValue={session.memberNote ?? ''} />
        </Field>
        <Field
          id={`${id}-private`}
          label="Private note (staff only)"
          error={form.fieldErrors.private_note}
          hint="The member never sees it"
        >
          <Textarea name="private_note" rows={3} maxLength={NOTE_MAX} defaultValue={session.privateNote ?? ''} />
        </Field>
      </fieldset>
      <div>
        <SubmitButton
          busy={form.isBusy}
          label="Save notes"
          busyLabel="Saving..."
          variant="outline"
          size="sm"
          announce
        />
      </div>
    </Form>
  );
}

/** Every session staff gave or took for the member, newest first, with the reason. */
function Adjustments({ rows }: { rows: readonly Adjustment[] }) {
  return (
    <div>
      <h3 className="text-navy-900 text-lg font-bold">Adjustments</h3>
      {rows.length === 0 ? (
        <p className="text-navy-800 text-sm">None: the sessions are the bundle&apos;s.</p>
      ) : (
        <ol aria-label="Adjustments" className="mt-2 flex flex-col gap-1">
          {rows.map((row) => (
            <li key={row.id} className="text-navy-800 text-sm wrap-anywhere">
              <span className="text-navy-900 font-semibold">{deltaText(row.delta)}</span> · {row.reason} ·{' '}
              {formatDateTime(row.createdAt)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
