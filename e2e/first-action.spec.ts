import type { Page, Route } from '@playwright/test';
import { landing } from '../src/content/landing';
import { expect, test, waitForHydration } from './fixtures';

// A first-time visitor's prerendered page is complete without the app, so it loads only a
// small boot script; the app (React, the router, the page's components) loads when the
// visitor first acts on the page (src/main.tsx, decision 42). Whatever they did before it
// took over is not lost.

/** Holds the app's chunk until `release`, so a test can act on the page before the app runs. */
async function holdTheApp(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/start-[^/]+\.js$/, (route) => (released ? route.continue() : held.push(route)));
  return {
    requested: () => held.length > 0,
    async release() {
      released = true;
      for (const route of held) await route.continue();
    },
  };
}

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

test('a tap on Play before the app has loaded is kept, and plays once it has', async ({ page }) => {
  const app = await holdTheApp(page);
  await page.goto('/');
  const play = page.getByRole('button', { name: new RegExp(landing.hero.video.play) });
  await play.click();
  // The tap started the app's download; the button says it is busy meanwhile.
  await expect.poll(app.requested).toBe(true);
  await expect(play).toHaveAttribute('aria-busy', 'true');
  await expect(page.locator('iframe')).toHaveCount(0);

  await app.release();
  await expect(page.locator('iframe')).toHaveCount(1);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
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
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByLabel('Password').press('Enter');
  const submit = page.getByRole('button', { name: 'Sign In', exact: true });
  await expect(submit).toHaveAttribute('aria-busy', 'true');
  expect(app.requested()).toBe(true);

  await app.release();
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();
  expect(posts).toEqual([]);
});

test('Sign Up chosen before the app has loaded opens once it has', async ({ page }) => {
  const app = await holdTheApp(page);
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect.poll(app.requested).toBe(true);
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'false');

  await app.release();
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
});
