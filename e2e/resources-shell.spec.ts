import type { Page } from '@playwright/test';
import { resourceCards } from '../src/content/resources';
import { expect, signInAs, test } from './fixtures';

/**
 * /resources is prerendered as the page before the member's data (resources.html):
 * the frame and every card's own text are in the first response, so a member reads the page
 * while the app, their session, tier and file lists arrive. The app hydrates that shell, then
 * fills it in, or sends a visitor to sign in.
 */

/** The member's tier and files, read in one request. */
const tierRead = /\/rest\/v1\/rpc\/member_resources$/;

/** Errors the page reports: console errors and uncaught ones (a hydration mismatch is one). */
function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('the first response of /resources is the page and every card, busy, nothing sold or locked', async ({
  request,
}) => {
  const response = await request.get('/resources');
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain('<meta name="robots" content="noindex"');
  expect(html).toContain('>Subscriber Resources</h1>');
  expect(html).toContain('aria-busy="true"');
  expect(html).toContain('Loading your resources...');
  const asHtml = (text: string) => text.replace(/&/g, '&amp;');
  for (const card of resourceCards) {
    expect(html).toContain(asHtml(card.title));
    expect(html).toContain(asHtml(card.description));
  }
  expect(html).not.toContain('Current Tier');
  expect(html).not.toContain('Unlock with');
  expect(html).not.toContain('Ready for More?');
});

test('a member reads the cards while the tier is on its way, then the page fills in without an error', async ({
  page,
  makeUser,
}) => {
  const errors = pageErrors(page);
  // The stylesheet is inlined: loading it again would restyle the whole page (vite.config.ts).
  const stylesheets: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') stylesheets.push(request.url());
  });
  await signInAs(page, await makeUser({ tier: 'complete' }));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const tierAsked = new Promise<void>((resolve) => (asked = resolve));
  await page.route(tierRead, async (route) => {
    asked();
    await released;
    await route.continue();
  });

  await page.goto('/resources');
  // The app is running (it asked for the tier) and the shell it hydrated still shows.
  await tierAsked;
  await expect(page.getByRole('heading', { level: 1, name: 'Subscriber Resources' })).toBeVisible();
  await expect(page.getByRole('main')).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByText('Loading your resources...')).toBeVisible();
  for (const card of resourceCards) {
    await expect(page.getByRole('article', { name: card.title }).getByText(card.description)).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeDisabled();

  release();
  await expect(page.getByText('Current Tier: Complete Transformation')).toBeVisible();
  await expect(page.getByRole('main')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeEnabled();
  await expect(page.getByText('Loading files...')).toHaveCount(0);
  expect(errors).toEqual([]);
  expect(stylesheets).toEqual([]);
});

test('a visitor opening /resources is sent to sign in without having to act first', async ({ page }) => {
  const errors = pageErrors(page);
  await page.goto('/resources');
  await expect(page).toHaveURL(/\/auth\?next=\/resources$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  expect(errors).toEqual([]);
});
