import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { ReadState } from '@/lib/read-state';
import type { MemberCoaching, MemberSession } from '../lib/coaching';
import { MemberCoachingView, type MemberCoachingViewProps } from './member-coaching-view';

const now = new Date('2026-12-10T12:00:00Z');

const session = (id: string, startsAt: string, more: Partial<MemberSession> = {}): MemberSession => ({
  id,
  provider: 'calcom',
  userId: 'u1',
  email: 'ann@example.com',
  name: 'Ann',
  startsAt,
  endsAt: new Date(Date.parse(startsAt) + 90 * 60_000).toISOString(),
  meetingUrl: `https://cal.com/video/${id}`,
  status: 'booked',
  overAllowance: false,
  memberNote: null,
  privateNote: null,
  createdAt: '2026-12-01T00:00:00Z',
  ...more,
});

const coaching: MemberCoaching = {
  count: { sessions: 2, used: 1, left: 1 },
  sessions: [
    session('next', '2026-12-15T15:00:00Z', { overAllowance: true }),
    session('held', '2026-12-01T15:00:00Z', { memberNote: 'Chapter 3 next.', privateNote: 'Nervous about it.' }),
    session('moved', '2026-12-20T15:00:00Z', { status: 'rescheduled', meetingUrl: null }),
  ],
  adjustments: [{ id: 1, delta: 1, reason: 'Speaker at the conference', createdAt: '2026-12-02T09:00:00Z' }],
};

const ready = (data: MemberCoaching): ReadState<MemberCoaching> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

function setup(props: Partial<MemberCoachingViewProps> = {}) {
  const onAdjust = vi.fn(async () => 3);
  const onSaveNotes = vi.fn(async () => undefined);
  render(
    <>
      <Toaster />
      <MemberCoachingView
        email="ann@example.com"
        coaching={ready(coaching)}
        onAdjust={onAdjust}
        onSaveNotes={onSaveNotes}
        now={now}
        timeZone="UTC"
        {...props}
      />
    </>,
  );
  return {
    user: userEvent.setup(),
    onAdjust,
    onSaveNotes,
    region: screen.getByRole('region', { name: 'Their coaching' }),
  };
}

describe('MemberCoachingView', () => {
  it('shows the count, the sessions to come and past, their marks and links, and the adjustments', () => {
    const { region } = setup();
    expect(within(region).getByText('Used 1 of 2 · 1 left')).toBeInTheDocument();

    const upcoming = within(within(region).getByRole('list', { name: 'Coming up' })).getAllByRole('listitem');
    expect(upcoming).toHaveLength(2);
    expect(upcoming[0]).toHaveTextContent('Tue, 15 Dec 2026, 15:00–16:30 UTC');
    expect(upcoming[0]).toHaveTextContent('Over allowance');
    expect(upcoming[0]).toHaveTextContent('Cal.com');
    expect(within(upcoming[0]!).getByRole('link', { name: /Meeting link/ })).toHaveAttribute(
      'href',
      'https://cal.com/video/next',
    );
    expect(upcoming[1]).toHaveTextContent('Rescheduled');
    expect(upcoming[1]).toHaveTextContent('No meeting link');

    const past = within(within(region).getByRole('list', { name: 'Past' })).getAllByRole('listitem');
    expect(past).toHaveLength(1);
    expect(within(past[0]!).getByLabelText('Note for the member')).toHaveValue('Chapter 3 next.');
    expect(within(past[0]!).getByLabelText('Private note (staff only)')).toHaveValue('Nervous about it.');

    const adjustments = within(region).getByRole('list', { name: 'Adjustments' });
    expect(within(adjustments).getByRole('listitem')).toHaveTextContent(
      '+1 · Speaker at the conference · 2 Dec 2026, 09:00 UTC',
    );
  });

  it('gives sessions with a reason, and says so', async () => {
    const { user, onAdjust, region } = setup();
    await user.type(within(region).getByLabelText('Sessions to give or take'), '2');
    await user.type(within(region).getByLabelText('Reason'), 'Gift for the launch');
    await user.click(within(region).getByRole('button', { name: 'Adjust sessions' }));
    expect(onAdjust).toHaveBeenCalledWith(2, 'Gift for the launch');
    expect(await screen.findByText('Gave 2 sessions to ann@example.com')).toBeInTheDocument();
    expect(screen.getByText('3 sessions in all now.')).toBeInTheDocument();
    expect(within(region).getByLabelText('Reason')).toHaveValue('');
  });

  it('says at the fields what is wrong, and sends nothing', async () => {
    const { user, onAdjust, region } = setup();
    await user.type(within(region).getByLabelText('Sessions to give or take'), '0');
    await user.click(within(region).getByRole('button', { name: 'Adjust sessions' }));
    expect(within(region).getByLabelText('Sessions to give or take')).toHaveAccessibleDescription(
      /Give a whole number from −20 to 20, not 0/,
    );
    expect(within(region).getByLabelText('Reason')).toHaveAccessibleDescription(/Give a reason/);
    expect(onAdjust).not.toHaveBeenCalled();
  });

  it('shows the database’s refusal in the form', async () => {
    const onAdjust = vi.fn(async () => {
      throw new Error('Your account does not have staff access.');
    });
    const { user, region } = setup({ onAdjust });
    await user.type(within(region).getByLabelText('Sessions to give or take'), '-1');
    await user.type(within(region).getByLabelText('Reason'), 'Missed session');
    await user.click(within(region).getByRole('button', { name: 'Adjust sessions' }));
    expect(await within(region).findByRole('alert')).toHaveTextContent('Your account does not have staff access.');
  });

  it('saves a session’s two notes', async () => {
    const { user, onSaveNotes, region } = setup();
    const form = within(region).getByRole('form', {
      name: 'Notes on the session of Tue, 15 Dec 2026, 15:00–16:30 UTC',
    });
    await user.type(within(form).getByLabelText('Note for the member'), 'Bring your outline.');
    await user.type(within(form).getByLabelText('Private note (staff only)'), 'Booked over allowance: ask.');
    await user.click(within(form).getByRole('button', { name: 'Save notes' }));
    expect(onSaveNotes).toHaveBeenCalledWith('next', 'Bring your outline.', 'Booked over allowance: ask.');
    expect(await screen.findByText('Notes saved')).toBeInTheDocument();
  });

  it('says when the member has no sessions', () => {
    setup({ coaching: ready({ count: { sessions: 0, used: 0, left: 0 }, sessions: [], adjustments: [] }) });
    expect(screen.getByText('Used 0 of 0 · 0 left')).toBeInTheDocument();
    expect(screen.getByText(/Their bundle includes no coaching/)).toBeInTheDocument();
    expect(screen.getByText('No session booked.')).toBeInTheDocument();
  });

  it('shows a failed read with a retry', async () => {
    const retry = vi.fn();
    const { user } = setup({ coaching: { status: 'error', error: new Error('offline'), retrying: false, retry } });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the coaching.offline");
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalled();
  });
});
