import { useId, useState } from 'react';
import { Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import type { PasswordResetRequest } from '../api/request-password-reset';
import type { VerifyOutcome } from '../api/verify-email';
import { confirmCopy, type ConfirmLink, type LinkType } from '../lib/confirm-link';
import { CardPage } from './card-page';
import { CodeForm } from './code-form';
import { RequestLinkForm } from './request-link-form';

export type ConfirmViewProps = {
  /** The link the page was opened with; null: no link, the page takes a code instead. */
  link: ConfirmLink | null;
  /** Spends the link (only ever on the button's press). */
  onVerifyLink: (link: ConfirmLink) => Promise<VerifyOutcome>;
  /** Spends a code typed with its address. */
  onVerifyCode: (email: string, code: string) => Promise<VerifyOutcome>;
  /** Sends a new link to the address. */
  onRequestLink: (email: string) => Promise<PasswordResetRequest>;
  /** Signed in: the container goes where the mail promised (`type`; null for a typed code). */
  onConfirmed: (type: LinkType | null) => void;
};

/** The words for a refusal that is not "spent": the auth server's limit on tries from one network. */
export const RATE_LIMITED = 'Too many tries from your network just now. Please wait a minute, then try again.';

/**
 * The page every auth e-mail links to. Opening it spends nothing (mail scanners open links
 * before the person does): the link is verified only when its one button is pressed. A spent
 * or expired link says so and offers a new one, the address filled in; without a link the page
 * takes a mail's 6-digit code.
 */
export function ConfirmView({ link, onVerifyLink, onVerifyCode, onRequestLink, onConfirmed }: ConfirmViewProps) {
  const [outcome, setOutcome] = useState<'spent' | 'half-confirmed' | null>(null);

  if (outcome === 'spent')
    return (
      <CardPage
        title="This link has expired"
        intro="The links in our e-mails work once, for an hour, and this one has been used or has expired. We can send you a new one."
      >
        <SendNewLink email={link?.email ?? ''} onRequestLink={onRequestLink} />
      </CardPage>
    );
  if (outcome === 'half-confirmed')
    return (
      <CardPage
        title="One address confirmed"
        intro="Now open the link we sent to your other address: the change is made once both are confirmed."
      >
        <span />
      </CardPage>
    );
  if (!link)
    return (
      <CardPage
        title="Enter your code"
        intro="Type the e-mail address and the 6-digit code from the e-mail we sent you."
      >
        <CodeForm
          onVerify={async (email, code) => {
            const answer = await onVerifyCode(email, code);
            if (answer.status === 'signed-in') onConfirmed(null);
            return answer;
          }}
        />
      </CardPage>
    );

  const copy = confirmCopy[link.type];
  return (
    <CardPage title={copy.title} intro={copy.intro}>
      <PressToConfirm
        link={link}
        onVerifyLink={onVerifyLink}
        onOutcome={(answer) => {
          if (answer.status === 'signed-in') onConfirmed(link.type);
          else if (answer.status !== 'rate-limited') setOutcome(answer.status);
        }}
      />
    </CardPage>
  );
}

function SendNewLink({
  email: initial,
  onRequestLink,
}: {
  email: string;
  onRequestLink: ConfirmViewProps['onRequestLink'];
}) {
  const [email, setEmail] = useState(initial);
  return (
    <RequestLinkForm email={email} onEmailChange={setEmail} onRequest={onRequestLink} label="Send me a new link" />
  );
}

/** The one button: the link is spent here, and nowhere else. */
function PressToConfirm({
  link,
  onVerifyLink,
  onOutcome,
}: {
  link: ConfirmLink;
  onVerifyLink: ConfirmViewProps['onVerifyLink'];
  onOutcome: (outcome: VerifyOutcome) => void;
}) {
  const id = useId();
  const form = useForm();
  const copy = confirmCopy[link.type];
  async function press() {
    await form.run(
      'busy',
      async () => {
        const answer = await onVerifyLink(link);
        if (answer.status === 'rate-limited') throw new Error(RATE_LIMITED);
        onOutcome(answer);
      },
      { stayBusy: true },
    );
  }

  return (
    <Form state={form} onSubmit={press} className="flex flex-col gap-4">
      {link.email && (
        <p className="text-sm break-words text-slate-700">
          For <strong>{link.email}</strong>
        </p>
      )}
      <SubmitButton
        busy={form.isBusy}
        label={copy.button}
        busyLabel={copy.busy}
        size="lg"
        className="w-full"
        announce
      />
      <FormAlert id={`${id}-problem`} message={form.error} persistent />
      <p className="text-xs text-slate-700">
        We ask you to press the button so that a mail scanner that opens the link cannot use it up.
      </p>
    </Form>
  );
}
