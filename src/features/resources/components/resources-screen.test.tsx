import { act, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_STORAGE_KEY } from '@/config/auth-storage';
import { storeSession, useOfflineSupabaseEnv } from '@/testing/offline-supabase';
import { renderRoute } from '@/testing/render';

// The real auth provider and supabase-js client, offline: the gate's decisions only.
beforeAll(useOfflineSupabaseEnv);

async function renderResources() {
  const { ResourcesScreen } = await import('./resources-screen');
  return renderRoute(<ResourcesScreen />, { path: '/resources' });
}

describe('ResourcesScreen gate', () => {
  it('shows the loading state, then sends a visitor to /auth?next=/resources', async () => {
    const { router } = await renderResources();
    expect(screen.getByText('Loading your resources...')).toBeInTheDocument();
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/resources');
  });

  it('sends the user to /auth when another tab signs out', async () => {
    storeSession({ id: 'u-2', email: 'member@example.com' });
    const { router } = await renderResources();
    const { supabase } = await import('@/lib/supabase');
    // Signed in: the page stays (its data calls cannot reach a server here, so it keeps loading).
    await act(async () => {
      await supabase.auth.getSession();
    });
    expect(router.state.location.pathname).toBe('/resources');
    expect(screen.getByText('Loading your resources...')).toBeInTheDocument();

    // Another tab signing out: supabase-js tells its other tabs over a BroadcastChannel
    // named after the storage key; this posts exactly that message.
    const otherTab = new BroadcastChannel(AUTH_STORAGE_KEY);
    otherTab.postMessage({ event: 'SIGNED_OUT', session: null });
    otherTab.close();
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/resources');
  });
});
