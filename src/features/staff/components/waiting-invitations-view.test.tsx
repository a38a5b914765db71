import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { ReadState } from '@/lib/read-state';
import type { InvitationRow } from '../lib/invitations';
import { WaitingInvitationsView } from './waiting-invitations-view';

afterEach(() => {
  toast.dismiss();
});

const NOW = new Date('2026-11-26T12:00:00Z');

const row = (email: string, more: Partial<InvitationRow> = {}): InvitationRow => ({
  email,
  status: 'pending',
  lastError: null,
  attempts: 0,
  createdAt: '2026-11-26T11:00:00Z',
  sentAt: null,
  ...more,
});

function ready(data: InvitationRow[]): ReadState<InvitationRow[]> {
  return { status: 'ready', data, refreshFailed: false, retrying: false, retry: () => undefined };
}

function setup(invitations: ReadState<InvitationRow[]>, onResend: (email: string) => Promise<void> = async () => {}) {
  render(
    <>
      <Toaster />
      <WaitingInvitationsView invitations={invitations} onResend={onResend} now={NOW} />
    </>,
  );
  return screen.getByRole('region', { name: 'Buyers waiting for their invitation' });
}

describe('WaitingInvitationsView', () => {
  it('lists each waiting buyer with why they wait, and leaves out good and accepted invitations', () => {
    const section = setup(
      ready([
        row('budget@example.com', { lastError: 'over_email_send_rate_limit: email rate limit exceeded', attempts: 1 }),
        row('failed@example.com', { status: 'failed', lastError: 'unexpected_failure: SMTP down', attempts: 2 }),
        row('sending@example.com', { status: 'sending', attempts: 1 }),
        row('expired@example.com', { status: 'sent', sentAt: '2026-11-26T10:30:00Z', attempts: 1 }),
        row('fresh@example.com', { status: 'sent', sentAt: '2026-11-26T11:30:00Z', attempts: 1 }),
        row('accepted@example.com', { status: 'accepted', attempts: 1 }),
      ]),
    );
    const items = within(section).getAllByRole('listitem');
    expect(items.map((i) => within(i).getAllByRole('paragraph')[0]?.textContent)).toEqual([
      'budget@example.com',
      'failed@example.com',
      'sending@example.com',
      'expired@example.com',
    ]);
    expect(items[0]).toHaveTextContent('Waiting: this hour’s e-mail budget is used up');
    expect(items[0]).not.toHaveTextContent('over_email_send_rate_limit');
    expect(items[1]).toHaveTextContent('Failed: unexpected_failure: SMTP down');
    expect(items[1]).toHaveTextContent('2 attempts');
    expect(items[2]).toHaveTextContent('Sending now');
    expect(within(items[2] as HTMLElement).queryByRole('button')).toBeNull();
    expect(items[3]).toHaveTextContent('Link expired unused');
  });

  it('says when nobody waits, and shows a spinner while loading', () => {
    const { unmount } = render(<WaitingInvitationsView invitations={ready([])} onResend={async () => {}} now={NOW} />);
    expect(screen.getByText('No buyer is waiting for an invitation.')).toBeInTheDocument();
    unmount();
    render(<WaitingInvitationsView invitations={{ status: 'loading', retrying: false }} onResend={async () => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading waiting invitations...');
  });

  it('"Send again" queues the invitation, busy while it does, and confirms; a refusal is shown', async () => {
    const user = userEvent.setup();
    let finish: () => void = () => {};
    const asked: string[] = [];
    setup(ready([row('failed@example.com', { status: 'failed', lastError: 'boom' })]), (email) => {
      asked.push(email);
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const button = screen.getByRole('button', { name: 'Send the invitation to failed@example.com again' });
    await user.click(button);
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveTextContent('Queuing...');
    await user.click(button);
    expect(asked).toEqual(['failed@example.com']);
    finish();
    expect(await screen.findByText('Invitation queued')).toBeInTheDocument();
    expect(button).not.toHaveAttribute('aria-busy');
  });

  it('shows why the queue refused', async () => {
    const user = userEvent.setup();
    setup(ready([row('gone@example.com')]), () => Promise.reject(new Error('This invitation has already gone out.')));
    await user.click(screen.getByRole('button', { name: 'Send the invitation to gone@example.com again' }));
    expect(await screen.findByText('Could not queue the invitation')).toBeInTheDocument();
    expect(screen.getByText('This invitation has already gone out.')).toBeInTheDocument();
  });
});
