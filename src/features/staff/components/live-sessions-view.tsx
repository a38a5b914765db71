import { useId, useState } from 'react';
import { toast } from 'sonner';
import { NewTabLink } from '@/components/new-tab-link';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import { holdersText, isOver, sessionWhen, type LiveOverview, type StaffLiveSession } from '../lib/live';
import { ButtonSpinner } from './live-parts';
import { LiveSessionForm, type SaveLiveSession } from './live-session-form';
import { Read } from './staff-read';

export type LiveSessionsViewProps = {
  overview: ReadState<LiveOverview>;
  /** Creates (id null) or changes a session; throws when the database refuses. */
  onSave: SaveLiveSession;
  /** Cancels a session (its holders are mailed); throws when the database refuses. */
  onCancel: (id: string) => Promise<void>;
  /** The time sessions are judged over at (tests); now by default. */
  now?: Date;
  /** The zone times are shown in (tests); the staff member's own by default. */
  timeZone?: string;
};

/** The zone times are shown in, named: the browser's own unless given. */
function zoneName(timeZone: string | undefined): string {
  return timeZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * /staff/sessions' live sessions: the form that schedules a circle or a Q&A call (or changes
 * one), and every session from 30 days back with its join link, who holds it, and the way to
 * change or cancel it.
 */
export function LiveSessionsView({ overview, onSave, onCancel, now = new Date(), timeZone }: LiveSessionsViewProps) {
  const [editing, setEditing] = useState<StaffLiveSession | null>(null);
  return (
    <section aria-labelledby="live-sessions-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="live-sessions-title" className="text-navy-900 font-serif text-xl font-bold">
        Live sessions
      </h2>
      <p className="text-navy-800 mt-1 text-sm">
        The group coaching circles and live Q&amp;A calls. Members who hold the session&apos;s benefit see it, get
        reminders a day and an hour before, and get the join link from 15 minutes before the start.
      </p>
      <div className="mt-4 flex flex-col gap-5">
        <LiveSessionForm
          key={editing?.id ?? 'new'}
          editing={editing}
          onSave={onSave}
          onDone={() => setEditing(null)}
          zone={zoneName(timeZone)}
        />
        <Read read={overview} what="the live sessions">
          {(data) =>
            data.sessions.length === 0 ? (
              <p className="text-navy-800 text-sm">No session in the last 30 days or to come.</p>
            ) : (
              <ul aria-label="Live sessions from 30 days back" className="flex flex-col gap-3">
                {data.sessions.map((session) => (
                  <SessionItem
                    key={session.id}
                    session={session}
                    editing={editing?.id === session.id}
                    onEdit={() => setEditing(session)}
                    onCancel={onCancel}
                    now={now}
                    timeZone={timeZone}
                  />
                ))}
              </ul>
            )
          }
        </Read>
      </div>
    </section>
  );
}

const mark = 'ml-2 inline-block rounded px-2 py-0.5 text-xs font-semibold align-middle';

function SessionItem({
  session,
  editing,
  onEdit,
  onCancel,
  now,
  timeZone,
}: {
  session: StaffLiveSession;
  editing: boolean;
  onEdit: () => void;
  onCancel: (id: string) => Promise<void>;
  now: Date;
  timeZone: string | undefined;
}) {
  const titleId = useId();
  const over = isOver(session, now);
  return (
    <li className="border-navy-100 flex flex-col gap-2 rounded-lg border p-3">
      <p className="text-navy-900 font-semibold wrap-anywhere">
        <span id={titleId}>{session.title}</span>
        {session.cancelledAt && <span className={`${mark} bg-slate-100 text-slate-800`}>Cancelled</span>}
        {!session.cancelledAt && over && <span className={`${mark} bg-slate-100 text-slate-800`}>Over</span>}
        {editing && <span className={`${mark} bg-gold-300 text-navy-900`}>Editing</span>}
      </p>
      <p className="text-navy-800 text-sm">
        {session.label} · {sessionWhen(session, timeZone)} · {session.minutes} minutes
      </p>
      <p className="text-navy-800 text-sm break-all">
        Join link:{' '}
        <NewTabLink href={session.joinUrl} className="text-navy-900 font-semibold underline underline-offset-2">
          {session.joinUrl}
        </NewTabLink>
      </p>
      {session.recordingPath && <p className="text-navy-800 text-sm break-all">Recording: {session.recordingPath}</p>}
      {session.description && <p className="text-navy-800 text-sm whitespace-pre-line">{session.description}</p>}
      <Holders emails={session.holders} />
      {!session.cancelledAt && (
        <SessionActions
          session={session}
          titleId={titleId}
          over={over}
          editing={editing}
          onEdit={onEdit}
          onCancel={onCancel}
        />
      )}
    </li>
  );
}

/** How many members hold the session, and who, folded: a circle may have hundreds. */
function Holders({ emails }: { emails: readonly string[] }) {
  if (emails.length === 0) return <p className="text-navy-800 text-sm">{holdersText(0)}</p>;
  return (
    <details className="text-navy-800 text-sm">
      <summary className="cursor-pointer font-medium">{holdersText(emails.length)}</summary>
      <ul aria-label="Members who hold it" className="mt-1 flex flex-col gap-0.5 pl-4">
        {emails.map((email) => (
          <li key={email} className="break-all">
            {email}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * Edit, and Cancel session with a confirm step: a cancel mails every holder, so one click must
 * not do it. The buttons are named by their action and described by the session's title.
 */
function SessionActions({
  session,
  titleId,
  over,
  editing,
  onEdit,
  onCancel,
}: {
  session: StaffLiveSession;
  titleId: string;
  over: boolean;
  editing: boolean;
  onEdit: () => void;
  onCancel: (id: string) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function cancel() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onCancel(session.id);
      toast.success('Session cancelled', { description: session.title });
      // The overview is read again by now: the item shows "Cancelled" without its buttons.
      setConfirming(false);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  if (!confirming) {
    return (
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" aria-describedby={titleId} onClick={onEdit} disabled={editing}>
          Edit
        </Button>
        <Button variant="outline" size="sm" aria-describedby={titleId} onClick={() => setConfirming(true)}>
          Cancel session
        </Button>
      </div>
    );
  }
  const confirmId = `${titleId}-confirm`;
  return (
    <div role="group" aria-labelledby={confirmId} className="flex flex-col gap-2 rounded-lg bg-red-50 p-3">
      <p id={confirmId} className="text-sm font-semibold text-red-900">
        Cancel “{session.title}”?{' '}
        {over ? 'It is over: nobody is e-mailed.' : 'Each member who holds it is e-mailed that it is cancelled.'}
      </p>
      <FormAlert message={error} prefix="Not cancelled: " />
      <div className="flex flex-wrap gap-2">
        <Button variant="destructive" size="sm" disabled={busy} onClick={() => void cancel()}>
          {busy && <ButtonSpinner />}
          {busy ? 'Cancelling...' : 'Yes, cancel it'}
        </Button>
        <Button variant="outline" size="sm" disabled={busy} onClick={() => setConfirming(false)}>
          Keep it
        </Button>
      </div>
    </div>
  );
}
