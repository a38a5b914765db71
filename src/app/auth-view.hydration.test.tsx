import { act, screen, within } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdInteractions } from '@/boot/hold-until-app';
import type { Credentials } from '@/features/auth/lib/credentials-schema';
import { AuthView } from '@/features/auth/components/auth-view';

// What the visitor of a prerendered /auth does before the app runs (src/boot/main.ts holds it with
// holdInteractions), then the app hydrating that page: it must adopt what it finds, with no
// hydration error, and send what was typed.

afterEach(() => {
  document.body.innerHTML = '';
});

function prerendered() {
  const calls = { signUp: [] as Credentials[], reset: [] as string[] };
  const view = (
    <MemoryRouter initialEntries={['/auth']}>
      <AuthView
        onSignIn={async () => {}}
        onSignUp={async (credentials) => {
          calls.signUp.push(credentials);
          return false;
        }}
        onSignedIn={() => {}}
        onRequestPasswordReset={async (email) => {
          calls.reset.push(email);
          return { status: 'sent' };
        }}
      />
    </MemoryRouter>
  );
  const root = document.createElement('div');
  root.innerHTML = renderToString(view);
  document.body.append(root);
  const held = holdInteractions(root);
  async function startApp() {
    const errors: unknown[] = [];
    // The page's answers (a tab, a view) differ from what the server rendered until the replay
    // brings React there: development React says so, and the only thing it may say is that.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await act(async () => {
        hydrateRoot(root, view, { onRecoverableError: (error) => errors.push(error) });
      });
      await act(async () => held.release());
    } finally {
      logged.mockRestore();
    }
    for (const [message] of logged.mock.calls) {
      expect(String(message)).toMatch(/^A tree hydrated but some attributes of the server rendered HTML didn't match/);
    }
    return errors;
  }
  return { calls, startApp };
}

/** Types as a person does: into the field's value, with the input event the browser sends. */
function type(field: HTMLElement, text: string) {
  (field as HTMLInputElement).value = text;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('AuthView hydrated over what the visitor did first', () => {
  it('Sign Up, typed, Create Account: the app opens on Sign Up and creates the account typed', async () => {
    const { calls, startApp } = prerendered();
    screen.getByRole('tab', { name: 'Sign Up' }).click();
    const form = screen.getByRole('tabpanel', { name: 'Sign Up' });
    const email = within(form).getByRole('textbox', { name: 'Email' });
    email.focus();
    type(email, 'early@example.com');
    type(within(form).getByLabelText('Password'), 'secret1');
    within(form).getByRole('button', { name: 'Create Account' }).click();

    expect(await startApp()).toEqual([]);
    expect(calls.signUp).toEqual([{ email: 'early@example.com', password: 'secret1' }]);
    // Awaiting confirmation, the app stays on Sign Up and asks for the code sent to the address
    // the visitor typed (docs/decisions/064-code-in-the-same-tab-keeps-the-password.md).
    expect(await screen.findByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
    expect(screen.getByText('early@example.com')).toBeVisible();
    expect(screen.getByRole('textbox', { name: '6-digit code' })).toBeInTheDocument();
  });

  it('Forgot password?, typed, Send: the app sends the link to the address typed', async () => {
    const { calls, startApp } = prerendered();
    screen.getByRole('button', { name: 'Forgot password?' }).click();
    const email = screen.getByRole('textbox', { name: 'Email' });
    expect(email).toHaveFocus();
    type(email, 'reader@example.com');
    screen.getByRole('button', { name: 'Send reset link' }).click();

    expect(await startApp()).toEqual([]);
    expect(calls.reset).toEqual(['reader@example.com']);
    expect(await screen.findByText(/If an account exists for reader@example.com/)).toBeInTheDocument();
    // The app has the state the page showed: Back returns to the sign-in form.
    expect(email).toHaveFocus();
    await act(async () => screen.getByRole('button', { name: 'Back to Sign In' }).click());
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toHaveFocus();
  });
});
