import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Tier } from '@/content/tiers';
import { BuyerAccessView, type BuyerAccessState } from './buyer-access-view';

function renderState(state: BuyerAccessState) {
  render(
    <MemoryRouter>
      <BuyerAccessView state={state} />
    </MemoryRouter>,
  );
  return screen.getByRole('region');
}

const member = (tier: Extract<BuyerAccessState, { kind: 'member' }>['tier']): BuyerAccessState => ({
  kind: 'member',
  email: 'ruth@example.com',
  tier,
});

const ready = (tier: Tier | null) => ({
  status: 'ready' as const,
  data: tier,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

describe('BuyerAccessView', () => {
  it('tells a visitor how to get in: the invitation e-mail, or sign in with the checkout e-mail', () => {
    const box = renderState({ kind: 'visitor' });
    expect(box).toHaveAccessibleName('Getting to your files');
    expect(within(box).getByText(/Check your inbox for the e-mail/)).toHaveTextContent(
      'New here? Check your inbox for the e-mail “Your files are ready” and follow its link to set your password.',
    );
    expect(within(box).getByText(/Sign in with the e-mail address you used at checkout/)).toBeInTheDocument();
    expect(within(box).getByRole('link', { name: 'Sign in to your files' })).toHaveAttribute('href', '/auth');
  });

  it('tells a signed-in buyer their tier, with a link to their files', () => {
    const box = renderState(member(ready('foundation')));
    expect(box).toHaveAccessibleName('Your files are waiting');
    expect(within(box).getByText('Signed in as ruth@example.com.')).toBeInTheDocument();
    expect(within(box).getByRole('status')).toHaveTextContent('Your tier: Foundation Builder');
    expect(within(box).getByRole('link', { name: 'Go to your files' })).toHaveAttribute('href', '/resources');
    // The visitor text keeps the box's height but is hidden from everyone.
    expect(within(box).queryByRole('link', { name: 'Sign in to your files' })).not.toBeInTheDocument();
    expect(
      within(box)
        .getByText(/Check your inbox/)
        .closest('[aria-hidden="true"]'),
    ).toHaveClass('invisible');
  });

  it('says so while the tier is being checked', () => {
    const box = renderState(member({ status: 'loading', retrying: false }));
    expect(within(box).getByRole('status')).toHaveTextContent('Checking your purchases...');
    expect(within(box).getByRole('link', { name: 'Go to your files' })).toBeInTheDocument();
  });

  it('explains a signed-in account without a purchase', () => {
    const box = renderState(member(ready(null)));
    expect(within(box).getByRole('status')).toHaveTextContent(
      'No purchase on this account yet. A new purchase can take a minute to arrive; if you paid with another e-mail, sign in with that one.',
    );
  });

  it('never says "no purchase" when the tier could not be read', () => {
    const box = renderState(
      member({ status: 'error', error: new Error('503'), retrying: false, retry: () => undefined }),
    );
    expect(within(box).getByRole('status')).toHaveTextContent(
      'We couldn’t check your purchases just now; your files page will show them.',
    );
    expect(within(box).queryByText(/No purchase/)).not.toBeInTheDocument();
  });
});
