import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bundles, formatFeatureValue } from '@/content/bundles';
import { renderRoute } from '@/testing/render';
import { Component as BundlesPage } from './bundles';

function renderBundles() {
  return renderRoute(<BundlesPage />, { path: '/bundles' });
}

const expected = [
  { name: 'Foundation Builder', price: '$49', value: '$197', save: 'Save $148' },
  { name: 'Accelerated Success', price: '$499', value: '$1,847', save: 'Save $1,348' },
  { name: 'Complete Transformation', price: '$1,495', value: '$4,500+', save: 'Save over $3,000' },
];

describe('bundles page /bundles', () => {
  it('has one h1 "Compare Our Bundles" and the page landmarks', async () => {
    renderBundles();
    expect(await screen.findAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Compare Our Bundles' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('goes Back to Home', async () => {
    renderBundles();
    await userEvent.click(await screen.findByRole('link', { name: 'Back to Home' }));
    expect(await screen.findByText('page:/')).toBeInTheDocument();
  });

  it('shows Sign In for visitors', async () => {
    renderBundles();
    const banner = await screen.findByRole('banner');
    expect(await within(banner).findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
  });

  it.each(expected)('shows $name with its price, total value and savings, each figure once', async (row) => {
    renderBundles();
    const card = await screen.findByRole('article', { name: row.name });
    expect(within(card).getByText(row.price)).toHaveTextContent(`Price: ${row.price}`);
    expect(within(card).getByText('Total Value:').nextElementSibling).toHaveTextContent(row.value);
    expect(within(card).getByText(row.save)).toBeInTheDocument();
    // The "was" price is the total value: not shown a second time, struck through.
    expect(card.querySelector('del')).toBeNull();
    const figures: string[] = card.textContent?.match(/\$[\d,]+(?:\.\d+)?\+?/g) ?? [];
    expect(figures.filter((figure, index) => figures.indexOf(figure) !== index)).toEqual([]);
  });

  it.each(bundles.map((bundle) => [bundle.name, bundle] as const))(
    'lists every %s feature with its value and a checkout link in a new tab',
    async (_name, bundle) => {
      renderBundles();
      const card = await screen.findByRole('article', { name: bundle.name });
      expect(within(card).getByText(bundle.description)).toBeInTheDocument();
      for (const feature of bundle.features) {
        const item = within(card).getByText(feature.title).closest('li');
        expect(item).not.toBeNull();
        expect(item).toHaveTextContent(formatFeatureValue(feature.value));
        expect(item).toHaveTextContent(feature.description);
      }
      // The sr-only note tells screen-reader users the checkout opens in a new tab.
      const cta = within(card).getByRole('link', { name: new RegExp(`^${bundle.cta}\\s?\\(opens in a new tab\\)$`) });
      expect(cta).toHaveAttribute('href', bundle.purchaseUrl);
      expect(cta).toHaveAttribute('target', '_blank');
      expect(cta).toHaveAttribute('rel', 'noopener noreferrer');
    },
  );

  it('shows the VIP community as Priceless', async () => {
    renderBundles();
    const card = await screen.findByRole('article', { name: 'Complete Transformation' });
    expect(within(card).getByText('VIP Community').closest('li')).toHaveTextContent('Priceless');
  });

  it('badges only the middle card MOST POPULAR', async () => {
    renderBundles();
    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(3);
    expect(cards.map((card) => within(card).queryByText('MOST POPULAR') !== null)).toEqual([false, true, false]);
    expect(cards[1]).toHaveAccessibleName('Accelerated Success');
  });

  it('has the footer notes word for word', async () => {
    renderBundles();
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByText('INSTANT ACCESS • Digital Delivery • Lifetime Access')).toBeInTheDocument();
    expect(
      within(footer).getByText(
        'All bundles include instant digital access. Bundle 2 includes 90-day community access. Bundle 3 includes 6 months of VIP support.',
      ),
    ).toBeInTheDocument();
  });
});
