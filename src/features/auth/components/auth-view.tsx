import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { site } from '@/content/site';
import { checkCredentials, type Credentials } from '../lib/credentials-schema';
import { errorMessage } from '@/lib/error-message';

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
};

const copy = {
  'sign-in': { submit: 'Sign In', busy: 'Signing in...', autoComplete: 'current-password' },
  'sign-up': { submit: 'Create Account', busy: 'Creating account...', autoComplete: 'new-password' },
} as const;

/** The /auth screen: Sign In / Sign Up tabs, schema check, busy buttons and every toast. */
export function AuthView({ onSignIn, onSignUp, onSignedIn }: AuthViewProps) {
  const [tab, setTab] = useState<Mode>('sign-in');
  const [busy, setBusy] = useState<Mode | null>(null);
  // One e-mail for both tabs: after "Account created!" the Sign In tab already has it.
  const [email, setEmail] = useState('');

  async function submit(mode: Mode, password: string) {
    const check = checkCredentials({ email, password });
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
          toast.success('Account created!', { description: 'You can now sign in to access your resources.' });
          onSignedIn();
        } else {
          // Nothing to sign in with until the address is confirmed: say so, and be ready.
          toast.success('Account created!', { description: 'Check your email to confirm your address, then sign in.' });
          setTab('sign-in');
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
          <Tabs value={tab} onValueChange={(value) => setTab(value === 'sign-up' ? 'sign-up' : 'sign-in')}>
            <TabsList>
              <TabsTrigger value="sign-in">Sign In</TabsTrigger>
              <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
            </TabsList>
            <TabsContent value="sign-in">
              <CredentialsForm
                mode="sign-in"
                email={email}
                onEmailChange={setEmail}
                busy={busy}
                onSubmit={(password) => void submit('sign-in', password)}
              />
            </TabsContent>
            <TabsContent value="sign-up">
              <CredentialsForm
                mode="sign-up"
                email={email}
                onEmailChange={setEmail}
                busy={busy}
                onSubmit={(password) => void submit('sign-up', password)}
              />
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

function CredentialsForm({
  mode,
  email,
  onEmailChange,
  busy,
  onSubmit,
}: {
  mode: Mode;
  email: string;
  onEmailChange: (email: string) => void;
  busy: Mode | null;
  onSubmit: (password: string) => void;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const isBusy = busy === mode;
  const text = copy[mode];

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    onSubmit(password);
  }

  return (
    // method="post": a submit before the script has taken over the prerendered form must not
    // put the password into the address bar (a GET would).
    <form method="post" onSubmit={handleSubmit} aria-busy={isBusy} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
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
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {mode === 'sign-up' && (
          <p id={`${id}-hint`} className="text-sm text-slate-700">
            Must be at least 6 characters
          </p>
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
