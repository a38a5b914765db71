import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { ReadState } from '@/lib/read-state';
import type { MemberBenefits } from '../lib/live';
import { MemberBenefitsView, type MemberBenefitsViewProps } from './member-benefits-view';

const benefits: MemberBenefits = {
  benefits: [
    {
      benefit: 'community',
      label: 'Community access',
      startsAt: '2026-12-07T10:00:00Z',
      endsAt: '2027-03-07T10:00:00Z',
      active: true,
    },
    {
      benefit: 'circle',
      label: 'Group coaching circle',
      startsAt: '2026-09-01T10:00:00Z',
      endsAt: '2026-11-30T10:00:00Z',
      active: false,
    },
  ],
  audit: [
    {
      benefit: 'circle',
      action: 'ended',
      oldEndsAt: '2027-03-07T10:00:00Z',
      newEndsAt: '2026-11-30T10:00:00Z',
      reason: 'Asked to leave the circle',
      changedAt: '2026-11-30T10:00:00Z',
      changedBy: 'owner@example.com',
    },
    {
      benefit: 'community',
      action: 'granted',
      oldEndsAt: null,
      newEndsAt: '2027-03-07T10:00:00Z',
      reason: null,
      changedAt: '2026-12-07T10:00:00Z',
      changedBy: null,
    },
  ],
};

const ready = (data: MemberBenefits): ReadState<MemberBenefits> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

function setup(props: Partial<MemberBenefitsViewProps> = {}) {
  const onChange = vi.fn(async () => '2027-04-06T10:00:00Z');
  render(
    <>
      <Toaster />
      <MemberBenefitsView
        email="ann@example.com"
        benefits={ready(benefits)}
        onChange={onChange}
        timeZone="UTC"
        {...props}
      />
    </>,
  );
  const region = screen.getByRole('region', { name: 'Access with an end date' });
  return {
    user: userEvent.setup(),
    onChange,
    region,
    form: within(region).getByRole('form', { name: 'Extend or end their access' }),
  };
}

describe('MemberBenefitsView', () => {
  it('says until when each access lasts or when it ended, and lists every change', () => {
    const { region } = setup();
    const access = within(within(region).getByRole('list', { name: 'Their access' })).getAllByRole('listitem');
    expect(access.map((item) => item.textContent)).toEqual([
      'Community access: until 7 March 2027',
      'Group coaching circle: ended on 30 November 2026',
    ]);
    const changes = within(within(region).getByRole('list', { name: 'Changes to their access' })).getAllByRole(
      'listitem',
    );
    expect(changes[0]).toHaveTextContent(
      'Ended by staff · Group coaching circle · 7 March 2027 → 30 November 2026 · Asked to leave the circle · by owner@example.com · 30 Nov 2026, 10:00 UTC',
    );
    expect(changes[1]).toHaveTextContent(
      'Granted · Community access · none → 7 March 2027 · by the site · 7 Dec 2026, 10:00 UTC',
    );
  });

  it('extends an access by days with a reason, and says until when', async () => {
    const { user, onChange, form } = setup();
    await user.type(within(form).getByLabelText('Days to extend by'), '30');
    await user.type(within(form).getByLabelText('Reason'), 'Missed a month: travel');
    await user.click(within(form).getByRole('button', { name: 'Extend access' }));
    expect(onChange).toHaveBeenCalledWith({
      benefit: 'community',
      action: 'extend',
      days: 30,
      reason: 'Missed a month: travel',
    });
    expect(await screen.findByText('Community access extended for ann@example.com')).toBeInTheDocument();
    expect(screen.getByText('Until 6 April 2027.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Reason')).toHaveValue('');
  });

  it('ends an access now, with no days', async () => {
    const { user, onChange, form } = setup();
    await user.selectOptions(within(form).getByLabelText('Access'), 'circle');
    await user.click(within(form).getByRole('radio', { name: 'End now' }));
    expect(within(form).getByLabelText('Days to extend by')).toBeDisabled();
    await user.type(within(form).getByLabelText('Reason'), 'Refund agreed by e-mail');
    await user.click(within(form).getByRole('button', { name: 'End access now' }));
    expect(onChange).toHaveBeenCalledWith({
      benefit: 'circle',
      action: 'end',
      days: null,
      reason: 'Refund agreed by e-mail',
    });
    expect(await screen.findByText('Group coaching circle ended for ann@example.com')).toBeInTheDocument();
    expect(within(form).getByRole('radio', { name: 'Extend' })).toBeChecked();
  });

  it('wants a reason and the days, and sends nothing without them', async () => {
    const { user, onChange, form } = setup();
    await user.click(within(form).getByRole('button', { name: 'Extend access' }));
    expect(within(form).getByLabelText('Reason')).toHaveAccessibleDescription(
      /Give a reason: it is kept with the change\./,
    );
    expect(within(form).getByLabelText('Days to extend by')).toHaveAccessibleDescription(/from 1 to 3650/);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('shows the database’s refusal in the form', async () => {
    const onChange = vi.fn(async () => {
      throw new Error('nothing to end, or an unknown change');
    });
    const { user, form } = setup({ onChange });
    await user.selectOptions(within(form).getByLabelText('Access'), 'circle');
    await user.click(within(form).getByRole('radio', { name: 'End now' }));
    await user.type(within(form).getByLabelText('Reason'), 'Tidy up');
    await user.click(within(form).getByRole('button', { name: 'End access now' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('nothing to end, or an unknown change');
    expect(within(form).getByLabelText('Reason')).toHaveValue('Tidy up');
  });

  it('says when the member has no access with an end date, with no form', () => {
    render(
      <MemberBenefitsView email="ann@example.com" benefits={ready({ benefits: [], audit: [] })} onChange={vi.fn()} />,
    );
    expect(screen.getByText(/None: their bundle includes no community or live sessions/)).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.getByText('None yet.')).toBeInTheDocument();
  });

  it('shows a failed read with a retry', async () => {
    const retry = vi.fn();
    render(
      <MemberBenefitsView
        email="ann@example.com"
        benefits={{ status: 'error', error: new Error('offline'), retrying: false, retry }}
        onChange={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load their access.offline");
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalled();
  });
});
