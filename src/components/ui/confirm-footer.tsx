import { Button, type ButtonVariant } from './button';
import { DialogClose, DialogFooter } from './dialog';
import { SubmitButton } from './form';

/**
 * A dialog form's footer: Cancel (closes, off while busy) and the submit button, which shows
 * its busy words while the work runs. `keepFocus` (the default): the busy button is
 * aria-disabled with a spinner, so it keeps focus; otherwise it is disabled.
 */
export function ConfirmFooter({
  busy,
  idle,
  busyLabel,
  cancel = 'Cancel',
  variant = 'destructive',
  keepFocus = true,
}: {
  busy: boolean;
  idle: string;
  busyLabel: string;
  cancel?: string;
  variant?: ButtonVariant;
  keepFocus?: boolean;
}) {
  return (
    <DialogFooter spacing="tight">
      <DialogClose asChild>
        <Button variant="outline" disabled={busy}>
          {cancel}
        </Button>
      </DialogClose>
      {keepFocus ? (
        <Button type="submit" variant={variant} aria-disabled={busy || undefined}>
          {busy && (
            <span
              aria-hidden="true"
              className="inline-block size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
            />
          )}
          {busy ? busyLabel : idle}
        </Button>
      ) : (
        <SubmitButton busy={busy} label={idle} busyLabel={busyLabel} variant={variant} />
      )}
    </DialogFooter>
  );
}
