import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_STORAGE_KEY } from '@/config/auth-storage';
import type { Tier } from '@/content/tiers';
import { storeSession, useOfflineSupabaseEnv } from '@/testing/offline-supabase';
import { renderRoute } from '@/testing/render';

// The real loader, auth provider and supabase-js client, offline: the gate's decisions only.
beforeAll(useOfflineSupabaseEnv);

/** `tier`: what this render's cache already knows (the offline client cannot ask). */
async function renderResources(tier?: { userId: string; tier: Tier | null }) {
  // Imported after the env is set: these modules make the client at load.
  const { Component, resourcesLoader } = await import('./resources');
  const { tierKeys } = await import('@/features/tiers');
  return renderRoute(<Component />, {
    path: '/resources',
    loader: (client) => {
      if (tier) client.setQueryData(tierKeys.detail(tier.userId), tier.tier);
      return resourcesLoader(client);
    },
  });
}

describe('/resources gate (route loader)', () => {
  it('sends a visitor to /auth?next=/resources from the loader, never rendering the page', async () => {
    const { router } = await renderResources();
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/resources');
    expect(screen.queryByRole('heading', { name: 'Subscriber Resources' })).not.toBeInTheDocument();
  });

  it('lets a signed-in user in, and sends them to /auth when another tab signs out', async () => {
    storeSession({ id: 'u-2', email: 'member@example.com' });
    const { router } = await renderResources({ userId: 'u-2', tier: 'ebook' });
    // Signed in: the loader lets the page render, with the tier it prefetched.
    expect(await screen.findByText('Current Tier: Ebook Only')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/resources');

    // Another tab signing out: it removes the session from the storage the tabs share, and
    // supabase-js tells its other tabs over a BroadcastChannel named after the storage key;
    // this does exactly both.
    window.localStorage.removeItem(AUTH_STORAGE_KEY);
    const otherTab = new BroadcastChannel(AUTH_STORAGE_KEY);
    otherTab.postMessage({ event: 'SIGNED_OUT', session: null });
    otherTab.close();
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/resources');
  });

  it('goes to /auth on the broadcast sign-out even while this tab still sees the old stored session', async () => {
    // Across tabs the broadcast can arrive before this tab's localStorage sees the removal
    // (seen in Chromium under load): the page must follow the auth event, not re-read storage.
    storeSession({ id: 'u-3', email: 'member@example.com' });
    const { router } = await renderResources({ userId: 'u-3', tier: 'ebook' });
    expect(await screen.findByText('Current Tier: Ebook Only')).toBeInTheDocument();

    const otherTab = new BroadcastChannel(AUTH_STORAGE_KEY);
    otherTab.postMessage({ event: 'SIGNED_OUT', session: null });
    otherTab.close();
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/resources');
  });
});
