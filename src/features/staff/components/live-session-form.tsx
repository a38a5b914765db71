import { useEffect, useRef, type RefObject } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import {
  checkSessionForm,
  SESSION_BENEFITS,
  sessionBenefitLabels,
  sessionFieldMessages,
  toLocalInput,
  type SessionFormData,
  type SessionFormValues,
  type StaffLiveSession,
} from '../lib/live';
import { NativeSelect } from './live-parts';

export type SaveLiveSession = (id: string | null, data: SessionFormData) => Promise<void>;

const DEFAULT_MINUTES = 120;
const unsaved = 'Nothing was saved: check the fields marked below.';

/**
 * Schedules a session, or changes the one being edited (its fields filled in; the start shown in
 * the staff member's wall time, which is how it is read back). Mounted per session edited.
 */
export function LiveSessionForm({
  editing,
  onSave,
  onDone,
  zone,
}: {
  editing: StaffLiveSession | null;
  onSave: SaveLiveSession;
  /** The edit is saved or dropped: the form goes back to scheduling a new session. */
  onDone: () => void;
  /** The zone the start is typed in, named for the hint. */
  zone: string;
}) {
  const form = useForm();
  const title = useRef<HTMLInputElement>(null);
  const id = editing ? `live-session-${editing.id}` : 'live-session-new';

  // Edit was pressed further down the list: the form it fills is where the keyboard goes next.
  useEffect(() => {
    if (editing) title.current?.focus();
  }, [editing]);

  async function submit(element: HTMLFormElement) {
    const checked = checkSessionForm(readFields(element));
    if (!checked.ok) {
      form.setFieldErrors(checked.errors);
      form.setError(unsaved);
      return;
    }
    form.setFieldErrors({});
    await form.run('busy', async () => {
      await onSave(editing?.id ?? null, checked.data);
      toast.success(editing ? 'Changes saved' : 'Session scheduled', { description: checked.data.title });
      if (editing) onDone();
      else element.reset();
    });
  }

  const heading = editing ? 'Change a session' : 'Schedule a session';
  return (
    <Form
      state={form}
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="border-navy-100 flex flex-col gap-4 rounded-lg border p-4"
    >
      <h3 id={`${id}-title`} className="text-navy-900 text-lg font-bold">
        {heading}
      </h3>
      {editing && (
        <p className="text-navy-800 text-sm">
          A new start time is e-mailed to the members who hold the session; their reminders follow it.
        </p>
      )}
      <FormAlert message={form.error} />
      <SessionFields id={id} editing={editing} errors={form.fieldErrors} busy={form.isBusy} zone={zone} title={title} />
      <div className="flex flex-wrap gap-3">
        <SubmitButton
          busy={form.isBusy}
          label={editing ? 'Save changes' : 'Schedule session'}
          busyLabel="Saving..."
          announce
        />
        {editing && (
          <Button variant="outline" onClick={onDone} disabled={form.isBusy}>
            Stop editing
          </Button>
        )}
      </div>
    </Form>
  );
}

/** What the form holds, field by field, as typed. */
function readFields(element: HTMLFormElement): SessionFormValues {
  const values = new FormData(element);
  const fields = Object.keys(sessionFieldMessages) as (keyof SessionFormValues)[];
  return Object.fromEntries(fields.map((field) => [field, String(values.get(field) ?? '')])) as SessionFormValues;
}

function SessionFields({
  id,
  editing,
  errors,
  busy,
  zone,
  title,
}: {
  id: string;
  editing: StaffLiveSession | null;
  errors: Partial<Record<string, string>>;
  busy: boolean;
  zone: string;
  title: RefObject<HTMLInputElement | null>;
}) {
  return (
    <fieldset disabled={busy} className="grid gap-4 sm:grid-cols-2">
      <Field id={`${id}-benefit`} label="Kind of session" error={errors.benefit} hint="Who can join: its holders">
        <NativeSelect name="benefit" defaultValue={editing?.benefit ?? 'circle'}>
          {SESSION_BENEFITS.map((benefit) => (
            <option key={benefit} value={benefit}>
              {sessionBenefitLabels[benefit]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id={`${id}-name`} label="Title" error={errors.title}>
        <Input ref={title} name="title" maxLength={200} defaultValue={editing?.title ?? ''} autoComplete="off" />
      </Field>
      <Field id={`${id}-starts`} label="Starts" error={errors.starts_at} hint={`In your time zone (${zone})`}>
        <Input name="starts_at" type="datetime-local" defaultValue={editing ? toLocalInput(editing.startsAt) : ''} />
      </Field>
      <Field id={`${id}-minutes`} label="Length in minutes" error={errors.minutes} hint="5 to 600">
        <Input
          name="minutes"
          type="number"
          min={5}
          max={600}
          step={5}
          defaultValue={editing?.minutes ?? DEFAULT_MINUTES}
        />
      </Field>
      <Field
        id={`${id}-join`}
        label="Join link"
        error={errors.join_url}
        hint="The https:// video call link; members get it from 15 minutes before the start"
      >
        <Input name="join_url" type="url" spellCheck={false} defaultValue={editing?.joinUrl ?? ''} />
      </Field>
      <Field
        id={`${id}-recording`}
        label="Recording (optional)"
        error={errors.recording_path}
        hint="Once uploaded: its file in the resources, like complete/qa-calls/2027-01-12.mp3"
      >
        <Input name="recording_path" spellCheck={false} defaultValue={editing?.recordingPath ?? ''} />
      </Field>
      <div className="sm:col-span-2">
        <Field id={`${id}-description`} label="Description" error={errors.description} hint="Optional; members read it">
          <Textarea name="description" rows={3} maxLength={5000} defaultValue={editing?.description ?? ''} />
        </Field>
      </div>
    </fieldset>
  );
}
