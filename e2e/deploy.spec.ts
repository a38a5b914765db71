import type { Page } from '@playwright/test';
import { expect, test, waitForHydration } from './fixtures';

// A tab opened before a deploy asks for chunk names the host no longer serves. The route
// chunk for /auth is answered 404 here, as a host would after the old build is gone.
const authChunk = /\/assets\/auth-[\w-]{8}\.js$/;

async function failAuthChunk(page: Page, times: number) {
  let requests = 0;
  await page.route(authChunk, async (route) => {
    requests += 1;
    if (requests <= times) await route.fulfill({ status: 404, body: 'Not Found' });
    else await route.continue();
  });
  return () => requests;
}

test('a route chunk gone after a deploy reloads the page once and the visitor gets there', async ({ page }) => {
  const requests = await failAuthChunk(page, 1);
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('link', { name: 'Sign In', exact: true }).click();

  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  // The prerendered /auth shows its tabs before its chunk has loaded: wait for the requests.
  await expect.poll(() => requests()).toBe(2);
});

test('a chunk that keeps failing shows the error screen instead of reloading forever', async ({ page }) => {
  const requests = await failAuthChunk(page, Number.POSITIVE_INFINITY);
  const authLoads: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && new URL(request.url()).pathname === '/auth') {
      authLoads.push(request.url());
    }
  });
  await page.goto('/');
  // The app is running (a link clicked before that is a plain page load).
  await waitForHydration(page);
  await page.getByRole('link', { name: 'Sign In', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  // One reload, and no loop: each of the two pages asks for the chunk once or twice (Chromium
  // fetches a failed dynamic import again when it is imported again). The reloaded page
  // starts the app at once, as it was running before the reload.
  expect(authLoads).toHaveLength(1);
  expect(requests()).toBeGreaterThanOrEqual(2);
  expect(requests()).toBeLessThanOrEqual(4);
});
