import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { privacy } from '@/content/privacy';
import { site } from '@/content/site';
import { checkCredentials, type Credentials } from '../lib/credentials-schema';
import { errorMessage } from '@/lib/error-message';
import type { PasswordResetRequest } from '../api/request-password-reset';
import { RequestLinkForm } from './request-link-form';
import { useTypedBeforeApp } from '@/boot/use-typed-before-app';

type Mode = 'sign-in' | 'sign-up';

export type AuthViewProps = {
  /** Resolves when signed in; throws the provider's error otherwise. */
  onSignIn: (credentials: Credentials) => Promise<void>;
  /**
   * Resolves when the account was created: true when it came back signed in (auto-confirm),
   * false when the e-mail address must be confirmed first. Throws the provider's error.
   */
  onSignUp: (credentials: Credentials) => Promise<boolean>;
  /**
   * Called after a successful sign-in, or a sign-up that came back signed in, once the toast
   * is up (the container navigates).
   */
  onSignedIn: () => void;
  /** "Forgot password?": e-mails a link to the set-password page. */
  onRequestPasswordReset: (email: string) => Promise<PasswordResetRequest>;
};

const copy = {
  'sign-in': { submit: 'Sign In', busy: 'Signing in...', autoComplete: 'current-password' },
  'sign-up': { submit: 'Create Account', busy: 'Creating account...', autoComplete: 'new-password' },
} as const;

