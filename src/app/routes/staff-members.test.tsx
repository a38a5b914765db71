import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeSession, useOfflineSupabaseEnv } from '@/testing/offline-supabase';
import { renderRoute } from '@/testing/render';

// The real loader, auth provider and supabase-js client, offline: the gate's decisions only.
beforeAll(useOfflineSupabaseEnv);

async function renderMembers(staff?: { userId: string; staff: boolean }) {
  const { Component, staffMembersLoader } = await import('./staff-members');
  const { staffKeys } = await import('@/features/staff/api/is-staff');
  return renderRoute(<Component />, {
    path: '/staff/members',
    loader: (client) => {
      if (staff) client.setQueryData(staffKeys.isStaff(staff.userId), staff.staff);
      return staffMembersLoader(client);
    },
  });
}

describe('/staff/members gate (route loader)', () => {
  it('sends a visitor to /auth?next=/staff/members, never rendering the page', async () => {
    const { router } = await renderMembers();
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/staff/members');
    expect(screen.queryByRole('heading', { name: 'Members' })).not.toBeInTheDocument();
  });

  it('shows a signed-in member who is not staff the staff-only page', async () => {
    storeSession({ id: 'u-member', email: 'member@example.com' });
    await renderMembers({ userId: 'u-member', staff: false });
    expect(await screen.findByRole('heading', { name: 'Staff only' })).toBeInTheDocument();
    expect(screen.getByText(/Managing members is for/)).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });
});
