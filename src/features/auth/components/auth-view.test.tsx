import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { PasswordResetRequest } from '../api/request-password-reset';
import type { Credentials } from '../lib/credentials-schema';
import { AuthView, type AuthViewProps } from './auth-view';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup(props: Partial<AuthViewProps> = {}) {
  const calls: { signIn: Credentials[]; signUp: Credentials[]; signedIn: number; reset: string[] } = {
    signIn: [],
    signUp: [],
    signedIn: 0,
    reset: [],
  };
  const all: AuthViewProps = {
    onSignIn: async (credentials) => void calls.signIn.push(credentials),
    onSignUp: async (credentials) => {
      calls.signUp.push(credentials);
      return false;
    },
    onSignedIn: () => void (calls.signedIn += 1),
    onRequestPasswordReset: async (email) => {
      calls.reset.push(email);
      return { status: 'sent' };
    },
    ...props,
  };
  const router = createMemoryRouter(
    [
      {
        path: '/auth',
        element: (
          <>
            <Toaster />
            <AuthView {...all} />
          </>
        ),
      },
      { path: '/', element: <p>page:/</p> },
    ],
    { initialEntries: ['/auth'] },
  );
  render(<RouterProvider router={router} />);
  return { user: userEvent.setup(), calls };
}

/** The one Email field on screen: the other panels and views are in the page too, hidden. */
const emailField = () => screen.getByRole('textbox', { name: 'Email' });
/** The shown panel's password field (a password field has no role to find it by). */
const passwordField = () => within(screen.getByRole('tabpanel')).getByLabelText('Password');

async function fill(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(emailField(), email);
  await user.type(passwordField(), password);
}

// Sonner replays still-active toasts to a newly mounted Toaster: clear them between tests.
afterEach(() => {
  toast.dismiss();
});