/** The /auth screen: Sign In / Sign Up tabs, schema check, busy buttons and every toast. */
export function AuthView({ onSignIn, onSignUp, onSignedIn, onRequestPasswordReset }: AuthViewProps) {
  const [tab, setTab] = useState<Mode>('sign-in');
  // The Sign In tab shows either the sign-in form or "Forgot password?"'s e-mail form;
  // 'returned' is the sign-in form again after Back, which takes focus back to the link.
  const [forgot, setForgot] = useState<'closed' | 'open' | 'returned'>('closed');
  const [busy, setBusy] = useState<Mode | null>(null);
  // One e-mail for both tabs: after "Account created!" the Sign In tab already has it.
  const [email, setEmail] = useState('');
  const id = useId();
  const ids = { signIn: `${id}-sign-in`, forgot: `${id}-forgot`, forgotLink: `${id}-forgot-link` };

  async function submit(mode: Mode, credentials: Credentials) {
    const check = checkCredentials(credentials);
    if (!check.ok) {
      toast.error('Validation error', { description: check.message });
      return;
    }
    setBusy(mode);
    try {
      if (mode === 'sign-in') {
        await onSignIn(check.credentials);
        toast.success('Welcome back!', { description: 'Redirecting to your resources...' });
        onSignedIn();
      } else {
        const signedIn = await onSignUp(check.credentials);
        if (signedIn) {
          // Signed in already and on the way in: not "you can now sign in" (decision 31).
          toast.success('Account created!', { description: 'Welcome! Taking you to your resources...' });
          onSignedIn();
        } else {
          // Nothing to sign in with until the address is confirmed; the e-mail's link signs
          // them in and asks for their password (decision 47).
          toast.success('Account created!', {
            description: 'Check your e-mail and follow the link to confirm your address and sign in.',
          });
        }
      }
    } catch (error) {
      toast.error(mode === 'sign-in' ? 'Sign in failed' : 'Sign up failed', { description: errorMessage(error) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <main className="from-navy-900 to-navy-700 flex min-h-screen flex-col items-center bg-gradient-to-b px-4 py-10 sm:py-16">
      <div className="flex w-full max-w-md flex-col gap-6">
        <header className="text-center text-white">
          <h1 className="font-serif text-3xl font-bold sm:text-4xl">{site.productName}</h1>
          <p className="text-navy-50 mt-2">Access your exclusive subscriber resources</p>
        </header>

        <section aria-labelledby="auth-card-title" className="rounded-xl bg-white p-5 shadow-xl sm:p-6">
          <h2 id="auth-card-title" className="text-navy-900 mb-4 text-center font-serif text-2xl font-bold">
            Subscriber Access
          </h2>
          {/* Every panel and view is in the page, the inactive ones hidden, so that a tab or
              "Forgot password?" tapped before the app runs is answered by the page itself
              (src/boot/answer-before-app.ts) and what is typed next lands where it should. */}
          <Tabs
            value={tab}
            onValueChange={(value) => {
              setTab(value === 'sign-up' ? 'sign-up' : 'sign-in');
              setForgot('closed');
            }}
          >
            <TabsList>
              <TabsTrigger value="sign-in">Sign In</TabsTrigger>
              <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
            </TabsList>
            <TabsContent value="sign-in" forceMount hidden={tab !== 'sign-in'}>
              <div id={ids.signIn} hidden={forgot === 'open'}>
                <CredentialsForm
                  mode="sign-in"
                  email={email}
                  onEmailChange={setEmail}
                  busy={busy}
                  onSubmit={(credentials) => void submit('sign-in', credentials)}
                  forgot={{ id: ids.forgotLink, shows: ids.forgot, hides: ids.signIn, onOpen: () => setForgot('open') }}
                  focusForgot={forgot === 'returned'}
                />
              </div>
              <ForgotPassword
                id={ids.forgot}
                open={forgot === 'open'}
                email={email}
                onEmailChange={setEmail}
                onRequest={onRequestPasswordReset}
                back={{
                  shows: ids.signIn,
                  hides: ids.forgot,
                  focuses: ids.forgotLink,
                  onBack: () => setForgot('returned'),
                }}
              />
            </TabsContent>
            <TabsContent value="sign-up" forceMount hidden={tab !== 'sign-up'}>
              <CredentialsForm
                mode="sign-up"
                email={email}
                onEmailChange={setEmail}
                busy={busy}
                onSubmit={(credentials) => void submit('sign-up', credentials)}
              />
              <p className="mt-4 text-center text-sm text-slate-700">
                {privacy.signUpNote.text}{' '}
                <Link to={paths.privacy} className="text-navy-900 font-semibold underline underline-offset-4">
                  {privacy.signUpNote.link}
                </Link>
              </p>
            </TabsContent>
          </Tabs>
        </section>

        <Link
          to={paths.home}
          className="inline-flex min-h-11 items-center gap-2 self-center rounded-lg px-4 py-2 font-semibold text-white hover:bg-white/10"
        >
          <span aria-hidden="true">←</span> Back to Home
        </Link>
      </div>
    </main>
  );
}

/** What a swap button shows, hides and focuses (data-shows / data-hides / data-focuses). */
type Swap = { shows: string; hides: string; focuses?: string };

function swapAttributes({ shows, hides, focuses }: Swap) {
  return { 'data-shows': shows, 'data-hides': hides, 'data-focuses': focuses };
}

/** "Forgot password?" inside the Sign In tab: the e-mail form, and the way back. */
function ForgotPassword({
  id,
  open,
  email,
  onEmailChange,
  onRequest,
  back,
}: {
  id: string;
  open: boolean;
  email: string;
  onEmailChange: (email: string) => void;
  onRequest: (email: string) => Promise<PasswordResetRequest>;
  back: Swap & { onBack: () => void };
}) {
  return (
    <section id={id} hidden={!open} aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <div>
        <h3 id={`${id}-title`} className="text-navy-900 text-lg font-semibold">
          Reset your password
        </h3>
        <p className="text-sm text-slate-700">
          Enter the e-mail address of your account (the one you used at checkout, if you bought first). We will send you
          a link to choose a new password.
        </p>
      </div>
      <RequestLinkForm email={email} onEmailChange={onEmailChange} onRequest={onRequest} takeFocus={open} />
      <Button variant="ghost" onClick={back.onBack} className="self-center" {...swapAttributes(back)}>
        Back to Sign In
      </Button>
    </section>
  );
}

function CredentialsForm({
  mode,
  email,
  onEmailChange,
  busy,
  onSubmit,
  forgot,
  focusForgot = false,
}: {
  mode: Mode;
  email: string;
  onEmailChange: (email: string) => void;
  busy: Mode | null;
  onSubmit: (credentials: Credentials) => void;
  /** The sign-in form's "Forgot password?": its id, what it swaps, and what the app does. */
  forgot?: Swap & { id: string; onOpen: () => void };
  /** Back from "Forgot password?" (this form mounted again): focus the control that left. */
  focusForgot?: boolean;
}) {
  const forgotButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusForgot) forgotButton.current?.focus();
  }, [focusForgot]);
  const emailField = useRef<HTMLInputElement>(null);
  useTypedBeforeApp(emailField, email, onEmailChange);
  const id = useId();
  const isBusy = busy === mode;
  const text = copy[mode];

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    // The fields are the record (uncontrolled): what they show is what was typed, also before
    // the app took over the prerendered form, which React would otherwise overwrite.
    const fields = event.currentTarget.elements;
    const typed = (name: string) => {
      const field = fields.namedItem(name);
      return field instanceof HTMLInputElement ? field.value : '';
    };
    const credentials = { email: typed('email'), password: typed('password') };
    if (credentials.email !== email) onEmailChange(credentials.email);
    onSubmit(credentials);
  }

  return (
    // method="post": a submit before the script has taken over the prerendered form must not
    // put the password into the address bar (a GET would).
    <form method="post" onSubmit={handleSubmit} aria-busy={isBusy} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          ref={emailField}
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          required
          defaultValue={email}
          onChange={(event) => onEmailChange(event.target.value)}
          placeholder="you@example.com"
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-password`}>Password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          name="password"
          autoComplete={text.autoComplete}
          required
          minLength={mode === 'sign-up' ? 6 : undefined}
          aria-describedby={mode === 'sign-up' ? `${id}-hint` : undefined}
        />
        {mode === 'sign-up' && (
          <p id={`${id}-hint`} className="text-sm text-slate-700">
            Must be at least 6 characters
          </p>
        )}
        {forgot && (
          <button
            ref={forgotButton}
            id={forgot.id}
            type="button"
            onClick={forgot.onOpen}
            {...swapAttributes(forgot)}
            className="text-navy-800 hover:text-navy-600 focus-visible:outline-gold-500 min-h-11 self-end rounded px-1 text-sm font-semibold underline underline-offset-2 focus-visible:outline-2"
          >
            Forgot password?
          </button>
        )}
      </div>
      <Button type="submit" variant="gold" size="lg" disabled={isBusy} className="w-full">
        {isBusy ? text.busy : text.submit}
      </Button>
      <p role="status" className="sr-only">
        {isBusy ? text.busy : ''}
      </p>
    </form>
  );
}
