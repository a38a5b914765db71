import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import type { Tier } from '@/content/tiers';
import type { ReadState } from '@/lib/read-state';
import type { MemberDetail } from '../lib/members';
import { MemberDetailView, type MemberDetailViewProps } from './member-detail-view';

afterEach(() => {
  toast.dismiss();
});

const purchase = {
  id: 'p1',
  provider: 'stripe',
  order_id: 'cs_test_123',
  product: 'foundation',
  tier: 'foundation' as const,
  amount_cents: 19700,
  currency: 'USD',
  status: 'paid' as const,
  created_at: '2026-11-20T09:30:00Z',
  refunded_at: null,
};

const grant = {
  id: 'g1',
  tier: 'complete' as const,
  reason: 'Conference speaker',
  granted_by_email: 'staff@example.com',
  granted_at: '2026-11-21T12:00:00Z',
  revoked_at: null,
  revoked_by_email: null,
  revoke_reason: null,
};

const bought: MemberDetail = {
  user_id: 'u1',
  email: 'ann@example.com',
  tier: 'foundation',
  tier_source: {
    kind: 'purchase',
    purchase_id: 'p1',
    provider: 'stripe',
    order_id: 'cs_test_123',
    product: 'foundation',
  },
  purchases: [
    purchase,
    { ...purchase, id: 'p0', order_id: 'cs_old', status: 'refunded', refunded_at: '2026-11-19T08:00:00Z' },
  ],
  grants: [],
  audit: [
    {
      changed_at: '2026-11-20T09:30:01Z',
      old_tier: null,
      new_tier: 'foundation',
      source: 'purchase',
      reason: null,
      changed_by_email: null,
    },
  ],
};

const granted: MemberDetail = {
  ...bought,
  tier: 'complete',
  tier_source: {
    kind: 'staff',
    grant_id: 'g1',
    granted_by_email: 'staff@example.com',
    reason: 'Conference speaker',
    granted_at: grant.granted_at,
  },
  grants: [grant],
};

const ready = (data: MemberDetail): ReadState<MemberDetail | null> => ({
  status: 'ready',
  data,
  refreshFailed: false,
  retrying: false,
  retry: () => undefined,
});

function setup(props: Partial<MemberDetailViewProps> = {}) {
  const calls: unknown[][] = [];
  render(
    <>
      <Toaster />
      <MemberDetailView
        email="ann@example.com"
        detail={ready(bought)}
        onClose={() => void calls.push(['close'])}
        onGrant={async (tier: Tier, reason: string) => void calls.push(['grant', tier, reason])}
        onRevoke={async (reason: string) => void calls.push(['revoke', reason])}
        onErase={async (typedEmail: string, reason: string) => void calls.push(['erase', typedEmail, reason])}
        onErased={() => void calls.push(['erased'])}
        {...props}
      />
    </>,
  );
  return { user: userEvent.setup(), calls };
}

function term(name: string): HTMLElement {
  const dt = screen.getByText(name, { selector: 'dt' });
  return dt.nextElementSibling as HTMLElement;
}

