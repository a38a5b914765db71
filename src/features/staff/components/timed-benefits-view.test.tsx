import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { LiveOverview, TimedBenefit } from '../lib/live';
import { TimedBenefitsView, type SaveTimedBenefit } from './timed-benefits-view';

const benefit = (more: Partial<TimedBenefit> & Pick<TimedBenefit, 'benefit' | 'label'>): TimedBenefit => ({
  tier: 'accelerated',
  lengthDays: 90,
  link: null,
  updatedAt: '2026-12-01T00:00:00Z',
  ...more,
});

const overview: LiveOverview = {
  sessions: [],
  benefits: [
    benefit({ benefit: 'community', label: 'Community access', link: 'https://facebook.com/groups/yyc' }),
    benefit({ benefit: 'circle', label: 'Group coaching circle' }),
    benefit({ benefit: 'vip_community', label: 'VIP community', tier: 'complete', lengthDays: 183 }),
  ],
  ending: [],
};

function setup(onSave: SaveTimedBenefit = vi.fn(async () => undefined)) {
  render(
    <>
      <Toaster />
      <TimedBenefitsView
        overview={{ status: 'ready', data: overview, refreshFailed: false, retrying: false, retry: () => undefined }}
        onSave={onSave}
      />
    </>,
  );
  const region = screen.getByRole('region', { name: 'Community and live benefits' });
  return { user: userEvent.setup(), onSave, region };
}

describe('TimedBenefitsView', () => {
  it('shows each benefit’s tier, length and link; a session benefit has no link field', () => {
    const { region } = setup();
    const community = within(region).getByRole('form', { name: 'Community access' });
    expect(community).toHaveTextContent('Included from Accelerated Success');
    expect(within(community).getByLabelText('Length in days')).toHaveValue(90);
    expect(within(community).getByLabelText('Link')).toHaveValue('https://facebook.com/groups/yyc');

    const vip = within(region).getByRole('form', { name: 'VIP community' });
    expect(vip).toHaveTextContent('Included from Complete Transformation');
    expect(within(vip).getByLabelText('Length in days')).toHaveValue(183);
    expect(within(vip).getByLabelText('Link')).toHaveValue('');

    const circle = within(region).getByRole('form', { name: 'Group coaching circle' });
    expect(within(circle).queryByLabelText('Link')).not.toBeInTheDocument();
    expect(circle).toHaveTextContent('Each session has its own join link');
  });

  it('saves the private group’s link and the length, and says so', async () => {
    const { user, onSave, region } = setup();
    const vip = within(region).getByRole('form', { name: 'VIP community' });
    await user.clear(within(vip).getByLabelText('Length in days'));
    await user.type(within(vip).getByLabelText('Length in days'), '200');
    await user.type(within(vip).getByLabelText('Link'), 'https://facebook.com/groups/yyc-vip');
    await user.click(within(vip).getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith('vip_community', {
      lengthDays: 200,
      link: 'https://facebook.com/groups/yyc-vip',
    });
    expect(await screen.findByText('VIP community saved')).toBeInTheDocument();
  });

  it('keeps a session benefit’s link as it is when its length is saved', async () => {
    const { user, onSave, region } = setup();
    const circle = within(region).getByRole('form', { name: 'Group coaching circle' });
    await user.click(within(circle).getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith('circle', { lengthDays: 90, link: '' });
  });

  it('refuses a link that is not https before sending it', async () => {
    const { user, onSave, region } = setup();
    const community = within(region).getByRole('form', { name: 'Community access' });
    await user.clear(within(community).getByLabelText('Link'));
    await user.type(within(community).getByLabelText('Link'), 'http://facebook.com/groups/yyc');
    await user.click(within(community).getByRole('button', { name: 'Save' }));
    expect(within(community).getByLabelText('Link')).toHaveAccessibleDescription(/must be an https:\/\/ link/);
    expect(within(community).getByRole('alert')).toHaveTextContent('Nothing was saved');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('shows the database’s refusal in the form', async () => {
    const onSave = vi.fn(async () => {
      throw new Error('no such benefit');
    });
    const { user, region } = setup(onSave);
    const community = within(region).getByRole('form', { name: 'Community access' });
    await user.click(within(community).getByRole('button', { name: 'Save' }));
    expect(await within(community).findByRole('alert')).toHaveTextContent('no such benefit');
  });
});
