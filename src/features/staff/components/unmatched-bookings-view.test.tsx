import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { StaffBooking } from '../lib/coaching';
import { UnmatchedBookingsView, type AssignBooking } from './unmatched-bookings-view';

const booking = (id: string, more: Partial<StaffBooking> = {}): StaffBooking => ({
  id,
  provider: 'calendly',
  userId: null,
  email: 'writer@gmail.example',
  name: 'Wendy Writer',
  startsAt: '2026-12-15T15:00:00Z',
  endsAt: '2026-12-15T16:30:00Z',
  meetingUrl: null,
  status: 'booked',
  overAllowance: false,
  memberNote: null,
  createdAt: '2026-12-01T00:00:00Z',
  ...more,
});

function setup(rows: StaffBooking[], onAssign: AssignBooking = vi.fn(async () => 'wendy@example.com')) {
  render(
    <>
      <Toaster />
      <UnmatchedBookingsView
        unmatched={{ status: 'ready', data: rows, refreshFailed: false, retrying: false, retry: () => undefined }}
        onAssign={onAssign}
        timeZone="UTC"
      />
    </>,
  );
  return { user: userEvent.setup(), onAssign, region: screen.getByRole('region', { name: 'Unmatched bookings' }) };
}

describe('UnmatchedBookingsView', () => {
  it('lists each booking with its name, e-mail, time and provider', () => {
    const { region } = setup([booking('b1'), booking('b2', { name: null, email: null, status: 'cancelled' })]);
    const items = within(within(region).getByRole('list', { name: 'Unmatched bookings' })).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Wendy Writer · writer@gmail.example');
    expect(items[0]).toHaveTextContent('Tue, 15 Dec 2026, 15:00–16:30 UTC · Calendly');
    expect(items[1]).toHaveTextContent('No name given · no e-mail given');
    expect(items[1]).toHaveTextContent('Cancelled');
  });

  it('assigns a booking to the member with the e-mail typed, and says so', async () => {
    const { user, onAssign } = setup([booking('b1')]);
    const form = screen.getByRole('form', { name: 'Assign the booking of Wendy Writer' });
    await user.type(within(form).getByLabelText('Member’s e-mail'), ' wendy@example.com ');
    await user.click(within(form).getByRole('button', { name: 'Assign to a member' }));
    expect(onAssign).toHaveBeenCalledWith('b1', 'wendy@example.com');
    expect(await screen.findByText('Booking assigned to wendy@example.com')).toBeInTheDocument();
  });

  it('asks for an e-mail before sending, and shows a refusal in words', async () => {
    const onAssign = vi.fn(async () => {
      throw new Error('No account has the e-mail nobody@example.com. Check the spelling.');
    });
    const { user } = setup([booking('b1')], onAssign);
    const form = screen.getByRole('form', { name: 'Assign the booking of Wendy Writer' });
    await user.click(within(form).getByRole('button', { name: 'Assign to a member' }));
    expect(within(form).getByLabelText('Member’s e-mail')).toHaveAccessibleDescription(
      'Type the e-mail of the member’s account.',
    );
    expect(onAssign).not.toHaveBeenCalled();

    await user.type(within(form).getByLabelText('Member’s e-mail'), 'nobody@example.com');
    await user.click(within(form).getByRole('button', { name: 'Assign to a member' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('No account has the e-mail nobody@example.com');
  });

  it('says when every booking matched', () => {
    const { region } = setup([]);
    expect(region).toHaveTextContent('None: every booking matched a member.');
  });
});
