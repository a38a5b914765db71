import type { Page, Route } from '@playwright/test';
import { e2eEnv } from './env';
import { expect, signInAs, test } from './fixtures';

// The public pages carry Speculation Rules (scripts/build/speculation-rules.mjs): Chrome
// fetches the next public pages and prerenders those the top of the page links to from the
// page's first contentful paint on, its load event not waited for; the footer's pages from
// the load event on (src/document/speculation.ts).
// Here, in the suite's Chromium, the prefetch is real and used. A prerender is not: Chrome
// starts none for a page Playwright drives (decision 085 says which DevTools sessions stop
// it), so the prerendered page's own part, starting nothing until it is shown, is driven
// through the same browser signal, `document.prerendering` and `prerenderingchange`, given to
// the page before its scripts run.

test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

/** A visit's count (src/lib/count.ts): sent once the page is shown and loaded. */
const isCount = (request: string) => request === `POST ${e2eEnv.supabaseUrl}/functions/v1/count`;

/** Every request the page's context makes to Supabase, as it happens, counts included. */
function supabaseRequests(page: Page): string[] {
  const seen: string[] = [];
  page.context().on('request', (request) => {
    if (request.url().startsWith(e2eEnv.supabaseUrl)) seen.push(`${request.method()} ${request.url()}`);
  });
  return seen;
}

/** The first download link of /resources is on screen (a member whose tier opens files). */
async function expectFiles(page: Page) {
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Download / }).first()).toBeVisible();
}

async function signInWithEnter(page: Page, user: { email: string; password: string }) {
  await page.getByRole('textbox', { name: 'Email' }).tap();
  await page.keyboard.type(user.email);
  await page.getByRole('tabpanel').getByLabel('Password', { exact: true }).tap();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
}

/**
 * Taps the header's Sign In and waits for the /auth form; returns the tab's document as
 * Navigation Timing has it: its address, and whether it came from a prefetch (`deliveryType`).
 */
async function tapSignInToAuth(page: Page) {
  await page.getByRole('link', { name: 'Sign In', exact: true }).tap();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  return page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceEntry & { deliveryType?: string };
    return { name: navigation.name, deliveryType: navigation.deliveryType };
  });
}

test('a tap on Sign In opens /auth from the page Chrome fetched ahead, and the form signs in', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'foundation' });
  const supabase = supabaseRequests(page);
  await page.goto('/');
  // Nothing more is fetched than the page and its own files (the next pages' HTML included):
  // the network settles with no request to Supabase but the count of the view.
  await page.waitForLoadState('networkidle');
  expect(supabase).toEqual([`POST ${e2eEnv.supabaseUrl}/functions/v1/count`]);

  // The document came from the prefetch the page's rules made (Navigation Timing's deliveryType).
  expect((await tapSignInToAuth(page)).deliveryType).toBe('navigational-prefetch');
  expect(supabase.filter((request) => !isCount(request))).toEqual([]);

  await signInWithEnter(page, user);
  await expectFiles(page);
});

test('the top links’ rules come in force at first paint, while the page is still loading; the footer’s at its load event', async ({
  page,
}) => {
  // The page's load event waits for its cover image, held here.
  const held: Route[] = [];
  await page.route(/\/yes-you-can-cover\.[a-z]+$/, (route) => held.push(route));
  await page.goto('/', { waitUntil: 'commit' });
  await expect(page.locator('script[type="speculationrules"][data-stage="0"]')).toHaveCount(1);
  await expect.poll(() => held.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
  await expect(page.locator('script[type="speculationrules"]')).toHaveCount(1);
  for (const route of held) await route.continue();
  await expect(page.locator('script[type="speculationrules"][data-stage="1"]')).toHaveCount(1);
  expect(await page.evaluate(() => document.readyState)).toBe('complete');
});

test('links between the documents are plain navigations to the pages Chrome fetched ahead', async ({ page }) => {
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await page.getByRole('link', { name: 'Bundles', exact: true }).tap();
  await expect(page).toHaveURL(/\/bundles$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Compare Our Bundles' })).toBeVisible();
  const delivery = () =>
    page.evaluate(
      () =>
        (performance.getEntriesByType('navigation')[0] as PerformanceEntry & { deliveryType?: string }).deliveryType,
    );
  expect(await delivery()).toBe('navigational-prefetch');
  await page.waitForLoadState('networkidle');
  await page.getByRole('link', { name: 'Back to Home' }).tap();
  await expect(page).toHaveURL(/\/$/);
  expect(await delivery()).toBe('navigational-prefetch');
});

/**
 * `path` opens as Chrome prerenders it: `document.prerendering` until `activate()`, which
 * fires `prerenderingchange` as Chrome does when the visitor's navigation takes the page.
 */
async function openPrerendered(page: Page, path: string) {
  await page.addInitScript((prerenderedPath) => {
    if (location.pathname !== prerenderedPath) return;
    let prerendering = true;
    Object.defineProperty(Document.prototype, 'prerendering', { configurable: true, get: () => prerendering });
    Object.assign(window, {
      __activate() {
        prerendering = false;
        document.dispatchEvent(new Event('prerenderingchange'));
      },
    });
  }, path);
  const appChunks: string[] = [];
  const islandChunks: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/start-[^/]+\.js$/.test(request.url())) appChunks.push(request.url());
    if (/\/assets\/member-island-[^/]+\.js$/.test(request.url())) islandChunks.push(request.url());
  });
  await page.goto(path);
  // The page's script has run (it takes the head script's held input), and the page has
  // settled: whatever it would start by itself has had its chance.
  await page.waitForFunction(() => !('__earlyInput' in window));
  await page.waitForLoadState('networkidle');
  return {
    appChunks,
    islandChunks,
    activate: () => page.evaluate(() => (window as unknown as { __activate: () => void }).__activate()),
  };
}

test('a prerendered /auth starts nothing until shown; its visitor then signs in as on a fresh page', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'foundation' });
  const supabase = supabaseRequests(page);
  const prerendered = await openPrerendered(page, '/auth');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  expect(prerendered.appChunks).toEqual([]);
  expect(supabase).toEqual([]);
  await prerendered.activate();
  await signInWithEnter(page, user);
  await expectFiles(page);
  expect(prerendered.appChunks).toHaveLength(1);
});

test('a member’s prerendered /auth neither checks the session nor sends them on until shown', async ({
  page,
  makeUser,
}) => {
  await signInAs(page, await makeUser({ tier: 'foundation' }));
  const supabase = supabaseRequests(page);
  const prerendered = await openPrerendered(page, '/auth');
  // A shown page with a stored session starts the app at once and goes on to /resources.
  expect(prerendered.appChunks).toEqual([]);
  expect(supabase).toEqual([]);
  await expect(page).toHaveURL(/\/auth$/);

  await prerendered.activate();
  await expectFiles(page);
});

test('a member’s prerendered public page puts no rules in force and loads no menu until shown', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'foundation' });
  await signInAs(page, user);
  const supabase = supabaseRequests(page);
  const prerendered = await openPrerendered(page, '/bundles');
  expect(prerendered.islandChunks).toEqual([]);
  expect(supabase).toEqual([]);
  await expect(page.locator('script[type="speculationrules"]')).toHaveCount(0);

  await prerendered.activate();
  await expect(page.locator('script[type="speculationrules"]')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  expect(prerendered.islandChunks).toHaveLength(1);
  expect(prerendered.appChunks).toEqual([]);
});
