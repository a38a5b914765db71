import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { ReadState } from '@/lib/read-state';
import type { StaffBooking } from '../lib/coaching';
import { SessionsView } from './sessions-view';

const booking = (id: string, more: Partial<StaffBooking> = {}): StaffBooking => ({
  id,
  provider: 'calcom',
  userId: 'u1',
  email: 'ann@example.com',
  name: 'Ann',
  startsAt: '2026-12-15T15:00:00Z',
  endsAt: '2026-12-15T16:30:00Z',
  meetingUrl: `https://cal.com/video/${id}`,
  status: 'booked',
  overAllowance: false,
  memberNote: null,
  createdAt: '2026-12-01T00:00:00Z',
  ...more,
});

function renderView(upcoming: ReadState<StaffBooking[]>, limit = 500, memberEmails = new Map<string, string>()) {
  render(
    <MemoryRouter>
      <SessionsView
        upcoming={upcoming}
        memberEmails={memberEmails}
        limit={limit}
        timeZone="America/New_York"
        unmatched={<p>unmatched here</p>}
      />
    </MemoryRouter>,
  );
  return screen.getByRole('region', { name: 'Upcoming sessions' });
}

const ready = (data: StaffBooking[]): ReadState<StaffBooking[]> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

describe('SessionsView', () => {
  it('lists the sessions as given, with the member or Unmatched, the provider, the link and the mark', () => {
    const region = renderView(
      ready([
        booking('a', { overAllowance: true }),
        booking('b', {
          userId: null,
          email: 'stranger@example.com',
          provider: 'calendly',
          meetingUrl: null,
          startsAt: '2026-12-16T15:00:00Z',
          endsAt: null,
        }),
      ]),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Sessions' })).toBeInTheDocument();
    expect(screen.getByText(/Times are in your time zone \(America\/New_York\)/)).toBeInTheDocument();
    expect(screen.getByText('unmatched here')).toBeInTheDocument();
    const table = within(region).getByRole('table', { name: 'Upcoming sessions, soonest first' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByRole('rowheader')).toHaveTextContent('Tue, 15 Dec 2026, 10:00–11:30 GMT-5');
    expect(first).toHaveTextContent('ann@example.com');
    expect(first).toHaveTextContent('Cal.com');
    expect(first).toHaveTextContent('Over allowance');
    expect(within(first!).getByRole('link', { name: /Meeting link/ })).toHaveAttribute(
      'href',
      'https://cal.com/video/a',
    );
    expect(second).toHaveTextContent('Unmatched');
    expect(second).not.toHaveTextContent('stranger@example.com');
    expect(second).toHaveTextContent('Calendly');
    expect(second).toHaveTextContent('No meeting link');
    expect(second).toHaveTextContent('Within');
  });

  it('names the member by their account’s e-mail, and the one booked with when it differs', () => {
    const region = renderView(
      ready([booking('a', { userId: 'u2', email: 'typed@gmail.example' }), booking('b')]),
      500,
      new Map([
        ['u2', 'Member@Example.com'],
        ['u1', 'ann@example.com'],
      ]),
    );
    const [first, second] = within(region).getAllByRole('row').slice(1);
    expect(within(first!).getAllByRole('cell')[0]).toHaveTextContent('Member@Example.combooked as typed@gmail.example');
    expect(within(second!).getAllByRole('cell')[0]).toHaveTextContent(/^ann@example.com$/);
  });

  it('marks the staff nav’s Sessions link as the current page', () => {
    render(
      <MemoryRouter initialEntries={['/staff/sessions']}>
        <SessionsView upcoming={ready([])} limit={500} />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Staff pages' });
    expect(within(nav).getByRole('link', { name: 'Sessions' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('No session is booked from now on.')).toBeInTheDocument();
  });

  it('says when the list is cut', () => {
    const region = renderView(ready([booking('a'), booking('b')]), 2);
    expect(region).toHaveTextContent('The first 2 sessions are shown.');
  });
});
