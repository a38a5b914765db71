import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeSession, useOfflineSupabaseEnv } from '@/testing/offline-supabase';
import { renderRoute } from '@/testing/render';

// The real loader, auth provider and supabase-js client, offline: the gate's decisions only.
beforeAll(useOfflineSupabaseEnv);

async function renderSessions(staff?: { userId: string; staff: boolean }) {
  const { Component, staffSessionsLoader } = await import('./staff-sessions');
  const { staffKeys } = await import('@/features/staff/api/is-staff');
  return renderRoute(<Component />, {
    path: '/staff/sessions',
    loader: (client) => {
      if (staff) client.setQueryData(staffKeys.isStaff(staff.userId), staff.staff);
      return staffSessionsLoader(client);
    },
  });
}

describe('/staff/sessions gate (route loader)', () => {
  it('sends a visitor to /auth?next=/staff/sessions, never rendering the page', async () => {
    const { router } = await renderSessions();
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/staff/sessions');
    expect(screen.queryByRole('heading', { name: 'Sessions' })).not.toBeInTheDocument();
  });

  it('shows a signed-in member who is not staff the staff-only page', async () => {
    storeSession({ id: 'u-member', email: 'member@example.com' });
    await renderSessions({ userId: 'u-member', staff: false });
    expect(await screen.findByRole('heading', { name: 'Staff only' })).toBeInTheDocument();
    expect(screen.getByText(/Seeing the coaching sessions is for/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Unmatched bookings' })).not.toBeInTheDocument();
  });

  it('shows staff the page', async () => {
    storeSession({ id: 'u-staff', email: 'staff@example.com' });
    await renderSessions({ userId: 'u-staff', staff: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sessions' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Unmatched bookings' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Upcoming sessions' })).toBeInTheDocument();
  });
});
