import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { ReadState } from '@/lib/read-state';
import type { LiveOverview, StaffLiveSession } from '../lib/live';
import { LiveAttentionView } from './live-attention-view';

const now = new Date('2027-01-10T12:00:00Z');

const session = (id: string, startsAt: string, more: Partial<StaffLiveSession> = {}): StaffLiveSession => ({
  id,
  benefit: 'circle',
  label: 'Group coaching circle',
  title: `Circle ${id}`,
  startsAt,
  minutes: 60,
  joinUrl: 'https://zoom.us/j/1',
  description: null,
  recordingPath: null,
  cancelledAt: null,
  holders: [],
  ...more,
});

const ready = (data: LiveOverview): ReadState<LiveOverview> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

function renderView(overview: ReadState<LiveOverview>) {
  render(
    <MemoryRouter>
      <section aria-label="Needs attention">
        <LiveAttentionView overview={overview} now={now} timeZone="UTC" />
      </section>
    </MemoryRouter>,
  );
  return screen.getByRole('region', { name: 'Needs attention' });
}

describe('LiveAttentionView', () => {
  it('shows the next three sessions not cancelled, with their time and holders, leading to the sessions page', () => {
    const attention = renderView(
      ready({
        sessions: [
          session('over', '2027-01-09T18:00:00Z'),
          session('a', '2027-01-11T18:00:00Z', { holders: ['ann@example.com', 'bob@example.com'] }),
          session('cancelled', '2027-01-12T18:00:00Z', { cancelledAt: '2027-01-05T00:00:00Z' }),
          session('b', '2027-01-13T18:00:00Z', { holders: ['ann@example.com'] }),
          session('c', '2027-01-14T18:00:00Z'),
          session('d', '2027-01-15T18:00:00Z'),
        ],
        benefits: [],
        ending: [],
      }),
    );
    const next = within(attention).getByRole('region', { name: 'Next live sessions' });
    const items = within(next).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Circle aMon, 11 Jan 2027, 18:00–19:00 UTC · 2 members hold this',
      'Circle bWed, 13 Jan 2027, 18:00–19:00 UTC · 1 member holds this',
      'Circle cThu, 14 Jan 2027, 18:00–19:00 UTC · No member holds this',
    ]);
    expect(within(next).getByRole('link', { name: 'Schedule and change live sessions' })).toHaveAttribute(
      'href',
      '/staff/sessions',
    );
  });

  it('lists the access ending this week, each leading to the member', () => {
    const attention = renderView(
      ready({
        sessions: [],
        benefits: [],
        ending: [
          {
            userId: 'u1',
            email: 'ann@example.com',
            benefit: 'community',
            label: 'Community access',
            endsAt: '2027-01-14T09:00:00Z',
          },
        ],
      }),
    );
    const ending = within(attention).getByRole('region', { name: 'Access ending this week' });
    expect(within(ending).getByRole('listitem')).toHaveTextContent(
      'ann@example.comCommunity access: ends 14 January 2027',
    );
    expect(within(ending).getByRole('link', { name: 'ann@example.com' })).toHaveAttribute(
      'href',
      '/staff/members?member=u1&search=ann%40example.com',
    );
    expect(within(attention).getByRole('region', { name: 'Next live sessions' })).toHaveTextContent('None scheduled.');
  });

  it('says when no access ends this week', () => {
    const attention = renderView(ready({ sessions: [], benefits: [], ending: [] }));
    expect(within(attention).getByRole('region', { name: 'Access ending this week' })).toHaveTextContent(
      'No community access ends in the next 7 days.',
    );
  });

  it('says when the overview could not be read, with a retry', async () => {
    const retry = vi.fn();
    renderView({ status: 'error', error: new Error('offline'), retrying: false, retry });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the live sessions.offline");
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalled();
  });
});
