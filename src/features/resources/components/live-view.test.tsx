import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Benefit, Live, LiveSession } from '../lib/live';
import { LiveView } from './live-view';

const now = new Date('2027-03-01T12:00:00Z');
const timeZone = 'Europe/London';

const community: Benefit = {
  benefit: 'community',
  label: 'Community access',
  starts_at: '2026-12-07T12:00:00Z',
  ends_at: '2027-03-07T12:00:00Z',
  active: true,
  link: 'https://community.example.com/circle',
};

function session(over: Partial<LiveSession>): LiveSession {
  return {
    id: 'c0a80101-0000-4000-8000-000000000001',
    benefit: 'circle',
    label: 'Group coaching circle',
    title: 'Circle one',
    starts_at: '2027-03-28T18:00:00Z',
    minutes: 120,
    description: null,
    cancelled: false,
    recording_path: null,
    joinable: false,
    ...over,
  };
}

function ready(data: Partial<Live>) {
  const live: Live = { benefits: [community], sessions: [], ...data };
  return { status: 'ready' as const, data: live, refreshFailed: false, retrying: false, retry: () => {} };
}

describe('LiveView', () => {
  it('shows the community’s end date and link while it lasts', () => {
    render(<LiveView live={ready({})} now={now} timeZone={timeZone} renderJoin={() => null} />);
    const region = screen.getByRole('region', { name: 'Live sessions and community' });
    expect(region).toHaveTextContent('Community access until 7 March 2027');
    expect(within(region).getByRole('link', { name: /^Open the community/ })).toHaveAttribute(
      'href',
      'https://community.example.com/circle',
    );
  });

  it('says an ended access ended, with no link and the way to continue', () => {
    const ended = { ...community, active: false, link: null, ends_at: '2027-02-20T09:00:00Z' };
    render(<LiveView live={ready({ benefits: [ended] })} now={now} timeZone={timeZone} renderJoin={() => null} />);
    expect(screen.getByText(/Your community access ended on 20 February 2027/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Open the/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'the bundles' })).toHaveAttribute('href', '/bundles');
  });

  it('lists the sessions to come in the viewer’s zone, with Join only where the container gives it', () => {
    const sessions = [
      session({ id: 'a', title: 'After the change', starts_at: '2027-03-28T18:00:00Z' }),
      session({ id: 'b', title: 'Before the change', starts_at: '2027-03-21T18:00:00Z', joinable: true }),
      session({ id: 'c', title: 'Called off', starts_at: '2027-03-22T18:00:00Z', cancelled: true }),
      session({ id: 'd', title: 'Held already', starts_at: '2027-02-01T18:00:00Z' }),
    ];
    render(
      <LiveView
        live={ready({ sessions })}
        now={now}
        timeZone={timeZone}
        renderJoin={(s) => (s.joinable ? <a href="https://meet.example.com/b">Join now</a> : null)}
      />,
    );
    const items = screen.getAllByRole('listitem');
    const [after, before] = [items[0]!, items[1]!];
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual([
      'After the change (Group coaching circle)',
      'Before the change (Group coaching circle)',
    ]);
    // The same 18:00 UTC is 6 pm before the clocks change and 7 pm after.
    expect(after).toHaveTextContent('7:00 pm BST');
    expect(before).toHaveTextContent('6:00 pm GMT');
    expect(within(before).getByRole('link', { name: 'Join now' })).toBeInTheDocument();
    expect(within(after).queryByRole('link', { name: 'Join now' })).not.toBeInTheDocument();
    expect(
      within(after)
        .getByRole('link', { name: /Google Calendar/ })
        .getAttribute('href'),
    ).toContain('dates=20270328T180000Z%2F20270328T200000Z');
  });

  it('shows nothing to a member who never held a benefit', () => {
    const { container } = render(
      <LiveView live={ready({ benefits: [] })} now={now} timeZone={timeZone} renderJoin={() => null} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
