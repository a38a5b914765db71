import { useState } from 'react';
import { toast } from 'sonner';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import type { ReadState } from '@/lib/read-state';
import {
  accessText,
  actionLabel,
  checkBenefitChange,
  formatDay,
  formatWhen,
  type BenefitAction,
  type BenefitChange,
  type BenefitChangeData,
  type MemberBenefit,
  type MemberBenefits,
} from '../lib/live';
import { NativeSelect } from './live-parts';
import { Read } from './staff-read';

export type MemberBenefitsViewProps = {
  email: string;
  benefits: ReadState<MemberBenefits>;
  /** Extends or ends one of their benefits; answers its new end; throws when refused. */
  onChange: (change: BenefitChangeData) => Promise<string>;
  /** The zone dates are shown in (tests); the staff member's own by default. */
  timeZone?: string;
};

/**
 * A chosen member's access with an end date (the community, the circle, the calls): until when
 * each lasts, staff's way to extend or end one with a reason, and every change of it.
 */
export function MemberBenefitsView({ benefits, ...props }: MemberBenefitsViewProps) {
  return (
    <section
      aria-labelledby="member-benefits-title"
      className="border-navy-100 rounded-xl border bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="member-benefits-title" className="text-navy-900 font-serif text-xl font-bold">
        Access with an end date
      </h2>
      <div className="mt-2">
        <Read read={benefits} what="their access">
          {(data) => <BenefitsBody data={data} {...props} />}
        </Read>
      </div>
    </section>
  );
}

function BenefitsBody({
  data,
  email,
  onChange,
  timeZone,
}: { data: MemberBenefits } & Omit<MemberBenefitsViewProps, 'benefits'>) {
  const labels = new Map(data.benefits.map((benefit) => [benefit.benefit, benefit.label]));
  return (
    <div className="flex flex-col gap-5">
      {data.benefits.length === 0 ? (
        <p className="text-navy-800 text-sm">
          None: their bundle includes no community or live sessions, or they have no bundle. A grant of a tier that
          includes some gives them from then.
        </p>
      ) : (
        <>
          <ul aria-label="Their access" className="flex flex-col gap-1">
            {data.benefits.map((benefit) => (
              <li key={benefit.benefit} className="text-navy-900">
                <span className="font-semibold">{benefit.label}:</span> {accessText(benefit, timeZone)}
              </li>
            ))}
          </ul>
          <ChangeForm email={email} benefits={data.benefits} onChange={onChange} timeZone={timeZone} />
        </>
      )}
      <Changes rows={data.audit} labels={labels} timeZone={timeZone} />
    </div>
  );
}

function ChangeForm({
  email,
  benefits,
  onChange,
  timeZone,
}: { benefits: MemberBenefit[] } & Omit<MemberBenefitsViewProps, 'benefits'>) {
  const form = useForm();
  const [action, setAction] = useState<BenefitAction>('extend');

  async function submit(element: HTMLFormElement) {
    const values = new FormData(element);
    const text = (field: string) => String(values.get(field) ?? '');
    const checked = checkBenefitChange({
      benefit: text('benefit'),
      action,
      days: text('days'),
      reason: text('reason'),
    });
    if (!checked.ok) {
      form.setFieldErrors(checked.errors);
      return;
    }
    form.setFieldErrors({});
    const label = benefits.find((benefit) => benefit.benefit === checked.data.benefit)?.label ?? checked.data.benefit;
    await form.run('busy', async () => {
      sayChanged(label, email, checked.data.action, await onChange(checked.data), timeZone);
      element.reset();
      setAction('extend');
    });
  }

  return (
    <Form
      state={form}
      onSubmit={submit}
      noValidate
      aria-labelledby="change-access-title"
      className="flex flex-col gap-3"
    >
      <h3 id="change-access-title" className="text-navy-900 text-lg font-bold">
        Extend or end their access
      </h3>
      <FormAlert message={form.error} />
      <fieldset disabled={form.isBusy} className="grid gap-3 sm:grid-cols-2">
        <Field id="change-access-benefit" label="Access" error={form.fieldErrors.benefit}>
          <NativeSelect name="benefit" defaultValue={benefits[0]?.benefit}>
            {benefits.map((benefit) => (
              <option key={benefit.benefit} value={benefit.benefit}>
                {benefit.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <ActionChoice onAction={setAction} />
        <Field
          id="change-access-days"
          label="Days to extend by"
          error={form.fieldErrors.days}
          hint="From its end, or from today when it has ended (1 to 3650)"
        >
          <Input name="days" type="number" min={1} max={3650} step={1} disabled={action === 'end'} />
        </Field>
        <Field id="change-access-reason" label="Reason" error={form.fieldErrors.reason} hint="Kept with the change">
          <Input name="reason" maxLength={500} autoComplete="off" />
        </Field>
      </fieldset>
      <div>
        <SubmitButton
          busy={form.isBusy}
          label={action === 'extend' ? 'Extend access' : 'End access now'}
          busyLabel="Saving..."
          variant={action === 'extend' ? 'outline' : 'destructive'}
          size="sm"
          announce
        />
      </div>
    </Form>
  );
}

function sayChanged(label: string, email: string, action: BenefitAction, ends: string, timeZone?: string) {
  toast.success(`${label} ${action === 'extend' ? 'extended' : 'ended'} for ${email}`, {
    description: action === 'extend' ? `Until ${formatDay(ends, timeZone)}.` : undefined,
  });
}

/** Extend, or end now: the days field is for extending only. */
function ActionChoice({ onAction }: { onAction: (action: BenefitAction) => void }) {
  const choices: { value: BenefitAction; label: string }[] = [
    { value: 'extend', label: 'Extend' },
    { value: 'end', label: 'End now' },
  ];
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="text-navy-900 text-sm font-semibold">Change</legend>
      <div className="flex min-h-11 flex-wrap items-center gap-4">
        {choices.map((choice) => (
          <label key={choice.value} className="text-navy-900 inline-flex items-center gap-2">
            <input
              type="radio"
              name="action"
              value={choice.value}
              // Uncontrolled, so the form's reset after a change brings back Extend with the rest.
              defaultChecked={choice.value === 'extend'}
              onChange={() => onAction(choice.value)}
              className="size-4"
            />
            {choice.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Every grant, extension and end of their benefits, newest first: what, the end before and after, why, who. */
function Changes({
  rows,
  labels,
  timeZone,
}: {
  rows: readonly BenefitChange[];
  labels: ReadonlyMap<string, string>;
  timeZone: string | undefined;
}) {
  return (
    <div>
      <h3 className="text-navy-900 text-lg font-bold">Changes</h3>
      {rows.length === 0 ? (
        <p className="text-navy-800 text-sm">None yet.</p>
      ) : (
        <ol aria-label="Changes to their access" className="mt-2 flex flex-col gap-1">
          {rows.map((row, index) => (
            <li key={`${row.changedAt}-${index}`} className="text-navy-800 text-sm wrap-anywhere">
              <span className="text-navy-900 font-semibold">{actionLabel(row.action)}</span> ·{' '}
              {labels.get(row.benefit) ?? row.benefit} · {formatDay(row.oldEndsAt, timeZone)} →{' '}
              {formatDay(row.newEndsAt, timeZone)}
              {row.reason ? ` · ${row.reason}` : ''} · by {row.changedBy ?? 'the site'} ·{' '}
              {formatWhen(row.changedAt, timeZone)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
