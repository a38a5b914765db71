import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { ReadState } from '@/lib/read-state';
import type { LiveOverview, StaffLiveSession } from '../lib/live';
import { LiveSessionsView, type LiveSessionsViewProps } from './live-sessions-view';

const now = new Date('2027-01-10T12:00:00Z');

const session = (id: string, startsAt: string, more: Partial<StaffLiveSession> = {}): StaffLiveSession => ({
  id,
  benefit: 'circle',
  label: 'Group coaching circle',
  title: `Circle ${id}`,
  startsAt,
  minutes: 120,
  joinUrl: `https://zoom.us/j/${id}`,
  description: null,
  recordingPath: null,
  cancelledAt: null,
  holders: [],
  ...more,
});

const overview: LiveOverview = {
  sessions: [
    session('past', '2027-01-02T18:00:00Z', { recordingPath: 'accelerated/circle/2027-01-02.mp3' }),
    session('next', '2027-01-12T18:00:00Z', {
      benefit: 'qa',
      label: 'Live Q&A calls',
      title: 'January Q&A',
      minutes: 90,
      description: 'Bring your questions.',
      holders: ['ann@example.com', 'bob@example.com'],
    }),
    session('gone', '2027-01-20T18:00:00Z', { cancelledAt: '2027-01-05T00:00:00Z', holders: ['ann@example.com'] }),
  ],
  benefits: [],
  ending: [],
};

const ready = (data: LiveOverview): ReadState<LiveOverview> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

function setup(props: Partial<LiveSessionsViewProps> = {}) {
  const onSave = vi.fn(async () => undefined);
  const onCancel = vi.fn(async () => undefined);
  render(
    <>
      <Toaster />
      <LiveSessionsView
        overview={ready(overview)}
        onSave={onSave}
        onCancel={onCancel}
        now={now}
        timeZone="UTC"
        {...props}
      />
    </>,
  );
  const region = screen.getByRole('region', { name: 'Live sessions' });
  return { user: userEvent.setup(), onSave, onCancel, region };
}

/** The list's own items (the holders' lists inside them are lists too). */
function sessionItems(region: HTMLElement) {
  const list = within(region).getByRole('list', { name: 'Live sessions from 30 days back' });
  return Array.from(list.children) as HTMLElement[];
}

