import { useEffect, useId, useRef, useState } from 'react';
import { checkFields, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import type { PasswordResetRequest } from '../api/request-password-reset';
import { credentialsSchema } from '../lib/credentials-schema';
import { EmailField } from './email-field';

export type RequestLinkFormProps = {
  email: string;
  onEmailChange: (email: string) => void;
  /** Sends the link; resolves with the auth server's answer, throws on any other failure. */
  onRequest: (email: string) => Promise<PasswordResetRequest>;
  /** Focus the e-mail field whenever this turns true: the form has just replaced the control that had focus. */
  takeFocus?: boolean;
  /** The button's words. */
  label?: string;
};

/** The text shown for every address, known or not: the answer must not tell them apart. */
export function sentMessage(email: string): string {
  return `If an account exists for ${email}, we've sent it a link to choose a new password. Check your inbox (and your spam folder). The link works once, for an hour.`;
}

function rateLimitMessage(seconds: number | null): string {
  if (seconds === null) return 'Too many e-mails have been sent just now. Please try again in a few minutes.';
  return `Too many requests for this address. Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'}, then try again.`;
}

/** The form's one field, checked with the sign-up form's rule for an e-mail address. */
const requestSchema = credentialsSchema.pick({ email: true });

/**
 * "Send me a link": one e-mail field, checked with the sign-up form's rule, then the same
 * confirmation whatever the address. Outcomes are announced (status for the confirmation,
 * alert for a problem); an invalid address puts focus back on the field.
 */
export function RequestLinkForm({
  email,
  onEmailChange,
  onRequest,
  takeFocus = false,
  label = 'Send reset link',
}: RequestLinkFormProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const form = useForm();
  const [sentTo, setSentTo] = useState<string | null>(null);

  // Otherwise focus would fall back to the page when the form replaces the control used.
  useEffect(() => {
    if (takeFocus) input.current?.focus();
  }, [takeFocus]);

  async function request() {
    // The field is the record (uncontrolled): it holds what was typed, also before the app
    // took over the prerendered form.
    const check = checkFields(requestSchema, { email: input.current?.value ?? email });
    setSentTo(null);
    form.setFieldErrors(check.ok ? {} : check.errors);
    if (!check.ok) {
      input.current?.focus();
      return;
    }
    const { email: address } = check.data;
    await form.run('busy', async () => {
      const answer = await onRequest(address);
      if (answer.status === 'sent') setSentTo(address);
      else form.setError(rateLimitMessage(answer.retryAfterSeconds));
    });
  }

  const fieldProblem = form.fieldErrors.email;
  const sending = form.isBusy ? 'Sending...' : null;

  return (
    <Form state={form} onSubmit={request} noValidate className="flex flex-col gap-4">
      <EmailField
        id={`${id}-email`}
        fieldRef={input}
        email={email}
        onEmailChange={onEmailChange}
        problemId={fieldProblem && `${id}-problem`}
      />
      <SubmitButton busy={form.isBusy} label={label} busyLabel="Sending..." size="lg" className="w-full" />
      <p role="status" className={sentTo !== null ? 'rounded-lg bg-green-50 p-3 text-sm text-green-900' : 'sr-only'}>
        {sending ?? (sentTo !== null ? sentMessage(sentTo) : '')}
      </p>
      <FormAlert id={`${id}-problem`} message={fieldProblem ?? form.error} persistent />
    </Form>
  );
}
