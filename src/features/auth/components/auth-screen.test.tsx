import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render';
import { storeSession, useOfflineSupabaseEnv } from '@/testing/offline-supabase';

// The real auth provider and supabase-js client, offline: only the redirect decisions run.
beforeAll(useOfflineSupabaseEnv);

async function renderAuth(at: string) {
  const { AuthScreen } = await import('./auth-screen');
  return renderRoute(<AuthScreen />, { path: '/auth', at });
}

describe('AuthScreen', () => {
  it('shows the forms to a visitor', async () => {
    await renderAuth('/auth');
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('sends a signed-in user to /resources, without flashing the form while it checks', async () => {
    storeSession({ id: 'u-1', email: 'member@example.com' });
    await renderAuth('/auth');
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session...');
    expect(screen.queryByRole('tab', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(await screen.findByText('page:/resources')).toBeInTheDocument();
  });

  it('honours a same-site next', async () => {
    storeSession({ id: 'u-1', email: 'member@example.com' });
    const { router } = await renderAuth('/auth?next=/admin-upload');
    expect(await screen.findByText('page:/admin-upload')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin-upload');
  });

  it('ignores an off-site next', async () => {
    storeSession({ id: 'u-1', email: 'member@example.com' });
    await renderAuth('/auth?next=//evil.example/phish');
    expect(await screen.findByText('page:/resources')).toBeInTheDocument();
  });
});
