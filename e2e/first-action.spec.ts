import { randomUUID } from 'node:crypto';
import type { Route } from '@playwright/test';
import { landing } from '../src/content/landing';
import { expect, holdTheApp, test, waitForHydration } from './fixtures';

// A first-time visitor's prerendered page is complete without the app, so it loads only a
// small boot script; the app (React, the router, the page's components) loads when the
// visitor first acts on the page (src/boot/main.ts; see docs/decisions/042-hydrate-on-intent.md).
// Whatever they did before it took over is not lost.

for (const path of ['/', '/bundles', '/upgrade', '/auth']) {
  test(`${path} runs only the boot script until the visitor acts, then starts the app`, async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // `goto` waited for `load`: the boot script has run, and asked for nothing more.
    expect(scripts).toEqual([expect.stringMatching(/^\/assets\/index-[^/]+\.js$/)]);

    await waitForHydration(page);
    expect(scripts.some((script) => /^\/assets\/start-[^/]+\.js$/.test(script))).toBe(true);
  });
}

test('a tap on Play before the app has loaded is answered by the page, and the app keeps the player it finds', async ({
  page,
}) => {
  const embeds: string[] = [];
  await page.route(/youtube-nocookie\.com/, (route) => {
    embeds.push(route.request().url());
    return route.fulfill({ contentType: 'text/html', body: '<title>player</title>' });
  });
  const app = await holdTheApp(page);
  await page.goto('/');
  await page.getByRole('button', { name: new RegExp(landing.hero.video.play) }).click();
  // The tap started the app's download, and the page answered without it: the player loads.
  await expect.poll(app.requested).toBe(true);
  const player = page.getByTitle(landing.hero.video.iframeTitle);
  await expect(player).toBeVisible();
  await expect(player).toBeFocused();
  await expect.poll(() => embeds.length).toBe(1);

  await app.release();
  await waitForHydration(page, { act: false });
  // The app adopted the playing state (the button stays gone) without loading the player again.
  await expect(page.getByRole('button', { name: new RegExp(landing.hero.video.play) })).toBeHidden();
  await expect(page.locator('iframe[src]')).toHaveCount(1);
  await expect(player).toBeVisible();
  expect(embeds).toHaveLength(1);
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

test('a visitor who scrolls before the app runs keeps their place, and taps the link they see', async ({ page }) => {
  const app = await holdTheApp(page);
  await page.goto('/upgrade');
  // Scrolling is the visitor's first action: it starts the app, held here meanwhile.
  await page.mouse.move(200, 300);
  await page.mouse.wheel(0, 700);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await expect.poll(app.requested).toBe(true);
  const scrolled = await page.evaluate(() => window.scrollY);

  await app.release();
  await waitForHydration(page, { act: false });
  // Hydrating must not scroll the page back to the top, under the visitor's finger.
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  await page.getByRole('link', { name: 'Download eBook Now' }).click();
  await expect(page).toHaveURL(/\/auth\?next=%2Fresources$|\/auth\?next=\/resources$/);
});