describe('LiveSessionsView', () => {
  it('lists the sessions with their kind, local time, length, join link, holders and marks', () => {
    const { region } = setup();
    const [past, next, gone] = sessionItems(region);
    expect(sessionItems(region)).toHaveLength(3);

    expect(next).toHaveTextContent('January Q&A');
    expect(next).toHaveTextContent('Live Q&A calls · Tue, 12 Jan 2027, 18:00–19:30 UTC · 90 minutes');
    expect(within(next!).getByRole('link', { name: /https:\/\/zoom\.us\/j\/next/ })).toHaveAttribute(
      'href',
      'https://zoom.us/j/next',
    );
    expect(next).toHaveTextContent('Bring your questions.');
    const holders = within(next!).getByText('2 members hold this').closest('details');
    expect(holders).not.toBeNull();
    expect(within(holders!).getByRole('list', { name: 'Members who hold it' })).toHaveTextContent(
      'ann@example.combob@example.com',
    );
    expect(within(next!).getByRole('button', { name: 'Edit' })).toHaveAccessibleDescription('January Q&A');
    expect(within(next!).getByRole('button', { name: 'Cancel session' })).toBeInTheDocument();
    expect(next).not.toHaveTextContent('Cancelled');

    expect(past).toHaveTextContent('Over');
    expect(past).toHaveTextContent('Recording: accelerated/circle/2027-01-02.mp3');
    expect(past).toHaveTextContent('No member holds this');

    expect(gone).toHaveTextContent('Cancelled');
    expect(within(gone!).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(gone!).queryByRole('button', { name: 'Cancel session' })).not.toBeInTheDocument();
  });

  it('schedules a session, its start read in the viewer’s zone and sent as an instant', async () => {
    const { user, onSave, region } = setup();
    const form = within(region).getByRole('form', { name: 'Schedule a session' });
    expect(within(form).getByLabelText('Length in minutes')).toHaveValue(120);
    // user-event matches an option's value or its HTML (where & is &amp;): the value, then.
    await user.selectOptions(within(form).getByLabelText('Kind of session'), 'qa');
    expect(within(form).getByRole('option', { name: 'Live Q&A calls' })).toHaveProperty('selected', true);
    await user.type(within(form).getByLabelText('Title'), 'February Q&A');
    await user.type(within(form).getByLabelText('Starts'), '2027-02-09T18:30');
    await user.type(within(form).getByLabelText('Join link'), 'https://zoom.us/j/999');
    await user.type(within(form).getByLabelText('Description'), 'Ask anything.');
    await user.click(within(form).getByRole('button', { name: 'Schedule session' }));
    expect(onSave).toHaveBeenCalledWith(null, {
      benefit: 'qa',
      title: 'February Q&A',
      startsAt: new Date('2027-02-09T18:30').toISOString(),
      minutes: 120,
      joinUrl: 'https://zoom.us/j/999',
      description: 'Ask anything.',
      recordingPath: '',
    });
    expect(await screen.findByText('Session scheduled')).toBeInTheDocument();
    expect(within(form).getByLabelText('Title')).toHaveValue('');
  });

  it('says at the fields what is wrong, and sends nothing', async () => {
    const { user, onSave, region } = setup();
    const form = within(region).getByRole('form', { name: 'Schedule a session' });
    await user.type(within(form).getByLabelText('Join link'), 'zoom.us/j/1');
    await user.click(within(form).getByRole('button', { name: 'Schedule session' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Nothing was saved');
    expect(within(form).getByLabelText('Title')).toHaveAccessibleDescription(/Give the session a title/);
    expect(within(form).getByLabelText('Starts')).toHaveAccessibleDescription(/Give the day and time it starts/);
    expect(within(form).getByLabelText('Join link')).toHaveAccessibleDescription(/must be an https:\/\/ link/);
    expect(onSave).not.toHaveBeenCalled();
  });

  it('edits a session: the form is filled, saved with its id, and goes back to scheduling', async () => {
    const { user, onSave, region } = setup();
    await user.click(within(sessionItems(region)[1]!).getByRole('button', { name: 'Edit' }));
    const form = within(region).getByRole('form', { name: 'Change a session' });
    expect(within(form).getByLabelText('Title')).toHaveFocus();
    expect(within(form).getByLabelText('Kind of session')).toHaveValue('qa');
    expect(within(form).getByLabelText('Length in minutes')).toHaveValue(90);
    const start = within(form).getByLabelText('Starts');
    expect(new Date((start as HTMLInputElement).value).toISOString()).toBe('2027-01-12T18:00:00.000Z');
    await user.clear(within(form).getByLabelText('Title'));
    await user.type(within(form).getByLabelText('Title'), 'January Q&A (moved)');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(onSave).toHaveBeenCalledWith('next', {
      benefit: 'qa',
      title: 'January Q&A (moved)',
      startsAt: '2027-01-12T18:00:00.000Z',
      minutes: 90,
      joinUrl: 'https://zoom.us/j/next',
      description: 'Bring your questions.',
      recordingPath: '',
    });
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(within(region).getByRole('form', { name: 'Schedule a session' })).toBeInTheDocument();
  });

  it('shows the database’s refusal of a save in the form, keeping what was typed', async () => {
    const onSave = vi.fn(async () => {
      throw new Error('no such session, or it was cancelled');
    });
    const { user, region } = setup({ onSave });
    await user.click(within(sessionItems(region)[1]!).getByRole('button', { name: 'Edit' }));
    const form = within(region).getByRole('form', { name: 'Change a session' });
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('no such session, or it was cancelled');
    expect(within(form).getByLabelText('Title')).toHaveValue('January Q&A');
  });

  it('cancels a session only once confirmed', async () => {
    const { user, onCancel, region } = setup();
    const next = sessionItems(region)[1]!;
    await user.click(within(next).getByRole('button', { name: 'Cancel session' }));
    expect(onCancel).not.toHaveBeenCalled();
    const confirm = within(next).getByRole('group', { name: /Cancel “January Q&A”\?/ });
    expect(confirm).toHaveTextContent('Each member who holds it is e-mailed that it is cancelled.');
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(within(next).queryByRole('group', { name: /Cancel “January Q&A”\?/ })).not.toBeInTheDocument();

    await user.click(within(next).getByRole('button', { name: 'Cancel session' }));
    await user.click(within(next).getByRole('button', { name: 'Yes, cancel it' }));
    expect(onCancel).toHaveBeenCalledWith('next');
    expect(await screen.findByText('Session cancelled')).toBeInTheDocument();
  });

  it('shows a refused cancel in the item, and lets it be tried again', async () => {
    const onCancel = vi.fn(async () => {
      throw new Error('no such session, or it was cancelled already');
    });
    const { user, region } = setup({ onCancel });
    const next = sessionItems(region)[1]!;
    await user.click(within(next).getByRole('button', { name: 'Cancel session' }));
    await user.click(within(next).getByRole('button', { name: 'Yes, cancel it' }));
    expect(await within(next).findByRole('alert')).toHaveTextContent(
      'Not cancelled: no such session, or it was cancelled already',
    );
    expect(within(next).getByRole('button', { name: 'Yes, cancel it' })).toBeEnabled();
  });

  it('says the button is busy while the cancel runs', async () => {
    let finish: () => void = () => undefined;
    const onCancel = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { user, region } = setup({ onCancel });
    const next = sessionItems(region)[1]!;
    await user.click(within(next).getByRole('button', { name: 'Cancel session' }));
    await user.click(within(next).getByRole('button', { name: 'Yes, cancel it' }));
    expect(within(next).getByRole('button', { name: 'Cancelling...' })).toBeDisabled();
    finish();
    expect(await screen.findByText('Session cancelled')).toBeInTheDocument();
  });

  it('says when there is no session, and shows a failed read with a retry', async () => {
    const { unmount } = render(
      <LiveSessionsView
        overview={ready({ sessions: [], benefits: [], ending: [] })}
        onSave={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    expect(screen.getByText('No session in the last 30 days or to come.')).toBeInTheDocument();
    unmount();

    const retry = vi.fn();
    render(
      <LiveSessionsView
        overview={{
          status: 'error',
          error: new Error('Your account does not have staff access.'),
          retrying: false,
          retry,
        }}
        onSave={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      "We couldn't load the live sessions.Your account does not have staff access.",
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalled();
  });
});
