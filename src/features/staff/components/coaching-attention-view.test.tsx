import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { ReadState } from '@/lib/read-state';
import type { CoachingAttention } from '../api/sessions';
import type { WebhookProvider } from '../lib/coaching';
import { CoachingAttentionView } from './coaching-attention-view';

function renderView(counts: ReadState<CoachingAttention>, unrecorded: WebhookProvider[] = []) {
  render(
    <MemoryRouter>
      <section aria-label="Needs attention">
        <CoachingAttentionView counts={counts} unrecorded={unrecorded} />
      </section>
    </MemoryRouter>,
  );
  return screen.getByRole('region', { name: 'Needs attention' });
}

const ready = (data: CoachingAttention): ReadState<CoachingAttention> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

describe('CoachingAttentionView', () => {
  it('counts the unmatched bookings and those over allowance, each leading to the sessions page', () => {
    const attention = renderView(ready({ unmatched: 2, overAllowance: 1 }));
    expect(within(attention).getByRole('link', { name: '2 Unmatched bookings to assign to a member' })).toHaveAttribute(
      'href',
      '/staff/sessions',
    );
    expect(within(attention).getByRole('link', { name: '1 Upcoming sessions booked over allowance' })).toHaveAttribute(
      'href',
      '/staff/sessions',
    );
    expect(within(attention).queryByRole('heading', { name: /are not recorded/ })).not.toBeInTheDocument();
  });

  it('names a provider whose webhook secret is not set, with the step that fixes it', () => {
    const attention = renderView(ready({ unmatched: 0, overAllowance: 0 }), ['calcom', 'calendly']);
    const heading = within(attention).getByRole('heading', {
      name: 'Bookings on Cal.com and Calendly are not recorded',
    });
    expect(heading.parentElement).toHaveTextContent(
      'supabase secrets set CALCOM_WEBHOOK_SECRET=… CALENDLY_WEBHOOK_SIGNING_KEY=…',
    );
  });

  it('says when the counts could not be read, with a retry', async () => {
    const retry = vi.fn();
    renderView({ status: 'error', error: new Error('offline'), retrying: false, retry });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't count the coaching bookings.");
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalled();
  });
});
