import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Field, Form, SubmitButton, useForm } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { privacy } from '@/content/privacy';
import { site } from '@/content/site';
import { toast } from '@/lib/toast';
import { checkCredentials, type Credentials } from '../lib/credentials-schema';
import type { PasswordResetRequest } from '../api/request-password-reset';
import { EmailField } from './email-field';
import { RequestLinkForm } from './request-link-form';

// Loaded only after a sign-up is sent (with what it imports): /auth hydrates without it.
const CheckEmail = lazy(() => import('./check-email'));

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

/**
 * Sign in or create an account: the schema check, the busy form (one at a time) and every
 * toast. A refusal is a toast; the form keeps what was typed.
 */
function useAuthSubmit({
  onSignIn,
  onSignUp,
  onSignedIn,
  onAwaiting,
}: Pick<AuthViewProps, 'onSignIn' | 'onSignUp' | 'onSignedIn'> & { onAwaiting: (credentials: Credentials) => void }) {
  const form = useForm<Mode>();

  async function signIn(credentials: Credentials) {
    await onSignIn(credentials);
    toast.success('Welcome back!', { description: 'Redirecting to your resources...' });
    onSignedIn();
  }

  async function signUp(credentials: Credentials) {
    const signedIn = await onSignUp(credentials);
    if (signedIn) {
      // Signed in already and on the way in: not "you can now sign in".
      toast.success('Account created!', { description: 'Welcome! Taking you to your resources...' });
      onSignedIn();
    } else {
      // Nothing to sign in with until the address is confirmed: the e-mail's code, typed on
      // the screen that replaces the form, signs them in with the password just typed.
      toast.success('Account created!', { description: 'Check your e-mail for your code.' });
      onAwaiting(credentials);
    }
  }

  async function submit(mode: Mode, credentials: Credentials) {
    const check = checkCredentials(credentials);
    if (!check.ok) {
      toast.error('Validation error', { description: check.message });
      return;
    }
    await form.run(mode, () => (mode === 'sign-in' ? signIn : signUp)(check.credentials), {
      onError: (message) =>
        toast.error(mode === 'sign-in' ? 'Sign in failed' : 'Sign up failed', { description: message }),
    });
  }

  return { form, submit };
}

/** The /auth screen: Sign In / Sign Up tabs, schema check, busy buttons and every toast. */
export function AuthView({ onRequestPasswordReset, ...actions }: AuthViewProps) {
  const [tab, setTab] = useState<Mode>('sign-in');
  // The Sign In tab shows either the sign-in form or "Forgot password?"'s e-mail form;
  // 'returned' is the sign-in form again after Back, which takes focus back to the link.
  const [forgot, setForgot] = useState<'closed' | 'open' | 'returned'>('closed');
  // One e-mail for both tabs: after "Account created!" the Sign In tab already has it.
  const [email, setEmail] = useState('');
  // The sign-up waiting for its code: the address and password, in this tab's memory only.
  const [awaiting, setAwaiting] = useState<Credentials | null>(null);
  const { form, submit } = useAuthSubmit({ ...actions, onAwaiting: setAwaiting });
  const id = useId();
  const ids = { signIn: `${id}-sign-in`, forgot: `${id}-forgot`, forgotLink: `${id}-forgot-link` };
  const shared = { email, onEmailChange: setEmail, form, onSubmit: submit };

  return (
    <AuthPage>
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
              {...shared}
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
          <div hidden={awaiting !== null}>
            <CredentialsForm mode="sign-up" {...shared} />
            <p className="mt-4 text-center text-sm text-slate-700">
              {privacy.signUpNote.text}{' '}
              <Link to={paths.privacy} className="text-navy-900 font-semibold underline underline-offset-4">
                {privacy.signUpNote.link}
              </Link>
            </p>
          </div>
          {awaiting && (
            <Suspense fallback={<p className="text-center text-sm text-slate-700">Loading...</p>}>
              <CheckEmail email={awaiting.email} password={awaiting.password} onBack={() => setAwaiting(null)} />
            </Suspense>
          )}
        </TabsContent>
      </Tabs>
    </AuthPage>
  );
}

/** The page around the card: the product's name, the card's title, and the way home. */
function AuthPage({ children }: { children: ReactNode }) {
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
          {children}
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

/** The sign-in form's "Forgot password?": swaps in the e-mail form; takes focus back on return. */
function ForgotLink({ forgot, focus }: { forgot: Swap & { id: string; onOpen: () => void }; focus: boolean }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus) button.current?.focus();
  }, [focus]);
  return (
    <button
      ref={button}
      id={forgot.id}
      type="button"
      onClick={forgot.onOpen}
      {...swapAttributes(forgot)}
      className="text-navy-800 hover:text-navy-600 focus-visible:outline-gold-500 min-h-11 self-end rounded px-1 text-sm font-semibold underline underline-offset-2 focus-visible:outline-2"
    >
      Forgot password?
    </button>
  );
}

/**
 * The fields are the record (uncontrolled): what they show is what was typed, also before the
 * app took over the prerendered form, which React would otherwise overwrite.
 */
function typedCredentials(form: HTMLFormElement): Credentials {
  const typed = (name: string) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLInputElement ? field.value : '';
  };
  return { email: typed('email'), password: typed('password') };
}

function CredentialsForm({
  mode,
  email,
  onEmailChange,
  form,
  onSubmit,
  forgot,
  focusForgot = false,
}: {
  mode: Mode;
  email: string;
  onEmailChange: (email: string) => void;
  /** The view's submit state: one form busy at a time. */
  form: ReturnType<typeof useForm<Mode>>;
  onSubmit: (mode: Mode, credentials: Credentials) => Promise<void>;
  /** The sign-in form's "Forgot password?": its id, what it swaps, and what the app does. */
  forgot?: Swap & { id: string; onOpen: () => void };
  /** Back from "Forgot password?" (this form mounted again): focus the control that left. */
  focusForgot?: boolean;
}) {
  const emailField = useRef<HTMLInputElement>(null);
  const id = useId();
  const isBusy = form.busy === mode;
  const text = copy[mode];

  function handleSubmit(element: HTMLFormElement) {
    const credentials = typedCredentials(element);
    if (credentials.email !== email) onEmailChange(credentials.email);
    return onSubmit(mode, credentials);
  }

  return (
    // method="post": a submit before the script has taken over the prerendered form must not
    // put the password into the address bar (a GET would).
    <Form state={form} onSubmit={handleSubmit} method="post" aria-busy={isBusy} className="flex flex-col gap-4">
      <EmailField id={`${id}-email`} fieldRef={emailField} email={email} onEmailChange={onEmailChange} />
      <Field
        id={`${id}-password`}
        label="Password"
        hint={mode === 'sign-up' ? 'Must be at least 6 characters' : undefined}
        hintSize="sm"
        after={forgot && <ForgotLink forgot={forgot} focus={focusForgot} />}
      >
        <Input
          type="password"
          name="password"
          autoComplete={text.autoComplete}
          required
          minLength={mode === 'sign-up' ? 6 : undefined}
        />
      </Field>
      <SubmitButton busy={isBusy} label={text.submit} busyLabel={text.busy} size="lg" className="w-full" announce />
    </Form>
  );
}
