import { toast } from 'sonner';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { tierLabel } from '@/content/tiers';
import type { ReadState } from '@/lib/read-state';
import {
  checkBenefitForm,
  COMMUNITY_BENEFITS,
  type BenefitFormData,
  type LiveOverview,
  type TimedBenefit,
} from '../lib/live';
import { Read } from './staff-read';

export type SaveTimedBenefit = (benefit: string, data: BenefitFormData) => Promise<void>;

const unsaved = 'Nothing was saved: check the fields marked below.';

/**
 * /staff/sessions' timed benefits: what each tier includes for a time, for how many days from
 * the purchase, and the private group's link, which the owner sets here.
 */
export function TimedBenefitsView({
  overview,
  onSave,
}: {
  overview: ReadState<LiveOverview>;
  onSave: SaveTimedBenefit;
}) {
  return (
    <section aria-labelledby="timed-benefits-title" className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="timed-benefits-title" className="text-navy-900 font-serif text-xl font-bold">
        Community and live benefits
      </h2>
      <p className="text-navy-800 mt-1 text-sm">
        What a bundle includes for a time, counted from the purchase. A new length counts for purchases from now on; a
        member&apos;s own end is changed on their page under Members. The community link is given only to members whose
        access lasts.
      </p>
      <div className="mt-4">
        <Read read={overview} what="the benefits">
          {(data) => (
            <div className="grid gap-4 md:grid-cols-2">
              {data.benefits.map((benefit) => (
                <BenefitForm key={`${benefit.benefit}-${benefit.updatedAt}`} benefit={benefit} onSave={onSave} />
              ))}
            </div>
          )}
        </Read>
      </div>
    </section>
  );
}

function BenefitForm({ benefit, onSave }: { benefit: TimedBenefit; onSave: SaveTimedBenefit }) {
  const form = useForm();
  const id = `timed-benefit-${benefit.benefit}`;
  const hasLink = COMMUNITY_BENEFITS.includes(benefit.benefit);

  async function submit(element: HTMLFormElement) {
    const values = new FormData(element);
    const checked = checkBenefitForm({
      length_days: String(values.get('length_days') ?? ''),
      // The sessions carry their own join links: a circle's or a call's link stays as it is.
      link: hasLink ? String(values.get('link') ?? '') : (benefit.link ?? ''),
    });
    if (!checked.ok) {
      form.setFieldErrors(checked.errors);
      form.setError(unsaved);
      return;
    }
    form.setFieldErrors({});
    await form.run('busy', async () => {
      await onSave(benefit.benefit, checked.data);
      toast.success(`${benefit.label} saved`);
    });
  }

  return (
    <Form
      state={form}
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="border-navy-100 flex flex-col gap-3 rounded-lg border p-4"
    >
      <div>
        <h3 id={`${id}-title`} className="text-navy-900 text-lg font-bold">
          {benefit.label}
        </h3>
        <p className="text-navy-800 text-sm">Included from {tierLabel(benefit.tier)}</p>
      </div>
      <FormAlert message={form.error} />
      <fieldset disabled={form.isBusy} className="flex flex-col gap-3">
        <Field id={`${id}-days`} label="Length in days" error={form.fieldErrors.length_days} hint="1 to 3650">
          <Input name="length_days" type="number" min={1} max={3650} step={1} defaultValue={benefit.lengthDays} />
        </Field>
        {hasLink ? (
          <Field
            id={`${id}-link`}
            label="Link"
            error={form.fieldErrors.link}
            hint="The private group's https:// link; empty: none yet"
          >
            <Input name="link" type="url" spellCheck={false} defaultValue={benefit.link ?? ''} />
          </Field>
        ) : (
          <p className="text-navy-800 text-sm">Each session has its own join link, set with the session.</p>
        )}
      </fieldset>
      <div>
        <SubmitButton busy={form.isBusy} label="Save" busyLabel="Saving..." variant="outline" size="sm" announce />
      </div>
    </Form>
  );
}
