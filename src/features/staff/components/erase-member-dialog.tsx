import { useId, useRef } from 'react';
import { toast } from 'sonner';
import { ConfirmFooter } from '@/components/ui/confirm-footer';
import { FormDialog, type InDialog } from '@/components/ui/dialog';
import { Field, Form, FormAlert, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { account } from '@/content/account';
import { checkReason } from '../lib/members';

const copy = account.erase;

export type EraseMemberDialogProps = {
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Erases the member; throws when the server refuses (a staff member, a mismatch). */
  onErase: (typedEmail: string, reason: string) => Promise<void>;
  /** After the erasure (the container closes the member). */
  onErased: () => void;
};

/**
 * Erase a member at their request: the member's e-mail typed again and a reason. The server
 * checks both again and refuses staff; its refusal is said inside the dialog. While the
 * erasure runs the dialog cannot be dismissed.
 */
export function EraseMemberDialog(props: EraseMemberDialogProps) {
  const { email, open, onOpenChange } = props;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={copy.title(email)}
      titleClassName="wrap-anywhere"
      description={copy.description}
    >
      {(dialog) => <EraseForm {...props} dialog={dialog} />}
    </FormDialog>
  );
}

function EraseForm({ email, onErase, onErased, dialog }: EraseMemberDialogProps & { dialog: InDialog }) {
  const id = useId();
  const emailField = useRef<HTMLInputElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const form = useForm(dialog.onBusyChange);
  const problems = form.fieldErrors;

  async function submit() {
    const typed = emailField.current?.value.trim() ?? '';
    const reason = reasonField.current?.value ?? '';
    const emailProblem = typed.toLowerCase() === email.toLowerCase() ? undefined : copy.emailMismatch;
    const reasonProblem = checkReason(reason) ?? undefined;
    form.setFieldErrors({ email: emailProblem, reason: reasonProblem });
    form.setError(null);
    if (emailProblem) return emailField.current?.focus();
    if (reasonProblem) return reasonField.current?.focus();
    if (!(await form.run('busy', () => onErase(typed, reason.trim())))) return;
    toast.success(copy.done(email));
    onErased();
  }

  return (
    <Form state={form} onSubmit={submit} noValidate className="flex flex-col gap-5">
      <Field id={`${id}-email`} label={copy.email} error={problems.email}>
        <Input ref={emailField} name="confirm-email" type="email" autoComplete="off" readOnly={form.isBusy} />
      </Field>
      <Field id={`${id}-reason`} label="Reason" error={problems.reason} hint={copy.reasonHint}>
        <Textarea ref={reasonField} name="reason" rows={3} readOnly={form.isBusy} />
      </Field>
      <FormAlert message={form.error} prefix="Nothing was erased: " />
      <ConfirmFooter busy={form.isBusy} idle={copy.submit} busyLabel={copy.busy} cancel={copy.cancel} />
    </Form>
  );
}