describe('MemberDetailView', () => {
  it('shows the tier, the purchase it came from, and every purchase', () => {
    setup();
    expect(screen.getByRole('heading', { level: 2, name: 'ann@example.com' })).toHaveFocus();
    expect(term('Tier')).toHaveTextContent('Foundation Builder');
    expect(term('Comes from')).toHaveTextContent('Purchase: Stripe order cs_test_123, product foundation');
    const purchases = screen.getByRole('table', { name: 'Purchases, newest first' });
    const paid = within(purchases).getByRole('row', { name: /cs_test_123/ });
    expect(paid).toHaveTextContent('$197.00');
    expect(paid).toHaveTextContent('Paid');
    expect(within(purchases).getByRole('row', { name: /cs_old/ })).toHaveTextContent('Refunded 19 Nov 2026, 08:00 UTC');
    expect(screen.getByText(/No tier → Foundation Builder \(Purchase\)/)).toBeInTheDocument();
  });

  it('without a staff grant there is nothing to revoke, and it says why', () => {
    setup();
    expect(screen.queryByRole('button', { name: 'Revoke staff grant' })).not.toBeInTheDocument();
    expect(screen.getByText(/No staff grant to revoke/)).toBeInTheDocument();
  });

  it('shows a staff grant as the source: by whom, when and why', () => {
    setup({ detail: ready(granted) });
    expect(term('Tier')).toHaveTextContent('Complete Transformation');
    expect(term('Comes from')).toHaveTextContent(
      'Staff grant by staff@example.com on 21 Nov 2026, 12:00 UTC. Reason: Conference speaker',
    );
    expect(screen.getByRole('button', { name: 'Revoke staff grant' })).toBeInTheDocument();
  });

  it('refuses a grant without a reason, saying so at the field, and sends nothing', async () => {
    const { user, calls } = setup();
    await user.click(screen.getByRole('button', { name: 'Grant a tier' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant a tier to ann@example.com' });
    await user.type(within(dialog).getByLabelText('Reason'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Grant tier' }));
    const reason = within(dialog).getByLabelText('Reason');
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAccessibleDescription(/Give a reason: it is kept in the audit log\./);
    expect(reason).toHaveFocus();
    expect(calls).toEqual([]);
  });

  it('grants the chosen tier with the reason, shows it saving, then toasts and closes', async () => {
    let finish: () => void = () => undefined;
    const calls: unknown[][] = [];
    const { user } = setup({
      onGrant: (tier, reason) => {
        calls.push([tier, reason]);
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
    });
    await user.click(screen.getByRole('button', { name: 'Grant a tier' }));
    const dialog = screen.getByRole('dialog');
    await user.selectOptions(within(dialog).getByLabelText('Tier'), 'accelerated');
    await user.type(within(dialog).getByLabelText('Reason'), ' Prize winner ');
    await user.click(within(dialog).getByRole('button', { name: 'Grant tier' }));
    expect(calls).toEqual([['accelerated', 'Prize winner']]);
    expect(within(dialog).getByRole('button', { name: 'Saving...' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    // Escape does not close it while the grant is saving.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    finish();
    expect(await screen.findByText('Tier granted')).toBeInTheDocument();
    expect(screen.getByText('ann@example.com now has Accelerated Success through a staff grant.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the dialog and the reason when the database refuses, and says why', async () => {
    const { user } = setup({ onGrant: () => Promise.reject(new Error('Only staff can grant tiers')) });
    await user.click(screen.getByRole('button', { name: 'Grant a tier' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason'), 'Gift');
    await user.click(within(dialog).getByRole('button', { name: 'Grant tier' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Nothing was changed: Only staff can grant tiers',
    );
    expect(within(dialog).getByLabelText('Reason')).toHaveValue('Gift');
    expect(within(dialog).getByRole('button', { name: 'Grant tier' })).not.toHaveAttribute('aria-disabled');
  });

  it('revokes the staff grant with a reason', async () => {
    const { user, calls } = setup({ detail: ready(granted) });
    await user.click(screen.getByRole('button', { name: 'Revoke staff grant' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke the staff grant of ann@example.com' });
    expect(dialog).toHaveAccessibleDescription(/Ends their Complete Transformation staff grant/);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke grant' }));
    expect(calls).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'Talk cancelled');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke grant' }));
    expect(calls).toEqual([['revoke', 'Talk cancelled']]);
    expect(await screen.findByText('Staff grant revoked')).toBeInTheDocument();
  });

  it('loading and could-not-load are their own states, with a retry', async () => {
    let retried = 0;
    const { user } = setup({
      detail: { status: 'error', error: new Error('Failed to fetch'), retrying: false, retry: () => void retried++ },
    });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load this member. Failed to fetch");
    expect(screen.queryByRole('button', { name: 'Grant a tier' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retried).toBe(1);
  });

  it('says so when the account no longer exists', () => {
    setup({ detail: { status: 'ready', data: null, refreshFailed: false, retrying: false, retry: () => undefined } });
    expect(screen.getByText('This account no longer exists.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Grant a tier' })).not.toBeInTheDocument();
  });

  it('shows a spinner while the member loads', () => {
    setup({ detail: { status: 'loading', retrying: false } });
    expect(screen.getByRole('status')).toHaveTextContent('Loading this member...');
  });

  it('erases only with the e-mail typed again and a reason, then toasts and closes', async () => {
    const { user, calls } = setup();
    await user.click(screen.getByRole('button', { name: 'Erase this member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase ann@example.com' });
    const emailField = within(dialog).getByLabelText('Type their e-mail address to confirm');
    await user.type(emailField, 'someone@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Erase member' }));
    expect(within(dialog).getByText("That is not this member's e-mail address.")).toBeInTheDocument();
    expect(emailField).toHaveFocus();
    await user.clear(emailField);
    await user.type(emailField, 'ANN@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Erase member' }));
    expect(within(dialog).getByLabelText('Reason')).toHaveFocus();
    expect(calls).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), ' Asked by e-mail ');
    await user.click(within(dialog).getByRole('button', { name: 'Erase member' }));
    expect(await screen.findByText('ann@example.com is erased')).toBeInTheDocument();
    expect(calls).toEqual([['erase', 'ANN@example.com', 'Asked by e-mail'], ['erased']]);
  });

  it('keeps the dialog open and says why when the server refuses the erasure', async () => {
    const { user, calls } = setup({
      onErase: async () => {
        throw new Error('Staff accounts cannot be erased here; remove their staff role first.');
      },
    });
    await user.click(screen.getByRole('button', { name: 'Erase this member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase ann@example.com' });
    await user.type(within(dialog).getByLabelText('Type their e-mail address to confirm'), 'ann@example.com');
    await user.type(within(dialog).getByLabelText('Reason'), 'Asked');
    await user.click(within(dialog).getByRole('button', { name: 'Erase member' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Nothing was erased: Staff accounts cannot be erased here; remove their staff role first.',
    );
    expect(calls).toEqual([]);
  });
});
