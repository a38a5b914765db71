import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmFooter } from '@/components/ui/confirm-footer';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { account } from '@/content/account';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/error-message';
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
 * Erase a member at their request (issue 26): the member's e-mail typed again and a reason.
 * The server checks both again and refuses staff; its refusal is said inside the dialog.
 * While the erasure runs the dialog cannot be dismissed.
 */
export function EraseMemberDialog({ email, open, onOpenChange, onErase, onErased }: EraseMemberDialogProps) {
  const [busy, setBusy] = useState(false);
  const stayWhileBusy = (event: Event) => {
    if (busy) event.preventDefault();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next || !busy) && onOpenChange(next)}>
      <DialogContent onEscapeKeyDown={stayWhileBusy} onInteractOutside={stayWhileBusy}>
        <DialogHeader>
          <DialogTitle className="wrap-anywhere">{copy.title(email)}</DialogTitle>
          <DialogDescription>{copy.description}</DialogDescription>
        </DialogHeader>
        <EraseForm email={email} onErase={onErase} onErased={onErased} onBusyChange={setBusy} />
      </DialogContent>
    </Dialog>
  );
}

const fieldClass = (problem: string | null) =>
  cn(
    'text-navy-900 block w-full rounded-lg border bg-white px-3 py-2 text-base',
    problem ? 'border-red-700' : 'border-navy-600/60',
    'focus-visible:border-navy-800 focus-visible:outline-gold-500 focus-visible:outline-2 focus-visible:outline-offset-1',
  );

function EraseForm({
  email,
  onErase,
  onErased,
  onBusyChange,
}: Pick<EraseMemberDialogProps, 'email' | 'onErase' | 'onErased'> & { onBusyChange: (busy: boolean) => void }) {
  const id = useId();
  const emailField = useRef<HTMLInputElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const [emailProblem, setEmailProblem] = useState<string | null>(null);
  const [reasonProblem, setReasonProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusyState] = useState(false);

  function setBusy(next: boolean) {
    setBusyState(next);
    onBusyChange(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const typed = emailField.current?.value.trim() ?? '';
    const reason = reasonField.current?.value ?? '';
    const nextEmailProblem = typed.toLowerCase() === email.toLowerCase() ? null : copy.emailMismatch;
    const nextReasonProblem = checkReason(reason);
    setEmailProblem(nextEmailProblem);
    setReasonProblem(nextReasonProblem);
    setFailure(null);
    if (nextEmailProblem) return emailField.current?.focus();
    if (nextReasonProblem) return reasonField.current?.focus();
    setBusy(true);
    try {
      await onErase(typed, reason.trim());
    } catch (error) {
      setBusy(false);
      setFailure(errorMessage(error));
      return;
    }
    setBusy(false);
    toast.success(copy.done(email));
    onErased();
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy} className="flex flex-col gap-5">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-email`}>{copy.email}</Label>
        <Input
          ref={emailField}
          id={`${id}-email`}
          name="confirm-email"
          type="email"
          autoComplete="off"
          readOnly={busy}
          aria-invalid={emailProblem ? true : undefined}
          aria-describedby={emailProblem ? `${id}-email-error` : undefined}
        />
        {emailProblem && (
          <p id={`${id}-email-error`} className="text-sm font-semibold text-red-700">
            {emailProblem}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-reason`}>Reason</Label>
        <textarea
          ref={reasonField}
          id={`${id}-reason`}
          name="reason"
          rows={3}
          readOnly={busy}
          aria-invalid={reasonProblem ? true : undefined}
          aria-describedby={reasonProblem ? `${id}-reason-error ${id}-reason-hint` : `${id}-reason-hint`}
          className={fieldClass(reasonProblem)}
        />
        {reasonProblem && (
          <p id={`${id}-reason-error`} className="text-sm font-semibold text-red-700">
            {reasonProblem}
          </p>
        )}
        <p id={`${id}-reason-hint`} className="text-xs text-slate-700">
          {copy.reasonHint}
        </p>
      </div>
      {failure && (
        <p role="alert" className="rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-800">
          Nothing was erased: {failure}
        </p>
      )}
      <ConfirmFooter busy={busy} idle={copy.submit} busyLabel={copy.busy} cancel={copy.cancel} />
    </form>
  );
}
