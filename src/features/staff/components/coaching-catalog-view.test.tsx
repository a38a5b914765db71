import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { CoachingAllowance } from '../lib/coaching';
import { CoachingCatalogView, type SaveCoaching } from './coaching-catalog-view';

const allowance = (tier: CoachingAllowance['tier'], sessions: number, bookingUrl: string | null) => ({
  tier,
  sessions,
  minutes: 90,
  bookingUrl,
  updatedAt: '2026-12-01T00:00:00Z',
});

function setup(onSave: SaveCoaching = vi.fn(async () => undefined)) {
  render(
    <>
      <Toaster />
      <CoachingCatalogView
        allowances={{
          status: 'ready',
          data: [allowance('foundation', 0, null), allowance('accelerated', 2, 'https://cal.com/owner/coaching')],
          refreshFailed: false,
          retrying: false,
          retry: () => undefined,
        }}
        names={{ accelerated: 'Accelerated Success' }}
        onSave={onSave}
      />
    </>,
  );
  const section = screen.getByRole('region', { name: 'Coaching' });
  return {
    user: userEvent.setup(),
    onSave,
    form: within(section).getByRole('form', { name: 'Coaching for Accelerated Success' }),
  };
}

describe('CoachingCatalogView', () => {
  it('shows each tier’s sessions, length and booking page, named as the catalog names it', () => {
    const { form } = setup();
    expect(within(form).getByLabelText('Sessions')).toHaveValue(2);
    expect(within(form).getByLabelText('Minutes each')).toHaveValue(90);
    expect(within(form).getByLabelText('Booking page')).toHaveValue('https://cal.com/owner/coaching');
    // A tier the names leave out is called by its label.
    expect(screen.getByRole('form', { name: 'Coaching for Foundation Builder' })).toBeInTheDocument();
  });

  it('saves what was typed, and says so', async () => {
    const { user, onSave, form } = setup();
    await user.clear(within(form).getByLabelText('Sessions'));
    await user.type(within(form).getByLabelText('Sessions'), '3');
    await user.clear(within(form).getByLabelText('Booking page'));
    await user.type(within(form).getByLabelText('Booking page'), 'https://calendly.com/owner/90min');
    await user.click(within(form).getByRole('button', { name: 'Save coaching for Accelerated Success' }));
    expect(onSave).toHaveBeenCalledWith('accelerated', {
      sessions: 3,
      minutes: 90,
      bookingUrl: 'https://calendly.com/owner/90min',
    });
    expect(await screen.findByText('Coaching for Accelerated Success saved')).toBeInTheDocument();
  });

  it('refuses a booking page that is not https before sending it', async () => {
    const { user, onSave, form } = setup();
    await user.clear(within(form).getByLabelText('Booking page'));
    await user.type(within(form).getByLabelText('Booking page'), 'http://cal.com/owner');
    await user.click(within(form).getByRole('button', { name: 'Save coaching for Accelerated Success' }));
    expect(within(form).getByLabelText('Booking page')).toHaveAccessibleDescription(
      /The booking page must be an https:\/\/ link/,
    );
    expect(within(form).getByRole('alert')).toHaveTextContent('Nothing was saved');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('shows the database’s refusal in words at the field it names', async () => {
    const onSave = vi.fn(async () => {
      // As saveCoaching throws a check constraint's refusal: the words, the code, the field.
      throw Object.assign(new Error('The database refused it. The booking page must be an https:// link.'), {
        code: '23514',
        hint: 'booking_url',
      });
    });
    const { user, form } = setup(onSave);
    await user.click(within(form).getByRole('button', { name: 'Save coaching for Accelerated Success' }));
    expect(
      await within(form).findByText('The database refused it. The booking page must be an https:// link.'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('Booking page')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByRole('alert')).toHaveTextContent('Nothing was saved');
  });
});
