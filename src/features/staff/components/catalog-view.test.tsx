import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { MemoryRouter } from 'react-router-dom';
import type { CatalogProduct, StaffCatalog } from '../lib/catalog';
import { CatalogView } from './catalog-view';

afterEach(() => {
  toast.dismiss();
});

const product = (tier: CatalogProduct['tier'], name: string, ids: CatalogProduct['provider_ids']): CatalogProduct => ({
  tier,
  name,
  price_cents: 4900,
  total_value_cents: 19700,
  total_value_is_floor: false,
  savings_cents: 14800,
  savings_is_floor: false,
  checkout_url: `https://checkout.example.com/${tier}`,
  sales_video_url: null,
  updated_at: '2026-11-26T10:00:00Z',
  provider_ids: ids,
});

const catalog: StaffCatalog = {
  products: [
    product('ebook', 'Yes, You Can! ebook', [{ kind: 'stripe_price', id: 'price_ebook' }]),
    product('foundation', 'Foundation Builder', [{ kind: 'stripe_price', id: 'price_f' }]),
  ],
  unmatched_count: 1,
  unmatched: [
    {
      id: 'u1',
      provider: 'stripe',
      order_id: 'pi_9',
      email: 'late@example.com',
      amount_cents: 5900,
      currency: 'USD',
      provider_ids: [
        { kind: 'stripe_price', id: 'price_new' },
        { kind: 'stripe_product', id: 'prod_f' },
      ],
      occurred_at: '2026-11-26T10:00:00Z',
      refunded_at: null,
    },
  ],
  audit: [],
};

function setup(onSave = vi.fn(async () => 0), onMap = vi.fn(async () => 1)) {
  render(
    <MemoryRouter>
      <Toaster />
      <CatalogView
        catalog={{ status: 'ready', data: catalog, refreshFailed: false, retrying: false, retry: () => undefined }}
        onSave={onSave}
        onMap={onMap}
      />
    </MemoryRouter>,
  );
  return { user: userEvent.setup(), onSave, onMap, form: screen.getByRole('form', { name: 'Foundation Builder' }) };
}

describe('CatalogView', () => {
  it('says at the field what is wrong and saves nothing', async () => {
    const { user, onSave, form } = setup();
    await user.clear(within(form).getByLabelText('Price shown (US$)'));
    await user.type(within(form).getByLabelText('Price shown (US$)'), '4g');
    await user.clear(within(form).getByLabelText('Checkout link'));
    await user.type(within(form).getByLabelText('Checkout link'), 'http://checkout.example.com/f');
    await user.type(within(form).getByLabelText('Provider ids that grant this product'), '\nstripe_price price_ebook');
    await user.click(within(form).getByRole('button', { name: 'Save Foundation Builder' }));
    expect(within(form).getByLabelText('Price shown (US$)')).toHaveAccessibleDescription(
      /The price must be an amount in dollars and cents/,
    );
    expect(within(form).getByLabelText('Checkout link')).toHaveAccessibleDescription(/must be an https:\/\/ link/);
    expect(within(form).getByLabelText('Provider ids that grant this product')).toHaveAccessibleDescription(
      /price_ebook already grants Yes, You Can! ebook/,
    );
    expect(onSave).not.toHaveBeenCalled();
  });

  it('saves the typed values in cents, and shows the database’s refusal at the field it names', async () => {
    const onSave = vi.fn(async () => {
      // As the staff RPC error carries the database's refusal: its message, code and hint.
      throw Object.assign(new Error('A checkout link must be an https:// link'), {
        code: '22023',
        hint: 'checkout_url',
      });
    });
    const { user, form } = setup(onSave);
    await user.clear(within(form).getByLabelText('Price shown (US$)'));
    await user.type(within(form).getByLabelText('Price shown (US$)'), '59.50');
    await user.click(within(form).getByRole('button', { name: 'Save Foundation Builder' }));
    expect(onSave).toHaveBeenCalledWith('foundation', expect.objectContaining({ price: 5950 }));
    expect(await within(form).findByText('A checkout link must be an https:// link')).toBeInTheDocument();
    expect(within(form).getByRole('alert')).toHaveTextContent('Nothing was saved');
  });

  it('lists unmatched sales with a count and maps the chosen id to the chosen product', async () => {
    const { user, onMap } = setup();
    expect(screen.getByRole('heading', { name: 'Unmatched sales (1)' })).toBeInTheDocument();
    const sale = screen.getByRole('form', { name: 'Map order pi_9' });
    await user.selectOptions(within(sale).getByLabelText('Provider id'), 'Stripe product prod_f');
    await user.selectOptions(within(sale).getByLabelText('Grants'), 'Foundation Builder');
    await user.click(within(sale).getByRole('button', { name: 'Map and grant' }));
    expect(onMap).toHaveBeenCalledWith('stripe_product', 'prod_f', 'foundation');
    expect(await screen.findByText('prod_f now grants Foundation Builder: 1 sale granted')).toBeInTheDocument();
  });
});

describe('CatalogView: coaching', () => {
  it('puts the coaching section under the products, and lists coaching changes as such', () => {
    const audited: StaffCatalog = {
      ...catalog,
      audit: [
        {
          id: 7,
          changed_at: '2026-12-01T10:00:00Z',
          changed_by_email: 'staff@example.com',
          tier: 'accelerated',
          what: 'coaching',
          operation: 'update',
          changes: 'sessions: 2 → 3',
        },
      ],
    };
    render(
      <MemoryRouter>
        <CatalogView
          catalog={{ status: 'ready', data: audited, refreshFailed: false, retrying: false, retry: () => undefined }}
          onSave={vi.fn()}
          onMap={vi.fn()}
          coaching={(products) => <p>coaching for {products.map((p) => p.name).join(', ')}</p>}
        />
      </MemoryRouter>,
    );
    expect(screen.getByText('coaching for Yes, You Can! ebook, Foundation Builder')).toBeInTheDocument();
    const changes = screen.getByRole('table', { name: 'Catalog changes, newest first' });
    expect(within(changes).getByRole('row', { name: /staff@example.com/ })).toHaveTextContent(
      'coaching: sessions: 2 → 3',
    );
  });
});
