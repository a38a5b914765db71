import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useState, type ComponentProps, type HTMLAttributes, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** Radix Dialog: focus trap, Escape to close, focus returned, title/description wired up. */
export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export function DialogContent({ className, children, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="bg-navy-900/60 fixed inset-0 z-50" />
      <DialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto',
          'text-navy-900 rounded-xl bg-white p-5 shadow-xl focus:outline-none sm:p-6',
          className,
        )}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          className="text-navy-800 hover:bg-navy-50 absolute top-3 right-3 inline-flex size-9 items-center justify-center rounded-md"
          aria-label="Close"
        >
          <span aria-hidden="true" className="text-xl leading-none">
            ×
          </span>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('mb-4 flex flex-col gap-1 pr-8', className)} {...props} />;
}

/** `spacing="tight"`: the footer of a form that already spaces its own fields (mt-1, not mt-6). */
export function DialogFooter({
  className,
  spacing = 'default',
  ...props
}: HTMLAttributes<HTMLDivElement> & { spacing?: 'default' | 'tight' }) {
  return (
    <div
      className={cn(
        spacing === 'tight' ? 'mt-1' : 'mt-6',
        'flex flex-col-reverse gap-2 sm:flex-row sm:justify-end',
        className,
      )}
      {...props}
    />
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('font-serif text-xl font-bold', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-navy-800 text-sm', className)} {...props} />;
}

/** What a FormDialog hands its form. */
export type InDialog = { onBusyChange: (busy: boolean) => void; close: () => void };

/**
 * A dialog around one form (Radix: focus trap, Escape, focus back to the opener). While the
 * form is busy the dialog cannot be dismissed, so closing it never pretends to undo work
 * already under way. `children` receives the dialog's side of the form: `onBusyChange` for its
 * useForm, and `close`.
 */
export function FormDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
  title,
  titleClassName,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
  title: ReactNode;
  titleClassName?: string;
  description: ReactNode;
  children: (dialog: InDialog) => ReactNode;
}) {
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
          <DialogTitle className={titleClassName}>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children({ onBusyChange: setBusy, close: () => onOpenChange(false) })}
      </DialogContent>
    </Dialog>
  );
}
