import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render';
import { Component as UpgradePage } from './upgrade';

function renderUpgrade() {
  return renderRoute(<UpgradePage />, { path: '/upgrade' });
}

const cards = [
  // The ebook is not sold on /bundles: its button leads to the buyer's files.
  { name: 'Yes, You Can! eBook', price: '$24.95', action: 'Download eBook Now', to: '/resources' },
  { name: 'Foundation Builder', price: '$49', action: 'Explore Foundation Builder', to: '/bundles' },
  { name: 'Accelerated Success', price: '$499', action: 'Explore Accelerated Success', to: '/bundles' },
  { name: 'Complete Transformation', price: '$1,495', action: 'Explore Complete Transformation', to: '/bundles' },
];

describe('upgrade page /upgrade', () => {
  it('congratulates the buyer in the one h1, with upsell text', async () => {
    renderUpgrade();
    expect(await screen.findAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Congratulations on Your Purchase!' })).toBeInTheDocument();
    expect(screen.getByText(/Choose the bundle that fits your season/)).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('shows four showcase cards: the ebook and the three bundles', async () => {
    renderUpgrade();
    const articles = await screen.findAllByRole('article');
    expect(articles.map((article) => within(article).getByRole('heading', { level: 2 }).textContent)).toEqual(
      cards.map((card) => card.name),
    );
    for (const card of cards) {
      expect(within(screen.getByRole('article', { name: card.name })).getByText(card.price)).toBeInTheDocument();
    }
    expect(screen.getByRole('img', { name: 'Cover of the Yes, You Can! ebook' })).toBeInTheDocument();
  });

  it.each(cards)('sends the $name card button "$action" to $to', async (card) => {
    renderUpgrade();
    const article = await screen.findByRole('article', { name: card.name });
    const links = within(article).getAllByRole('link');
    expect(links).toHaveLength(1);
    await userEvent.click(within(article).getByRole('link', { name: card.action }));
    expect(await screen.findByText(`page:${card.to}`)).toBeInTheDocument();
  });

  it('tells a visitor how to reach their files, and leads to sign-in and back', async () => {
    renderUpgrade();
    const box = await screen.findByRole('region', { name: 'Getting to your files' });
    expect(within(box).getByText(/Your files are ready/)).toBeInTheDocument();
    await userEvent.click(within(box).getByRole('link', { name: 'Sign in to your files' }));
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
  });

  it('offers visitors a Sign In link to /auth', async () => {
    renderUpgrade();
    const banner = await screen.findByRole('banner');
    await userEvent.click(await within(banner).findByRole('link', { name: 'Sign In' }));
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
  });
});
