import { toast } from 'sonner';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { tierLabel, type Tier } from '@/content/tiers';
import type { ReadState } from '@/lib/read-state';
import {
  checkCoachingForm,
  refusedCoachingField,
  type CoachingAllowance,
  type CoachingFormData,
} from '../lib/coaching';
import { Read } from './staff-read';

export type SaveCoaching = (tier: Tier, data: CoachingFormData) => Promise<void>;

const unsaved = 'Nothing was saved: check the fields marked below.';

/**
 * /staff/catalog: each bundle's one-to-one coaching (how many sessions, how long, and the
 * booking page members book them on), checked as the table checks it; a refusal by the
 * database lands at the field it names, in words.
 */
export function CoachingCatalogView({
  allowances,
  names,
  onSave,
}: {
  allowances: ReadState<CoachingAllowance[]>;
  /** Each tier's product name, as the catalog calls it. */
  names: Partial<Record<Tier, string>>;
  onSave: SaveCoaching;
}) {
  return (
    <section aria-labelledby="coaching-title" className="flex flex-col gap-4">
      <div>
        <h2 id="coaching-title" className="text-navy-900 text-xl font-semibold">
          Coaching
        </h2>
        <p className="text-navy-800 mt-1">
          The one-to-one sessions each bundle includes, their length, and the booking page (Cal.com or Calendly) members
          book them on. Members see a change at once; sessions already booked stay.
        </p>
      </div>
      <Read read={allowances} what="the coaching">
        {(rows) =>
          rows.map((row) => (
            <div key={`${row.tier}-${row.updatedAt}`} className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
              <CoachingForm allowance={row} name={names[row.tier] ?? tierLabel(row.tier)} onSave={onSave} />
            </div>
          ))
        }
      </Read>
    </section>
  );
}

function CoachingForm({
  allowance,
  name,
  onSave,
}: {
  allowance: CoachingAllowance;
  name: string;
  onSave: SaveCoaching;
}) {
  const form = useForm();
  const id = `coaching-${allowance.tier}`;

  async function submit(element: HTMLFormElement) {
    const values = new FormData(element);
    const text = (field: string) => String(values.get(field) ?? '');
    const checked = checkCoachingForm({
      sessions: text('sessions'),
      minutes: text('minutes'),
      booking_url: text('booking_url'),
    });
    if (!checked.ok) {
      form.setFieldErrors(checked.errors);
      form.setError(unsaved);
      return;
    }
    form.setFieldErrors({});
    await form.run('busy', async () => {
      try {
        await onSave(allowance.tier, checked.data);
        toast.success(`Coaching for ${name} saved`);
      } catch (caught) {
        const field = refusedCoachingField(caught);
        if (!field) throw caught;
        form.setFieldErrors({ [field]: caught instanceof Error ? caught.message : String(caught) });
        throw new Error(unsaved);
      }
    });
  }

  return (
    <Form state={form} onSubmit={submit} noValidate aria-label={`Coaching for ${name}`} className="flex flex-col gap-4">
      <h3 className="text-navy-900 text-lg font-semibold">{name}</h3>
      <FormAlert message={form.error} />
      <fieldset disabled={form.isBusy} className="grid gap-4 sm:grid-cols-3">
        <Field id={`${id}-sessions`} label="Sessions" error={form.fieldErrors.sessions} hint="0 to 100; 0: none">
          <Input name="sessions" type="number" min={0} max={100} step={1} defaultValue={allowance.sessions} />
        </Field>
        <Field id={`${id}-minutes`} label="Minutes each" error={form.fieldErrors.minutes} hint="15 to 480">
          <Input name="minutes" type="number" min={15} max={480} step={1} defaultValue={allowance.minutes} />
        </Field>
        <Field
          id={`${id}-booking-url`}
          label="Booking page"
          error={form.fieldErrors.booking_url}
          hint="An https:// link to the Cal.com or Calendly page; empty: members can't book yet"
        >
          <Input name="booking_url" type="url" defaultValue={allowance.bookingUrl ?? ''} spellCheck={false} />
        </Field>
      </fieldset>
      <div>
        <SubmitButton busy={form.isBusy} label={`Save coaching for ${name}`} busyLabel="Saving..." announce />
      </div>
    </Form>
  );
}
