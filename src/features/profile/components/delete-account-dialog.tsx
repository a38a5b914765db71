import { useId, useRef, useState, type FormEvent } from 'react';
import { ConfirmFooter } from '@/components/ui/confirm-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { account } from '@/content/account';
import { errorMessage } from '@/lib/error-message';

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
 * Delete my account (issue 26): what goes and what is kept, then the password. While the
 * deletion runs the dialog cannot be dismissed; a refusal (a wrong password) is said next to
 * the field, which keeps focus.
 */
export function DeleteAccountDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
  onDelete,
  onDeleted,
}: DeleteAccountDialogProps) {
  const [busy, setBusy] = useState(false);
  const stayWhileBusy = (event: Event) => {
    if (busy) event.preventDefault();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next || !busy) && onOpenChange(next)}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        onEscapeKeyDown={stayWhileBusy}
        onInteractOutside={stayWhileBusy}
      >
        <DialogHeader>
          <DialogTitle>{copy.title}</DialogTitle>
          <DialogDescription>{copy.description}</DialogDescription>
        </DialogHeader>
        <DeleteAccountForm onDelete={onDelete} onDeleted={onDeleted} onBusyChange={setBusy} />
      </DialogContent>
    </Dialog>
  );
}

function DeleteAccountForm({
  onDelete,
  onDeleted,
  onBusyChange,
}: Pick<DeleteAccountDialogProps, 'onDelete' | 'onDeleted'> & { onBusyChange: (busy: boolean) => void }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusyState] = useState(false);

  function setBusy(next: boolean) {
    setBusyState(next);
    onBusyChange(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const password = field.current?.value ?? '';
    if (!password) {
      setProblem(copy.passwordMissing);
      field.current?.focus();
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      await onDelete(password);
    } catch (error) {
      setBusy(false);
      setProblem(errorMessage(error));
      field.current?.focus();
      return;
    }
    setBusy(false);
    onDeleted();
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy} className="flex flex-col gap-4">
      <p className="text-navy-900">{copy.goes}</p>
      <p className="text-navy-900">{copy.kept}</p>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-password`}>{copy.password}</Label>
        <Input
          ref={field}
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          // Read-only, not disabled, while deleting: a refusal puts focus back at once.
          readOnly={busy}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error ${id}-hint` : `${id}-hint`}
        />
        {problem && (
          <p id={`${id}-error`} role="alert" className="text-sm font-semibold text-red-700">
            {problem}
          </p>
        )}
        <p id={`${id}-hint`} className="text-xs text-slate-700">
          {copy.passwordHint}
        </p>
      </div>
      <ConfirmFooter busy={busy} idle={copy.submit} busyLabel={copy.busy} cancel={copy.cancel} />
    </form>
  );
}