describe('AuthView', () => {
  it('shows the header, card title, tabs and Back to Home', async () => {
    const { user } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Yes, You Can!' })).toBeInTheDocument();
    expect(screen.getByText('Access your exclusive subscriber resources')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Subscriber Access' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign In', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign Up', selected: false })).toBeInTheDocument();
    expect(emailField()).toBeRequired();
    expect(passwordField()).toBeRequired();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();

    await user.click(screen.getByRole('link', { name: /Back to Home/ }));
    expect(await screen.findByText('page:/')).toBeInTheDocument();
  });

  it('signs in with trimmed credentials, shows the busy label, then welcomes and hands over', async () => {
    const pending = deferred();
    const seen: Credentials[] = [];
    const { user, calls } = setup({
      onSignIn: (credentials) => {
        seen.push(credentials);
        return pending.promise;
      },
    });
    await fill(user, '  writer@example.com ', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(screen.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(seen).toEqual([{ email: 'writer@example.com', password: 'secret1' }]);
    expect(calls.signedIn).toBe(0);

    pending.resolve();
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByText('Redirecting to your resources...')).toBeInTheDocument();
    expect(calls.signedIn).toBe(1);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('signs in with what the fields show, also text typed before the app took over the page', async () => {
    const { user, calls } = setup();
    // Typed into the prerendered form before hydration: in the fields, no change event seen.
    const email = emailField() as HTMLInputElement;
    const password = passwordField() as HTMLInputElement;
    email.value = 'early@example.com';
    password.value = 'secret1';
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(calls.signIn).toEqual([{ email: 'early@example.com', password: 'secret1' }]);
    // Another render does not wipe them.
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(email).toHaveValue('early@example.com');
    expect(password).toHaveValue('secret1');
  });

  it('shows the provider message when sign-in fails and does not hand over', async () => {
    const { user, calls } = setup({ onSignIn: () => Promise.reject(new Error('Invalid login credentials')) });
    await fill(user, 'writer@example.com', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Sign in failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid login credentials')).toBeInTheDocument();
    expect(calls.signedIn).toBe(0);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it.each([
    ['a@b', 'secret1', 'Invalid email address'],
    ['writer@example.com', '12345', 'Password must be at least 6 characters'],
    ['writer@example.com', 'x'.repeat(101), 'Password must be less than 100 characters'],
  ])('rejects %s / %s with a Validation error toast: %s', async (email, password, message) => {
    const { user, calls } = setup();
    await user.type(emailField(), email);
    // user.type is slow for 101 characters; paste is what a person would do anyway.
    await user.click(passwordField());
    await user.paste(password);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Validation error')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(calls.signIn).toEqual([]);
  });

  it('signs up with the hint and minimum length; awaiting confirmation, it asks to check the e-mail', async () => {
    const pending = deferred<boolean>();
    const seen: Credentials[] = [];
    const { user, calls } = setup({
      onSignUp: (credentials) => {
        seen.push(credentials);
        return pending.promise;
      },
    });
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    const password = passwordField();
    expect(password).toHaveAttribute('minLength', '6');
    expect(password).toHaveAccessibleDescription('Must be at least 6 characters');

    await fill(user, 'new@example.com', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByRole('button', { name: 'Creating account...' })).toBeDisabled();
    expect(seen).toEqual([{ email: 'new@example.com', password: 'secret1' }]);

    // No session came back: the address must be confirmed. The Sign Up tab asks for the
    // e-mail's code, which signs them in with the password just typed
    // (docs/decisions/064-code-in-the-same-tab-keeps-the-password.md).
    pending.resolve(false);
    expect(await screen.findByText('Account created!')).toBeInTheDocument();
    expect(screen.getByText('Check your e-mail for your code.')).toBeInTheDocument();
    expect(screen.queryByText('You can now sign in to access your resources.')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toHaveFocus();
    expect(screen.getByText('new@example.com')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Create Account' })).not.toBeInTheDocument();
    expect(calls.signedIn).toBe(0);

    // "Use another address" brings the form back with what was typed.
    await user.click(screen.getByRole('button', { name: 'Use another address' }));
    expect(emailField()).toHaveValue('new@example.com');
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeVisible();
  });

  it('hands a sign-up that came back signed in straight over, never telling them to sign in', async () => {
    const { user, calls } = setup({ onSignUp: async () => true });
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(user, 'new@example.com', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Account created!')).toBeInTheDocument();
    const shown = screen.getByText('Account created!').closest('li');
    expect(shown).toHaveTextContent('Welcome! Taking you to your resources...');
    expect(shown).not.toHaveTextContent(/sign in/i);
    expect(calls.signedIn).toBe(1);
    // No detour through the Sign In tab: the container redirects.
    expect(screen.getByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
  });

  it('shows the provider message when sign-up fails', async () => {
    const { user } = setup({ onSignUp: () => Promise.reject(new Error('User already registered')) });
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(user, 'taken@example.com', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Sign up failed')).toBeInTheDocument();
    expect(screen.getByText('User already registered')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  });

  it('validates the sign-up form with the same schema', async () => {
    const onSignUp = vi.fn(async () => false);
    const { user } = setup({ onSignUp });
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await fill(user, 'writer@nowhere', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    const shown = (await screen.findByText('Validation error')).closest('li');
    expect(shown).not.toBeNull();
    expect(within(shown as HTMLElement).getByText('Invalid email address')).toBeInTheDocument();
    expect(onSignUp).not.toHaveBeenCalled();
  });

  describe('Forgot password?', () => {
    it('opens an e-mail form in the Sign In tab, keeps the typed e-mail, and gives the same answer for any address', async () => {
      const pending = deferred<PasswordResetRequest>();
      const { user, calls } = setup({
        onRequestPasswordReset: (email) => {
          calls.reset.push(email);
          return pending.promise;
        },
      });
      await user.type(emailField(), 'Reader@example.com');
      await user.click(screen.getByRole('button', { name: 'Forgot password?' }));

      expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
      expect(passwordField()).not.toBeVisible();
      const email = emailField();
      expect(email).toHaveValue('Reader@example.com');
      expect(email).toHaveFocus();

      await user.click(screen.getByRole('button', { name: 'Send reset link' }));
      expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
      expect(calls.reset).toEqual(['Reader@example.com']);
      pending.resolve({ status: 'sent' });
      expect(await screen.findByRole('status')).toHaveTextContent(
        "If an account exists for Reader@example.com, we've sent it a link to choose a new password.",
      );
      expect(screen.getByRole('alert')).toBeEmptyDOMElement();
      expect(calls.signIn).toEqual([]);
    });

    it('says how long to wait when the address was sent a link a moment ago (429)', async () => {
      const { user } = setup({
        onRequestPasswordReset: async () => ({ status: 'rate-limited', retryAfterSeconds: 42 }),
      });
      await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
      await user.type(emailField(), 'reader@example.com');
      await user.click(screen.getByRole('button', { name: 'Send reset link' }));

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Too many requests for this address. Please wait 42 seconds, then try again.',
      );
      expect(screen.getByRole('status')).toBeEmptyDOMElement();
      expect(screen.getByRole('button', { name: 'Send reset link' })).toBeEnabled();
    });

    it('checks the address with the sign-up rule first, and shows any other failure', async () => {
      const onRequestPasswordReset = vi.fn(async (): Promise<PasswordResetRequest> => {
        throw new Error('Failed to fetch');
      });
      const { user } = setup({ onRequestPasswordReset });
      await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
      await user.type(emailField(), 'reader@nowhere');
      await user.click(screen.getByRole('button', { name: 'Send reset link' }));
      expect(screen.getByRole('alert')).toHaveTextContent('Invalid email address');
      expect(emailField()).toHaveAccessibleDescription('Invalid email address');
      expect(emailField()).toHaveFocus();
      expect(onRequestPasswordReset).not.toHaveBeenCalled();

      await user.type(emailField(), '.com');
      await user.click(screen.getByRole('button', { name: 'Send reset link' }));
      expect(await screen.findByText('Failed to fetch')).toBeInTheDocument();
      expect(emailField()).not.toHaveAccessibleDescription();
    });

    it('Back to Sign In returns to the sign-in form with focus on Forgot password?', async () => {
      const { user } = setup();
      await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
      await user.type(emailField(), 'reader@example.com');
      await user.click(screen.getByRole('button', { name: 'Back to Sign In' }));

      expect(passwordField()).toBeVisible();
      expect(emailField()).toHaveValue('reader@example.com');
      expect(screen.getByRole('button', { name: 'Forgot password?' })).toHaveFocus();
    });

    it('is only on the Sign In tab', async () => {
      const { user } = setup();
      await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
      expect(screen.queryByRole('button', { name: 'Forgot password?' })).not.toBeInTheDocument();
    });
  });
});
