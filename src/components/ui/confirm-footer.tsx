import { Button, type ButtonVariant } from './button';
import { DialogClose, DialogFooter } from './dialog';

/**
 * A dialog form's footer: Cancel (closes, off while busy) and the submit button, which shows a
 * spinner and its busy words while the work runs (aria-disabled, so it keeps focus).
 */
export function ConfirmFooter({
  busy,
  idle,
  busyLabel,
  cancel,
  variant = 'destructive',
}: {
  busy: boolean;
  idle: string;
  busyLabel: string;
  cancel: string;
  variant?: ButtonVariant;
}) {
  return (
    <DialogFooter spacing="tight">
      <DialogClose asChild>
        <Button variant="outline" disabled={busy}>
          {cancel}
        </Button>
      </DialogClose>
      <Button type="submit" variant={variant} aria-disabled={busy || undefined}>
        {busy && (
          <span
            aria-hidden="true"
            className="inline-block size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
          />
        )}
        {busy ? busyLabel : idle}
      </Button>
    </DialogFooter>
  );
}
