import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Field, Form, FormAlert, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { FullPageSpinner } from '@/components/ui/spinner';
import type { PasswordResetRequest } from '../api/request-password-reset';
import { credentialsSchema } from '../lib/credentials-schema';
import type { SetPasswordState } from '../lib/set-password-state';
import { CardPage } from './card-page';
import { RequestLinkForm } from './request-link-form';

export type SetPasswordViewProps = {
  state: SetPasswordState;
  /** Saves the new password for the signed-in user; throws the provider's error. */
  onSetPassword: (password: string) => Promise<void>;
  /** Sends a new password-reset link. */
  onRequestLink: (email: string) => Promise<PasswordResetRequest>;
  /** Called once the password is saved and the toast is up (the container navigates). */
  onDone: () => void;
};

/** The password form's check: the sign-up form's rule and messages, then the two must match. */
export function checkNewPassword(password: string, confirm: string): string | null {
  const result = credentialsSchema.shape.password.safeParse(password);
  if (!result.success) return result.error.issues[0]?.message ?? 'Invalid password';
  if (password !== confirm) return 'Passwords do not match';
  return null;
}

/**
 * The page that password-recovery and invitation links land on: a new password (twice),
 * then the user, already signed in by the link, goes on to their resources. A refused link
 * says so and offers a new one.
 */
export function SetPasswordView({ state, onSetPassword, onRequestLink, onDone }: SetPasswordViewProps) {
  if (state.kind === 'checking')
    return (
      <FullPageSpinner
        label="Checking your link..."
        className="from-navy-900 to-navy-700 bg-gradient-to-b"
        spinnerClassName="rounded-xl bg-white p-6 shadow-xl"
      />
    );

  if (state.kind === 'ready') {
    const account = state.email ?? 'your account';
    const { title, intro } = {
      invite: {
        title: 'Welcome! Your files are ready',
        intro: `Choose a password for ${account}. You will sign in with this e-mail address and password from now on.`,
      },
      signup: {
        title: 'Your e-mail address is confirmed',
        intro: `Choose the password you will sign in with from now on for ${account}. For your safety, a password given before the address was confirmed is not kept.`,
      },
      recovery: { title: 'Choose a new password', intro: `Choose a new password for ${account}.` },
    }[state.purpose];
    const invited = state.purpose !== 'recovery';
    return (
      <CardPage title={title} intro={intro}>
        <NewPasswordForm onSetPassword={onSetPassword} onDone={onDone} invited={invited} email={state.email} />
      </CardPage>
    );
  }

  return (
    <CardPage
      title={state.kind === 'link-error' ? 'This link has expired' : 'Set your password'}
      intro={
        state.kind === 'link-error'
          ? 'The links in our e-mails work once, for an hour, and this one can no longer be used. Enter your e-mail address and we will send you a new one.'
          : 'Open the link in the e-mail we sent you to choose your password, or enter your e-mail address to get a new link.'
      }
    >
      <RequestAgain onRequestLink={onRequestLink} />
    </CardPage>
  );
}

function RequestAgain({ onRequestLink }: { onRequestLink: SetPasswordViewProps['onRequestLink'] }) {
  const [email, setEmail] = useState('');
  return <RequestLinkForm email={email} onEmailChange={setEmail} onRequest={onRequestLink} />;
}

/**
 * Checks the two entries (a problem is said in the form's alert, focus on the password), then
 * saves and says so. It stays busy once saved: the next page takes over.
 */
function useSaveNewPassword({
  onSetPassword,
  onDone,
  invited,
}: {
  onSetPassword: SetPasswordViewProps['onSetPassword'];
  onDone: () => void;
  invited: boolean;
}) {
  const form = useForm();

  async function save(password: string, confirm: string, passwordField: HTMLInputElement | null) {
    const invalid = checkNewPassword(password, confirm);
    if (invalid) {
      form.setError(invalid);
      passwordField?.focus();
      return;
    }
    await form.run(
      'busy',
      async () => {
        await onSetPassword(password);
        toast.success(invited ? 'Password set' : 'Password updated', {
          description: 'Redirecting to your resources...',
        });
        onDone();
      },
      { stayBusy: true },
    );
  }

  return { form, save };
}

/** What both of the form's fields are: a new password, required. */
const newPasswordInput = { type: 'password', autoComplete: 'new-password', required: true } as const;

function NewPasswordForm({
  onSetPassword,
  onDone,
  invited,
  email,
}: {
  onSetPassword: SetPasswordViewProps['onSetPassword'];
  onDone: () => void;
  invited: boolean;
  email: string | null;
}) {
  const id = useId();
  const passwordInput = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { form, save } = useSaveNewPassword({ onSetPassword, onDone, invited });
  const submit = () => save(password, confirm, passwordInput.current);

  return (
    <Form state={form} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {/* Tells password managers which account the new password is for; hidden from everyone. */}
      <input type="email" name="username" autoComplete="username" value={email ?? ''} readOnly hidden />
      <Field
        id={`${id}-password`}
        label="New password"
        hint="Must be at least 6 characters"
        hintSize="sm"
        invalid={!!form.error}
        describedBy={form.error ? `${id}-problem` : undefined}
      >
        <Input
          ref={passwordInput}
          {...newPasswordInput}
          name="new-password"
          minLength={6}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <Field id={`${id}-confirm`} label="Confirm password">
        <Input
          {...newPasswordInput}
          name="confirm-password"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
      </Field>
      <SubmitButton
        busy={form.isBusy}
        label={invited ? 'Set Password' : 'Update Password'}
        busyLabel="Saving..."
        size="lg"
        className="w-full"
        announce
      />
      <FormAlert id={`${id}-problem`} message={form.error} persistent />
    </Form>
  );
}
