import { render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { ReadState } from '@/lib/read-state';
import type { MemberRow, MembersPage } from '../lib/members';
import { StaffMembersView, type StaffMembersViewProps } from './members-view';

afterEach(() => {
  toast.dismiss();
});

const member = (n: number, more: Partial<MemberRow> = {}): MemberRow => ({
  userId: `u${n}`,
  email: `member${n}@example.com`,
  tier: null,
  tierSource: null,
  purchaseCount: 0,
  createdAt: '2026-11-01T10:00:00Z',
  lastSignInAt: null,
  ...more,
});

function ready(data: MembersPage, more: { refreshFailed?: boolean } = {}): ReadState<MembersPage> {
  return { status: 'ready', data, refreshFailed: false, retrying: false, retry: () => undefined, ...more };
}

function setup(props: Partial<StaffMembersViewProps> = {}) {
  const calls: unknown[][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      void calls.push([name, ...args]);
  const router = createMemoryRouter(
    [
      {
        path: '/staff/members',
        element: (
          <>
            <Toaster />
            <StaffMembersView
              search=""
              onSearch={record('search')}
              offset={0}
              pageSize={25}
              onPageChange={record('page')}
              page={ready({ members: [member(1)], total: 1 })}
              chosen={null}
              onChoose={record('choose')}
              onExport={() => Promise.resolve({ count: 1, filename: 'members-2026-11-23.csv' })}
              {...props}
            />
          </>
        ),
      },
    ],
    { initialEntries: ['/staff/members'] },
  );
  render(<RouterProvider router={router} />);
  return { user: userEvent.setup(), calls };
}

describe('StaffMembersView', () => {
  it('lists members with tier, source and purchases, and says which slice it shows', () => {
    setup({
      offset: 25,
      page: ready({
        members: [
          member(26, { tier: 'foundation', tierSource: 'purchase', purchaseCount: 2 }),
          member(27, { tier: 'complete', tierSource: 'staff' }),
        ],
        total: 60,
      }),
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Members' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Showing 26–27 of 60');
    const table = screen.getByRole('table', { name: 'Members, ordered by e-mail' });
    const first = within(table).getByRole('row', { name: /member26@example\.com/ });
    expect(within(first).getByRole('cell', { name: 'Foundation Builder' })).toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: 'Purchase' })).toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: '2' })).toBeInTheDocument();
    const second = within(table).getByRole('row', { name: /member27@example\.com/ });
    expect(within(second).getByRole('cell', { name: 'Staff grant' })).toBeInTheDocument();
    // The table scrolls inside its own keyboard-reachable region at 360 px.
    expect(screen.getByRole('region', { name: 'Members, ordered by e-mail' })).toHaveAttribute('tabindex', '0');
  });

  it('pages back and forward by the page size, and stops at the ends', async () => {
    const middle = setup({
      offset: 25,
      page: ready({ members: Array.from({ length: 25 }, (_, i) => member(26 + i)), total: 60 }),
    });
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    await middle.user.click(screen.getByRole('button', { name: 'Previous' }));
    await middle.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(middle.calls).toEqual([
      ['page', 0],
      ['page', 50],
    ]);
  });

  it('disables Previous on the first page and Next on the last', () => {
    setup({ offset: 0, page: ready({ members: [member(1), member(2)], total: 2 }) });
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('searches with the trimmed term', async () => {
    const { user, calls } = setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search by e-mail' }), '  Ann@Example ');
    await user.keyboard('{Enter}');
    expect(calls).toEqual([['search', 'Ann@Example']]);
  });

  it('chooses a member from their row', async () => {
    const { user, calls } = setup();
    await user.click(screen.getByRole('button', { name: 'Manage member1@example.com' }));
    expect(calls).toEqual([['choose', { userId: 'u1', email: 'member1@example.com' }]]);
  });

  it('shows loading, could-not-load and empty as three different things', async () => {
    setup({ page: { status: 'loading', retrying: false } });
    expect(screen.getByRole('status')).toHaveTextContent('Loading members...');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('could not load: says so and retries', async () => {
    let retried = 0;
    const { user } = setup({
      page: { status: 'error', error: new Error('Failed to fetch'), retrying: false, retry: () => void retried++ },
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load the members.");
    expect(alert).toHaveTextContent('Failed to fetch');
    expect(screen.queryByText(/no members/i)).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(retried).toBe(1);
  });

  it('empty: names the search and offers everyone', async () => {
    const { user, calls } = setup({ search: 'zz', page: ready({ members: [], total: 0 }) });
    expect(screen.getByText('No members match “zz”.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show everyone' }));
    expect(calls).toEqual([['search', '']]);
  });

  it('empties the search box when Show everyone clears the search', async () => {
    function Harness() {
      const [search, setSearch] = useState('');
      return (
        <StaffMembersView
          search={search}
          onSearch={setSearch}
          offset={0}
          pageSize={25}
          onPageChange={() => undefined}
          page={ready(search ? { members: [], total: 0 } : { members: [member(1)], total: 1 })}
          chosen={null}
          onChoose={() => undefined}
          onExport={() => Promise.reject(new Error('not exported here'))}
        />
      );
    }
    render(<RouterProvider router={createMemoryRouter([{ path: '/', element: <Harness /> }])} />);
    const user = userEvent.setup();
    const box = screen.getByRole('searchbox', { name: 'Search by e-mail' });
    await user.type(box, 'zz{Enter}');
    expect(screen.getByText('No members match “zz”.')).toBeInTheDocument();
    // Searching keeps the keyboard where it was.
    expect(box).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Show everyone' }));
    expect(box).toHaveValue('');
    expect(screen.getByRole('row', { name: /member1@example\.com/ })).toBeInTheDocument();
  });

  it('exports and says how many went into which file', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Export ready')).toBeInTheDocument();
    expect(screen.getByText('members-2026-11-23.csv: 1 member.')).toBeInTheDocument();
  });

  it('says so when the export fails, and shows it is busy meanwhile', async () => {
    let fail: (error: Error) => void = () => undefined;
    const { user } = setup({
      onExport: () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
    });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(screen.getByRole('button', { name: 'Exporting...' })).toHaveAttribute('aria-disabled', 'true');
    fail(new Error('permission denied'));
    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(screen.getByText('permission denied')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).not.toHaveAttribute('aria-disabled');
  });
});
