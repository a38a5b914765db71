import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { safeNextPath } from '@/config/paths';
import { confirmSignUpByCode } from '../api/verify-email';
import { resendSignUp } from '../api/resend-sign-up';
import { CodeForm } from './code-form';

export type CheckEmailProps = {
  /** The address and password just given at sign-up (held in this tab's memory only). */
  email: string;
  password: string;
  /** Back to the sign-up form, to use another address. */
  onBack: () => void;
};

/**
 * "Check your e-mail", after a sign-up with confirmations on: the mail's 6-digit code typed
 * here confirms the address and signs in with the password typed at sign-up, so it is typed
 * once (docs/decisions/064-code-in-the-same-tab-keeps-the-password.md). Loaded only once a
 * sign-up has been sent, so /auth hydrates without it.
 */
export default function CheckEmail({ email, password, onBack }: CheckEmailProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <section aria-labelledby="check-email-title" className="flex flex-col gap-4">
      <div>
        <h3
          ref={heading}
          tabIndex={-1}
          id="check-email-title"
          className="text-navy-900 text-lg font-semibold focus:outline-none"
        >
          Check your e-mail
        </h3>
        <p className="text-sm break-words text-slate-700">
          We sent a 6-digit code to <strong>{email}</strong>. Type it here to confirm your address; you will be signed
          in with the password you just chose. The code works once, for an hour.
        </p>
      </div>
      <CodeForm
        email={email}
        onVerify={async (address, code) => {
          const answer = await confirmSignUpByCode(address, code, password);
          // Signed in: the page moves on by itself, as after any sign-in.
          if (answer.status === 'signed-in') toast.success('Welcome!', { description: 'Your address is confirmed.' });
          return answer;
        }}
      />
      <SendAgain email={email} />
      <Button variant="ghost" onClick={onBack} className="self-center">
        Use another address
      </Button>
    </section>
  );
}

function SendAgain({ email }: { email: string }) {
  // Where the person was going: the new mail's link leads on there too.
  const next = safeNextPath(useSearchParams()[0].get('next'));
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);

  async function send() {
    setBusy(true);
    setSaid('');
    try {
      const answer = await resendSignUp(email, next);
      setSaid(
        answer.status === 'sent'
          ? 'A new code is on its way. The older one no longer works.'
          : `Too many requests. Please wait ${answer.retryAfterSeconds ?? 60} seconds, then try again.`,
      );
    } catch (caught) {
      setSaid(caught instanceof Error ? caught.message : 'Could not send a new code. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <Button variant="outline" onClick={() => void send()} disabled={busy}>
        {busy ? 'Sending...' : 'Send a new code'}
      </Button>
      <p role="status" className={said ? 'text-sm text-slate-700' : 'sr-only'}>
        {said}
      </p>
    </div>
  );
}
