import { useId, useRef, useState } from 'react';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import type { VerifyOutcome } from '../api/verify-email';

export type CodeFormProps = {
  /** The address the code was sent to; without it the form asks for it too. */
  email?: string;
  /** Spends the code; resolves with what it came to, throws on any other failure. */
  onVerify: (email: string, code: string) => Promise<VerifyOutcome>;
};

/** The code as typed, spaces and dashes dropped (mail apps and people group the digits). */
export function normalizeCode(typed: string): string {
  return typed.replace(/[\s-]/g, '');
}

/** What is wrong with the typed fields, by field; empty when they can be sent. */
export function checkCode(email: string, code: string): { email?: string; code?: string } {
  const problems: { email?: string; code?: string } = {};
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()))
    problems.email = 'Enter the e-mail address the code was sent to';
  if (!/^\d{6}$/.test(normalizeCode(code))) problems.code = 'Enter the 6 digits from the e-mail';
  return problems;
}

const refusal: Record<'spent' | 'rate-limited' | 'half-confirmed', string> = {
  spent:
    'This code is not right, or it was used or has expired. Check the newest e-mail we sent, or ask for a new one.',
  'rate-limited': 'Too many tries from your network just now. Please wait a minute, then try again.',
  'half-confirmed': 'One address is confirmed; now use the code sent to your other address.',
};

/**
 * A mail's 6-digit code (and its address, when not known): checked at the fields, then sent.
 * A refusal is said in the form's alert; success stays busy while the page moves on.
 */
export function CodeForm({ email: knownEmail, onVerify }: CodeFormProps) {
  const id = useId();
  const form = useForm();
  const [problems, setProblems] = useState<{ email?: string; code?: string }>({});
  const emailInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  async function submit() {
    const email = knownEmail ?? emailInput.current?.value ?? '';
    const code = codeInput.current?.value ?? '';
    const found = checkCode(email, code);
    setProblems(found);
    if (found.email || found.code) {
      (found.email ? emailInput : codeInput).current?.focus();
      return;
    }
    await form.run(
      'busy',
      async () => {
        const answer = await onVerify(email.trim().toLowerCase(), normalizeCode(code));
        if (answer.status !== 'signed-in') throw new Error(refusal[answer.status]);
      },
      { stayBusy: true },
    );
  }

  return (
    <Form state={form} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {knownEmail === undefined && (
        <Field id={`${id}-email`} label="Email" error={problems.email}>
          <Input ref={emailInput} type="email" name="email" autoComplete="email" required />
        </Field>
      )}
      <Field id={`${id}-code`} label="6-digit code" error={problems.code}>
        <Input
          ref={codeInput}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 -]*"
          maxLength={9}
          required
          className="text-center tracking-[0.4em]"
        />
      </Field>
      <SubmitButton busy={form.isBusy} label="Confirm" busyLabel="Checking..." size="lg" className="w-full" announce />
      <FormAlert id={`${id}-problem`} message={form.error} persistent />
    </Form>
  );
}
