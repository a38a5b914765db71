import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { tierLabel, tiers, type Tier } from '@/content/tiers';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/error-message';
import { checkReason } from '../lib/members';

type DialogProps = {
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * A tier change in a Radix dialog (focus trap, Escape, focus back to the button that opened
 * it). While the change is saving the dialog stays open, so closing it never pretends to
 * undo a write already under way; a refused change is said inside the dialog, next to the
 * reason, and the reason typed is kept.
 */
function TierChangeDialog({
  open,
  onOpenChange,
  title,
  description,
  busy,
  children,
}: Omit<DialogProps, 'email'> & { title: string; description: string; busy: boolean; children: ReactNode }) {
  const stayWhileBusy = (event: Event) => {
    if (busy) event.preventDefault();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next || !busy) && onOpenChange(next)}>
      <DialogContent onEscapeKeyDown={stayWhileBusy} onInteractOutside={stayWhileBusy}>
        <DialogHeader>
          <DialogTitle className="wrap-anywhere">{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}

function ReasonField({
  id,
  value,
  onChange,
  problem,
  disabled,
  fieldRef,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
  disabled: boolean;
  fieldRef: RefObject<HTMLTextAreaElement | null>;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`${id}-reason`}>Reason</Label>
      <textarea
        ref={fieldRef}
        id={`${id}-reason`}
        name="reason"
        rows={3}
        value={value}
        disabled={disabled}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-reason-error ${id}-reason-hint` : `${id}-reason-hint`}
        onChange={(event) => onChange(event.target.value)}
        className={cn(
          'text-navy-900 block w-full rounded-lg border bg-white px-3 py-2 text-base',
          problem ? 'border-red-700' : 'border-navy-600/60',
          'focus-visible:border-navy-800 focus-visible:outline-gold-500 focus-visible:outline-2 focus-visible:outline-offset-1',
          'disabled:cursor-not-allowed disabled:opacity-70',
        )}
      />
      {problem && (
        <p id={`${id}-reason-error`} className="text-sm font-semibold text-red-700">
          {problem}
        </p>
      )}
      <p id={`${id}-reason-hint`} className="text-xs text-slate-700">
        Required. Kept in the member&apos;s history with your name and the time; up to 500 characters.
      </p>
    </div>
  );
}

function SaveButton({ busy, idle, variant }: { busy: boolean; idle: string; variant: 'gold' | 'destructive' }) {
  return (
    <Button type="submit" variant={variant} aria-disabled={busy || undefined}>
      {busy && (
        <span
          aria-hidden="true"
          className="inline-block size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
        />
      )}
      {busy ? 'Saving...' : idle}
    </Button>
  );
}

/** The submit handler both dialogs share: check the reason, save, then toast or explain. */
function useReasonForm(save: (reason: string) => Promise<void>, onSaved: () => void) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldRef = useRef<HTMLTextAreaElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const reasonProblem = checkReason(reason);
    setProblem(reasonProblem);
    setFailure(null);
    if (reasonProblem) {
      fieldRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await save(reason.trim());
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(false);
      return;
    }
    setBusy(false);
    onSaved();
  }

  return {
    busy,
    failure,
    submit,
    field: {
      value: reason,
      onChange: (value: string) => {
        setReason(value);
        if (problem) setProblem(checkReason(value));
      },
      problem,
      disabled: busy,
      fieldRef,
    },
  };
}

function Failure({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-800">
      Nothing was changed: {message}
    </p>
  );
}

export type GrantTierDialogProps = DialogProps & {
  /** The member's tier now, to start the choice from. */
  currentTier: Tier | null;
  /** Saves the grant; throws when the database refuses it. */
  onGrant: (tier: Tier, reason: string) => Promise<void>;
};

export function GrantTierDialog({ email, open, onOpenChange, currentTier, onGrant }: GrantTierDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <TierChangeDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      title={`Grant a tier to ${email}`}
      description="Replaces any staff grant they hold now. Their tier is the highest of this grant and their paid purchases."
    >
      {/* Mounted per opening: each grant starts with an empty reason. */}
      <GrantForm
        email={email}
        currentTier={currentTier}
        onGrant={onGrant}
        onBusyChange={setBusy}
        onDone={() => onOpenChange(false)}
      />
    </TierChangeDialog>
  );
}

function GrantForm({
  email,
  currentTier,
  onGrant,
  onBusyChange,
  onDone,
}: Pick<GrantTierDialogProps, 'email' | 'currentTier' | 'onGrant'> & {
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const id = useId();
  const [tier, setTier] = useState<Tier>(currentTier ?? 'ebook');
  const form = useReasonForm(
    async (reason) => {
      onBusyChange(true);
      try {
        await onGrant(tier, reason);
      } finally {
        onBusyChange(false);
      }
    },
    () => {
      toast.success('Tier granted', { description: `${email} now has ${tierLabel(tier)} through a staff grant.` });
      onDone();
    },
  );
  return (
    <form
      noValidate
      onSubmit={(event) => void form.submit(event)}
      aria-busy={form.busy}
      className="flex flex-col gap-5"
    >
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-tier`}>Tier</Label>
        <select
          id={`${id}-tier`}
          value={tier}
          disabled={form.busy}
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
      <ReasonField id={id} {...form.field} />
      <Failure message={form.failure} />
      <DialogFooter spacing="tight">
        <DialogClose asChild>
          <Button variant="outline" disabled={form.busy}>
            Cancel
          </Button>
        </DialogClose>
        <SaveButton busy={form.busy} idle="Grant tier" variant="gold" />
      </DialogFooter>
    </form>
  );
}

export type RevokeGrantDialogProps = DialogProps & {
  /** The grant in force, as "Complete Transformation". */
  grantLabel: string;
  /** Revokes the member's staff grant; throws when the database refuses it. */
  onRevoke: (reason: string) => Promise<void>;
};

export function RevokeGrantDialog({ email, open, onOpenChange, grantLabel, onRevoke }: RevokeGrantDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <TierChangeDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      title={`Revoke the staff grant of ${email}`}
      description={`Ends their ${grantLabel} staff grant. They keep what their paid purchases give them.`}
    >
      <RevokeForm email={email} onRevoke={onRevoke} onBusyChange={setBusy} onDone={() => onOpenChange(false)} />
    </TierChangeDialog>
  );
}

function RevokeForm({
  email,
  onRevoke,
  onBusyChange,
  onDone,
}: Pick<RevokeGrantDialogProps, 'email' | 'onRevoke'> & {
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const id = useId();
  const form = useReasonForm(
    async (reason) => {
      onBusyChange(true);
      try {
        await onRevoke(reason);
      } finally {
        onBusyChange(false);
      }
    },
    () => {
      toast.success('Staff grant revoked', { description: `${email} keeps only what their purchases give.` });
      onDone();
    },
  );
  return (
    <form
      noValidate
      onSubmit={(event) => void form.submit(event)}
      aria-busy={form.busy}
      className="flex flex-col gap-5"
    >
      <ReasonField id={id} {...form.field} />
      <Failure message={form.failure} />
      <DialogFooter spacing="tight">
        <DialogClose asChild>
          <Button variant="outline" disabled={form.busy}>
            Cancel
          </Button>
        </DialogClose>
        <SaveButton busy={form.busy} idle="Revoke grant" variant="destructive" />
      </DialogFooter>
    </form>
  );
}
