import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { PasswordResetRequest } from '../api/request-password-reset';
import { SetPasswordView, type SetPasswordViewProps } from './set-password-view';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup(props: Partial<SetPasswordViewProps> = {}) {
  const calls: { passwords: string[]; links: string[]; done: number } = { passwords: [], links: [], done: 0 };
  const all: SetPasswordViewProps = {
    state: { kind: 'ready', purpose: 'recovery', email: 'reader@example.com' },
    onSetPassword: async (password) => void calls.passwords.push(password),
    onRequestLink: async (email): Promise<PasswordResetRequest> => {
      calls.links.push(email);
      return { status: 'sent' };
    },
    onDone: () => void (calls.done += 1),
    ...props,
  };
  const router = createMemoryRouter(
    [
      {
        path: '/auth/set-password',
        element: (
          <>
            <Toaster />
            <SetPasswordView {...all} />
          </>
        ),
      },
      { path: '/auth', element: <p>page:/auth</p> },
    ],
    { initialEntries: ['/auth/set-password'] },
  );
  const view = render(<RouterProvider router={router} />);
  return { user: userEvent.setup(), calls, rerender: view.rerender, router, all };
}

async function choose(user: ReturnType<typeof userEvent.setup>, password: string, confirm = password) {
  await user.click(screen.getByLabelText('New password'));
  await user.paste(password);
  await user.click(screen.getByLabelText('Confirm password'));
  await user.paste(confirm);
}

afterEach(() => {
  toast.dismiss();
});

describe('SetPasswordView', () => {
  it('while the link is read, only says so', () => {
    setup({ state: { kind: 'checking' } });
    expect(screen.getByRole('status')).toHaveTextContent('Checking your link...');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('welcomes an invited buyer, focuses the heading, saves the password, then toasts and hands over', async () => {
    const pending = deferred();
    const seen: string[] = [];
    const { user, calls } = setup({
      state: { kind: 'ready', purpose: 'invite', email: 'buyer@example.com' },
      onSetPassword: (password) => {
        seen.push(password);
        return pending.promise;
      },
    });
    const heading = screen.getByRole('heading', { level: 1, name: 'Welcome! Your files are ready' });
    expect(heading).toHaveFocus();
    expect(screen.getByText(/Choose a password for buyer@example.com\./)).toBeInTheDocument();
    const password = screen.getByLabelText('New password');
    expect(password).toBeRequired();
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(password).toHaveAccessibleDescription('Must be at least 6 characters');

    await choose(user, 'secret1');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(seen).toEqual(['secret1']);
    expect(calls.done).toBe(0);

    pending.resolve();
    expect(await screen.findByText('Password set')).toBeInTheDocument();
    expect(screen.getByText('Redirecting to your resources...')).toBeInTheDocument();
    expect(calls.done).toBe(1);
  });

  it('after a sign-up confirmation says the address is confirmed and asks for the password to keep', async () => {
    const { user, calls } = setup({ state: { kind: 'ready', purpose: 'signup', email: 'new@example.com' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Your e-mail address is confirmed' })).toHaveFocus();
    expect(
      screen.getByText(/Choose the password you will sign in with from now on for new@example.com\./),
    ).toBeInTheDocument();
    await choose(user, 'kept-password');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(await screen.findByText('Password set')).toBeInTheDocument();
    expect(calls.passwords).toEqual(['kept-password']);
    expect(calls.done).toBe(1);
  });

  it('after a recovery link asks for a new password', async () => {
    const { user, calls } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByText('Choose a new password for reader@example.com.')).toBeInTheDocument();
    await choose(user, 'brand-new-pw');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password updated')).toBeInTheDocument();
    expect(calls.passwords).toEqual(['brand-new-pw']);
    expect(calls.done).toBe(1);
  });

  it.each([
    ['12345', '12345', 'Password must be at least 6 characters'],
    ['x'.repeat(101), 'x'.repeat(101), 'Password must be less than 100 characters'],
    ['secret1', 'secret2', 'Passwords do not match'],
  ])('refuses %s / %s with the sign-up message: %s', async (password, confirm, message) => {
    const { user, calls } = setup();
    await choose(user, password, confirm);
    await user.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(screen.getByRole('alert')).toHaveTextContent(message);
    const field = screen.getByLabelText('New password');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(`Must be at least 6 characters ${message}`);
    expect(calls.passwords).toEqual([]);
  });

  it('accepts exactly 6 and exactly 100 characters', async () => {
    const { user, calls } = setup();
    await choose(user, 'x'.repeat(100));
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password updated')).toBeInTheDocument();
    expect(calls.passwords).toEqual(['x'.repeat(100)]);
  });

  it('shows the provider message when saving fails, and stays', async () => {
    const { user, calls } = setup({
      onSetPassword: () => Promise.reject(new Error('New password should be different from the old password.')),
    });
    await choose(user, 'secret1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'New password should be different from the old password.',
    );
    expect(screen.getByRole('button', { name: 'Update Password' })).toBeEnabled();
    expect(calls.done).toBe(0);
  });

  it('an expired or used link says so and sends a new one, with the same answer for any address', async () => {
    const { user, calls } = setup({ state: { kind: 'link-error' } });
    expect(screen.getByRole('heading', { level: 1, name: 'This link has expired' })).toHaveFocus();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'reader@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      "If an account exists for reader@example.com, we've sent it a link to choose a new password.",
    );
    expect(calls.links).toEqual(['reader@example.com']);

    await user.click(screen.getByRole('link', { name: /Back to Sign In/ }));
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
  });

  it('a new link asked for too soon says how long to wait', async () => {
    const { user } = setup({
      state: { kind: 'link-error' },
      onRequestLink: async () => ({ status: 'rate-limited', retryAfterSeconds: null }),
    });
    await user.type(screen.getByLabelText('Email'), 'reader@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many e-mails have been sent just now. Please try again in a few minutes.',
    );
  });

  it('opened without a link and signed out, it explains and offers a link', () => {
    setup({ state: { kind: 'no-link' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Set your password' })).toBeInTheDocument();
    expect(screen.getByText(/Open the link in the e-mail we sent you/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeInTheDocument();
  });
});
