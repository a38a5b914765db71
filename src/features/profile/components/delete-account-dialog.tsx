import { useId, useRef } from 'react';
import { ConfirmFooter } from '@/components/ui/confirm-footer';
import { FormDialog, type InDialog } from '@/components/ui/dialog';
import { Field, Form, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { account } from '@/content/account';

const copy = account.remove;

export type DeleteAccountDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
  /** Deletes the account after the password is checked server-side; throws when refused. */
  onDelete: (password: string) => Promise<void>;
  /** Called once the account is gone (the container signs out and says so). */
  onDeleted: () => void;
};

/**
 * Delete my account: what goes and what is kept, then the password. While the deletion runs
 * the dialog cannot be dismissed; a refusal (a wrong password) is said next to the field,
 * which keeps focus.
 */
export function DeleteAccountDialog({ onDelete, onDeleted, ...dialog }: DeleteAccountDialogProps) {
  return (
    <FormDialog {...dialog} title={copy.title} description={copy.description}>
      {(inDialog) => <DeleteAccountForm onDelete={onDelete} onDeleted={onDeleted} dialog={inDialog} />}
    </FormDialog>
  );
}

function DeleteAccountForm({
  onDelete,
  onDeleted,
  dialog,
}: Pick<DeleteAccountDialogProps, 'onDelete' | 'onDeleted'> & { dialog: InDialog }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const form = useForm(dialog.onBusyChange);
  const problem = form.fieldErrors.password;

  function showProblem(message: string) {
    form.setFieldErrors({ password: message });
    field.current?.focus();
  }

  async function submit() {
    const password = field.current?.value ?? '';
    if (!password) return showProblem(copy.passwordMissing);
    form.setFieldErrors({});
    if (await form.run('busy', () => onDelete(password), { onError: showProblem })) onDeleted();
  }

  return (
    <Form state={form} onSubmit={submit} noValidate className="flex flex-col gap-4">
      <p className="text-navy-900">{copy.goes}</p>
      <p className="text-navy-900">{copy.kept}</p>
      <Field id={`${id}-password`} label={copy.password} error={problem} hint={copy.passwordHint} alert>
        <Input
          ref={field}
          name="password"
          type="password"
          autoComplete="current-password"
          // Read-only, not disabled, while deleting: a refusal puts focus back at once.
          readOnly={form.isBusy}
        />
      </Field>
      <ConfirmFooter busy={form.isBusy} idle={copy.submit} busyLabel={copy.busy} cancel={copy.cancel} />
    </Form>
  );
}
