import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/error-message';
import type { PasswordResetRequest } from '../api/request-password-reset';
import { credentialsSchema } from '../lib/credentials-schema';
import { useTypedBeforeApp } from '@/boot/use-typed-before-app';

export type RequestLinkFormProps = {
  email: string;
  onEmailChange: (email: string) => void;
  /** Sends the link; resolves with the auth server's answer, throws on any other failure. */
  onRequest: (email: string) => Promise<PasswordResetRequest>;
  /** Focus the e-mail field whenever this turns true: the form has just replaced the control that had focus. */
  takeFocus?: boolean;
};

type Outcome =
  { kind: 'idle' } | { kind: 'sent'; email: string } | { kind: 'problem'; message: string; field?: boolean };

/** The text shown for every address, known or not: the answer must not tell them apart. */
export function sentMessage(email: string): string {
  return `If an account exists for ${email}, we've sent it a link to choose a new password. Check your inbox (and your spam folder). The link works once, for an hour.`;
}

function rateLimitMessage(seconds: number | null): string {
  if (seconds === null) return 'Too many e-mails have been sent just now. Please try again in a few minutes.';
  return `Too many requests for this address. Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'}, then try again.`;
}

/**
 * "Send me a link": one e-mail field, checked with the sign-up form's rule, then the same
 * confirmation whatever the address. Outcomes are announced (status for the confirmation,
 * alert for a problem); an invalid address puts focus back on the field.
 */
export function RequestLinkForm({ email, onEmailChange, onRequest, takeFocus = false }: RequestLinkFormProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });

  useTypedBeforeApp(input, email, onEmailChange);

  // Otherwise focus would fall back to the page when the form replaces the control used.
  useEffect(() => {
    if (takeFocus) input.current?.focus();
  }, [takeFocus]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    // The field is the record (uncontrolled): it holds what was typed, also before the app
    // took over the prerendered form.
    const typed = input.current?.value ?? email;
    const check = credentialsSchema.shape.email.safeParse(typed);
    if (!check.success) {
      setOutcome({ kind: 'problem', message: check.error.issues[0]?.message ?? 'Invalid email address', field: true });
      input.current?.focus();
      return;
    }
    setBusy(true);
    setOutcome({ kind: 'idle' });
    try {
      const answer = await onRequest(check.data);
      setOutcome(
        answer.status === 'sent'
          ? { kind: 'sent', email: check.data }
          : { kind: 'problem', message: rateLimitMessage(answer.retryAfterSeconds) },
      );
    } catch (error) {
      setOutcome({ kind: 'problem', message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  const fieldProblem = outcome.kind === 'problem' && outcome.field === true;

  return (
    <form onSubmit={(event) => void handleSubmit(event)} aria-busy={busy} noValidate className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          ref={input}
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          required
          aria-invalid={fieldProblem || undefined}
          aria-describedby={fieldProblem ? `${id}-problem` : undefined}
          defaultValue={email}
          onChange={(event) => onEmailChange(event.target.value)}
          placeholder="you@example.com"
        />
      </div>
      <Button type="submit" variant="gold" size="lg" disabled={busy} className="w-full">
        {busy ? 'Sending...' : 'Send reset link'}
      </Button>
      <p
        role="status"
        className={outcome.kind === 'sent' ? 'rounded-lg bg-green-50 p-3 text-sm text-green-900' : 'sr-only'}
      >
        {busy ? 'Sending...' : outcome.kind === 'sent' ? sentMessage(outcome.email) : ''}
      </p>
      <p
        id={`${id}-problem`}
        role="alert"
        className={outcome.kind === 'problem' ? 'rounded-lg bg-red-50 p-3 text-sm text-red-800' : 'sr-only'}
      >
        {outcome.kind === 'problem' ? outcome.message : ''}
      </p>
    </form>
  );
}
