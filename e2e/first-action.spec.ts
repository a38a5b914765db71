import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Route } from '@playwright/test';
import { landing } from '../src/content/landing';
import { documentPages } from '../src/config/paths';
import { expect, holdTheApp, test, waitForHydration } from './fixtures';

// The public pages are documents: prerendered, with one small script of their own and no
// React (src/document/main.ts). The app (React, the router, the page's components) runs on
// /auth and the member pages, where it starts as soon as the page has painted
// (src/boot/main.ts); whatever the visitor did before it took over is not lost.
// See docs/decisions/098-public-pages-are-documents.md.

type ChunkMap = { chunks: Record<string, { modules: string[] }> };
/** The build's chunks that hold React DOM or the router, read when a test runs (after the web server's build). */
function reactChunks(): string[] {
  const map = JSON.parse(
    readFileSync(fileURLToPath(new URL('../dist/.vite/chunk-map.json', import.meta.url)), 'utf8'),
  ) as ChunkMap;
  return Object.entries(map.chunks)
    .filter(([, chunk]) =>
      chunk.modules.some((module) => /node_modules\/(react-dom|react-router|react)\//.test(module)),
    )
    .map(([file]) => `/${file}`);
}

for (const path of documentPages) {
  test(`${path} is a document: a first-time visitor's page loads no React, before or after acting on it`, async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Acting on the page (a key, a scroll, a tap on the text) starts nothing either.
    await page.keyboard.press('Tab');
    await page.mouse.wheel(0, 400);
    await page.getByRole('heading', { level: 1 }).click();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    expect(scripts).toContainEqual(expect.stringMatching(/^\/assets\/document-[^/]+\.js$/));
    const react = reactChunks();
    expect(react.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => react.includes(script))).toEqual([]);
    expect(scripts.filter((script) => /^\/assets\/(index|start)-/.test(script))).toEqual([]);
    await expect(page.locator('head > style ~ [data-page-head]')).toHaveCount(0);
  });
}

test('/auth runs only the boot script until the visitor acts, then starts the app', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/auth');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // `goto` waited for `load`: the boot script has run, and asked for nothing of the app.
  expect(scripts).toContainEqual(expect.stringMatching(/^\/assets\/index-[^/]+\.js$/));
  const react = reactChunks();
  expect(scripts.filter((script) => react.includes(script) || /^\/assets\/start-/.test(script))).toEqual([]);
  await waitForHydration(page);
  expect(scripts.some((script) => /^\/assets\/start-[^/]+\.js$/.test(script))).toBe(true);
});

test('a tap on Play before the page’s script has run is held, then answered once: the player loads once', async ({
  page,
}) => {
  const embeds: string[] = [];
  await page.route(/youtube-nocookie\.com/, (route) => {
    embeds.push(route.request().url());
    return route.fulfill({ contentType: 'text/html', body: '<title>player</title>' });
  });
  const script: Route[] = [];
  let released = false;
  await page.route(/\/assets\/document-[^/]+\.js$/, (route) => (released ? route.continue() : script.push(route)));
  await page.goto('/', { waitUntil: 'commit' });
  const play = page.getByRole('button', { name: new RegExp(landing.hero.video.play) });
  await expect.poll(() => script.length).toBe(1);
  await play.click();
  // Held by the page's inline head script: nothing loads yet, and the tap is not lost.
  await expect(play).toBeVisible();
  released = true;
  for (const route of script) await route.continue();
  const player = page.getByTitle(landing.hero.video.iframeTitle);
  await expect(player).toBeVisible();
  await expect(player).toBeFocused();
  await expect(play).toBeHidden();
  await expect.poll(() => embeds.length).toBe(1);
  await expect(page.locator('iframe[src]')).toHaveCount(1);
});

test('/auth typed in and submitted before the app has loaded signs in once it has, posting nothing', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'ebook' });
  const app = await holdTheApp(page);
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.resourceType() === 'document') posts.push(request.url());
  });
  await page.goto('/auth');
  await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
  await page.getByRole('tabpanel').getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('tabpanel').getByLabel('Password', { exact: true }).press('Enter');
  const submit = page.getByRole('button', { name: 'Sign In', exact: true });
  await expect(submit).toHaveAttribute('aria-busy', 'true');
  // The first intent asked for the app; its request reaches the route (held) on its own time.
  await expect.poll(app.requested).toBe(true);

  await app.release();
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();
  expect(posts).toEqual([]);
});

test('Sign Up chosen before the app has loaded opens at once, and what is typed in it is what the app sends', async ({
  page,
}) => {
  const app = await holdTheApp(page);
  const signUps: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/auth/v1/signup'))
      signUps.push(request.postData() ?? '');
  });
  await page.goto('/auth');
  const signUp = page.getByRole('tab', { name: 'Sign Up' });
  await signUp.click();
  await expect.poll(app.requested).toBe(true);
  await expect(signUp).toHaveAttribute('aria-selected', 'true');
  const form = page.getByRole('tabpanel', { name: 'Sign Up' });
  await expect(form.getByText('Must be at least 6 characters')).toBeVisible();
  const email = `e2e-early-${randomUUID()}@example.com`;
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill('a-good-password');
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(form.getByRole('button', { name: 'Create Account' })).toHaveAttribute('aria-busy', 'true');
  expect(signUps).toEqual([]);

  await app.release();
  await expect.poll(() => signUps.length).toBe(1);
  expect(JSON.parse(signUps[0] ?? '{}')).toMatchObject({ email, password: 'a-good-password' });
});

test('taps before the boot script has run are held by the page, then answered, and the app signs in once', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'ebook' });
  // The boot script (a deferred module) comes a round trip or more after the first paint on
  // a phone: hold it, and act meanwhile.
  const boot: Route[] = [];
  let bootReleased = false;
  await page.route(/\/assets\/index-[^/]+\.js$/, (route) => (bootReleased ? route.continue() : boot.push(route)));
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.resourceType() === 'document') posts.push(request.url());
  });
  await page.goto('/auth', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'Subscriber Access' })).toBeVisible();
  await expect.poll(() => boot.length).toBe(1);

  // A tab chosen with the keyboard and back with a tap, then the form filled and sent.
  await page.getByRole('tab', { name: 'Sign In' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
  await page.getByRole('tabpanel').getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  expect(posts).toEqual([]);

  bootReleased = true;
  for (const route of boot) await route.continue();
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();
  expect(posts).toEqual([]);
});

test('a visitor who scrolls /auth before the app has hydrated keeps their place', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 500 });
  const app = await holdTheApp(page);
  await page.goto('/auth');
  // Scrolling is the visitor's first action: it starts the app, held here meanwhile.
  await page.mouse.move(200, 300);
  await page.mouse.wheel(0, 300);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await expect.poll(app.requested).toBe(true);
  const scrolled = await page.evaluate(() => window.scrollY);

  await app.release();
  await waitForHydration(page, { act: false });
  // Hydrating must not scroll the page back to the top, under the visitor's finger.
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
});
