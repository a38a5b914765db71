import { useId, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ConfirmFooter } from '@/components/ui/confirm-footer';
import { FormDialog, type InDialog } from '@/components/ui/dialog';
import { Field, Form, FormAlert, useForm } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { tierLabel, tiers, type Tier } from '@/content/tiers';
import { checkReason } from '../lib/members';

type DialogProps = {
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * A tier change in a dialog: while the change is saving the dialog stays open, so closing it
 * never pretends to undo a write already under way; a refused change is said inside the
 * dialog, next to the reason, and the reason typed is kept. Mounted per opening: each change
 * starts with an empty reason.
 */
function ReasonForm({
  save,
  onSaved,
  dialog,
  submit,
  variant,
  children,
}: {
  /** Saves the change with the checked reason; throws when the database refuses it. */
  save: (reason: string) => Promise<void>;
  onSaved: () => void;
  dialog: InDialog;
  submit: string;
  variant: 'gold' | 'destructive';
  /** Fields before the reason, given whether the form is busy. */
  children?: (busy: boolean) => ReactNode;
}) {
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const form = useForm(dialog.onBusyChange);
  const problem = form.fieldErrors.reason;

  async function handleSubmit() {
    const reasonProblem = checkReason(reason) ?? undefined;
    form.setFieldErrors({ reason: reasonProblem });
    form.setError(null);
    if (reasonProblem) return field.current?.focus();
    if (await form.run('busy', () => save(reason.trim()))) onSaved();
  }

  return (
    <Form state={form} onSubmit={handleSubmit} noValidate className="flex flex-col gap-5">
      {children?.(form.isBusy)}
      <Field
        id={`${id}-reason`}
        label="Reason"
        error={problem}
        hint="Required. Kept in the member's history with your name and the time; up to 500 characters."
      >
        <Textarea
          ref={field}
          name="reason"
          rows={3}
          value={reason}
          disabled={form.isBusy}
          onChange={(event) => {
            setReason(event.target.value);
            if (problem) form.setFieldErrors({ reason: checkReason(event.target.value) ?? undefined });
          }}
        />
      </Field>
      <FormAlert message={form.error} prefix="Nothing was changed: " />
      <ConfirmFooter busy={form.isBusy} idle={submit} busyLabel="Saving..." variant={variant} />
    </Form>
  );
}

export type GrantTierDialogProps = DialogProps & {
  /** The member's tier now, to start the choice from. */
  currentTier: Tier | null;
  /** Saves the grant; throws when the database refuses it. */
  onGrant: (tier: Tier, reason: string) => Promise<void>;
};

export function GrantTierDialog({ email, open, onOpenChange, currentTier, onGrant }: GrantTierDialogProps) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Grant a tier to ${email}`}
      titleClassName="wrap-anywhere"
      description="Replaces any staff grant they hold now. Their tier is the highest of this grant and their paid purchases."
    >
      {(dialog) => <GrantForm email={email} currentTier={currentTier} onGrant={onGrant} dialog={dialog} />}
    </FormDialog>
  );
}

function GrantForm({
  email,
  currentTier,
  onGrant,
  dialog,
}: Pick<GrantTierDialogProps, 'email' | 'currentTier' | 'onGrant'> & { dialog: InDialog }) {
  const id = useId();
  const [tier, setTier] = useState<Tier>(currentTier ?? 'ebook');
  return (
    <ReasonForm
      save={(reason) => onGrant(tier, reason)}
      onSaved={() => {
        toast.success('Tier granted', { description: `${email} now has ${tierLabel(tier)} through a staff grant.` });
        dialog.close();
      }}
      dialog={dialog}
      submit="Grant tier"
      variant="gold"
    >
      {(busy) => (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-tier`}>Tier</Label>
          <select
            id={`${id}-tier`}
            value={tier}
            disabled={busy}
            onChange={(event) => setTier(event.target.value as Tier)}
            className="border-navy-600/60 text-navy-900 min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base disabled:opacity-70"
          >
            {tiers.map((option) => (
              <option key={option} value={option}>
                {tierLabel(option)}
              </option>
            ))}
          </select>
        </div>
      )}
    </ReasonForm>
  );
}

export type RevokeGrantDialogProps = DialogProps & {
  /** The grant in force, as "Complete Transformation". */
  grantLabel: string;
  /** Revokes the member's staff grant; throws when the database refuses it. */
  onRevoke: (reason: string) => Promise<void>;
};

export function RevokeGrantDialog({ email, open, onOpenChange, grantLabel, onRevoke }: RevokeGrantDialogProps) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Revoke the staff grant of ${email}`}
      titleClassName="wrap-anywhere"
      description={`Ends their ${grantLabel} staff grant. They keep what their paid purchases give them.`}
    >
      {(dialog) => (
        <ReasonForm
          save={onRevoke}
          onSaved={() => {
            toast.success('Staff grant revoked', { description: `${email} keeps only what their purchases give.` });
            dialog.close();
          }}
          dialog={dialog}
          submit="Revoke grant"
          variant="destructive"
        />
      )}
    </FormDialog>
  );
}
