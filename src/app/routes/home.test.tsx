import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { site } from '@/content/site';
import { renderRoute } from '@/testing/render';
import { Component as HomePage } from './home';

function renderHome() {
  return renderRoute(<HomePage />, { path: '/' });
}

function expectNewTab(link: HTMLElement, href: string) {
  expect(link).toHaveAttribute('href', href);
  expect(link).toHaveAttribute('target', '_blank');
  expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  expect(link).toHaveAccessibleName(expect.stringContaining('(opens in a new tab)'));
}

function expectSameWindow(link: HTMLElement, href: string) {
  expect(link).toHaveAttribute('href', href);
  expect(link).not.toHaveAttribute('target');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('landing page /', () => {
  it('has one h1, landmarks, and headings that never skip a level', async () => {
    renderHome();
    expect(await screen.findAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Yes, You Can!');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Quick links' })).toBeInTheDocument();

    const levels = screen.getAllByRole('heading').map((heading) => Number(heading.tagName.slice(1)));
    levels.forEach((level, index) => {
      if (index > 0) expect(level - (levels[index - 1] ?? 0)).toBeLessThanOrEqual(1);
    });
  });

  it('has a sticky header with the one gold purchase button, going to the storefront in this window', async () => {
    renderHome();
    const header = await screen.findByRole('banner');
    const links = within(header).getAllByRole('link');
    const purchase = within(header).getByRole('link', { name: 'Purchase Your Yes, You Can! ebook Today!' });
    expectSameWindow(purchase, site.urls.storefrontProduct);
    expect(links.filter((link) => link.className.includes('bg-gold'))).toEqual([purchase]);
    expect(header.className).toContain('sticky');
  });

  it('shows Sign In for visitors, linking to /auth', async () => {
    renderHome();
    await userEvent.click(await screen.findByRole('link', { name: 'Sign In' }));
    expect(await screen.findByText('page:/auth')).toBeInTheDocument();
  });

  it('shows the hero: cover with alt text, tagline and the three benefits', async () => {
    renderHome();
    expect(await screen.findByRole('img', { name: 'Cover of the Yes, You Can! ebook' })).toHaveAttribute(
      'width',
      String(site.ebook.cover.width),
    );
    const hero = screen.getByRole('region', { name: 'Yes, You Can!' });
    expect(within(hero).getByText(site.tagline)).toBeInTheDocument();
    for (const benefit of ['Finish Your Book in 90 Days', 'Silence Your Inner Critic', 'Overcome Perfectionism']) {
      expect(within(hero).getByText(benefit).closest('li')).not.toBeNull();
    }
  });

  it('shows $497 struck through against $24.95 with the price notes', async () => {
    renderHome();
    const price = await screen.findByRole('region', { name: 'Start Your Book Today' });
    const struck = within(price).getByText('$497');
    expect(struck.closest('del, s')).not.toBeNull();
    expect(struck.closest('del, s')).toHaveTextContent('Regular price: $497');
    expect(within(price).getByText('$24.95').closest('del, s')).toBeNull();
    for (const text of [
      'limited-time introductory price',
      'Instant Digital Access',
      'No Shipping',
      'Start Reading in 2 Minutes',
    ]) {
      expect(within(price).getByText(text)).toBeInTheDocument();
    }
  });

  it('sends the purchase buttons to the storefront product page in this window', async () => {
    renderHome();
    expectSameWindow(await screen.findByRole('link', { name: 'Get Your Copy Today' }), site.urls.storefrontProduct);
    expectSameWindow(screen.getByRole('link', { name: 'Breakthrough Starts Here' }), site.urls.storefrontProduct);
  });

  it('opens View Special Offers on the storefront in a new tab', async () => {
    renderHome();
    expectNewTab(await screen.findByRole('link', { name: /^View Special Offers/ }), site.urls.storefront);
  });

  it('has the problem/solution and fear/breakthrough sections', async () => {
    renderHome();
    expect(await screen.findByRole('heading', { level: 2, name: 'Does This Sound Familiar?' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'What Waiting Is Costing You' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'What You Get Inside Yes, You Can!' })).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Living with fear' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Living your breakthrough' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row').length).toBeGreaterThan(3);
  });

  it('closes with a scripture quotation and the company-site call to action in this window', async () => {
    renderHome();
    const closing = await screen.findByRole('region', { name: 'Your Story Is Worth Finishing' });
    const quote = within(closing).getByText(/I can do all things through Christ which strengtheneth me\./);
    expect(quote.closest('blockquote')).not.toBeNull();
    expect(within(closing).getByText('Philippians 4:13 (KJV)')).toBeInTheDocument();
    expectSameWindow(within(closing).getByRole('link', { name: 'Get Yes, You Can Now' }), site.urls.company);
  });

  it('has footer quick links: shop links in new tabs, Bundles and Subscriber Resources in the app', async () => {
    renderHome();
    const footer = await screen.findByRole('contentinfo');
    expectNewTab(within(footer).getByRole('link', { name: /^Special Offers/ }), site.urls.storefront);
    expectNewTab(within(footer).getByRole('link', { name: /^Visit Our Shop/ }), site.urls.storefront);
    expect(within(footer).getByRole('link', { name: site.contactEmail })).toHaveAttribute(
      'href',
      `mailto:${site.contactEmail}`,
    );

    await userEvent.click(within(footer).getByRole('link', { name: 'Subscriber Resources' }));
    expect(await screen.findByText('page:/resources')).toBeInTheDocument();
  });

  it('links the footer Bundles entry to /bundles', async () => {
    renderHome();
    const footer = await screen.findByRole('contentinfo');
    await userEvent.click(within(footer).getByRole('link', { name: 'Bundles' }));
    expect(await screen.findByText('page:/bundles')).toBeInTheDocument();
  });

  it('prints the copyright with the current year, computed at render', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-04T12:00:00Z'));
    renderHome();
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByText('© 2031 Yes, You Can! All rights reserved.')).toBeInTheDocument();
  });

  it('loads no video iframe until asked', async () => {
    const { container } = renderHome();
    await screen.findByRole('button', { name: /^Play video/ });
    expect(container.querySelector('iframe')).toBeNull();
  });
});
