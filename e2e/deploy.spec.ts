import type { Page } from '@playwright/test';
import { expect, test, waitForHydration, withoutSpeculationRules } from './fixtures';

// A tab opened before a deploy asks for chunk names the host no longer serves. The route
// chunk for /auth is answered 404 here, as a host would after the old build is gone. The
// browser has no Speculation Rules, so the app's router, not a page Chrome got ready, takes
// the tap on the link.
const authChunk = /\/assets\/auth-[\w-]{8}\.js$/;

async function failAuthChunk(page: Page, times: number) {
  await withoutSpeculationRules(page);
  let requests = 0;
  await page.route(authChunk, async (route) => {
    requests += 1;
    if (requests <= times) await route.fulfill({ status: 404, body: 'Not Found' });
    else await route.continue();
  });
  return () => requests;
}

/** The paths of the pages the tab loads as documents, in order (speculative loads are not the tab's). */
function documentLoads(page: Page) {
  const paths: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() !== 'document' || request.frame() !== page.mainFrame()) return;
    if ((request.headers()['sec-purpose'] ?? '').startsWith('prefetch')) return;
    paths.push(new URL(request.url()).pathname);
  });
  return () => paths;
}

test('a route chunk gone after a deploy reloads the page once and the visitor gets there', async ({ page }) => {
  const requests = await failAuthChunk(page, 2);
  const documents = documentLoads(page);
  await page.goto('/');
  await waitForHydration(page);
  // Once the app runs, it loads the code of the pages / links to while the visitor reads: the
  // deploy shows first there. That failure is left to the tap: the visitor is not moved.
  await expect.poll(() => requests()).toBe(1);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(documents()).toEqual(['/']);

  await page.getByRole('link', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  // The prerendered /auth shows its tabs before its chunk has loaded: wait for the requests.
  await expect.poll(() => requests()).toBe(3);
  expect(documents()).toEqual(['/', '/auth']);
});

test('a chunk that keeps failing shows the error screen instead of reloading forever', async ({ page }) => {
  const requests = await failAuthChunk(page, Number.POSITIVE_INFINITY);
  const documents = documentLoads(page);
  await page.goto('/');
  // The app is running (a link clicked before that is a plain page load), and has asked for
  // the chunk ahead of the tap.
  await waitForHydration(page);
  await expect.poll(() => requests()).toBe(1);
  await page.getByRole('link', { name: 'Sign In', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  // One reload, and no loop: the load ahead asks once, then each of the two pages asks for the
  // chunk once or twice (Chromium fetches a failed dynamic import again when it is imported
  // again). The reloaded page starts the app at once, as it was running before the reload.
  expect(documents()).toEqual(['/', '/auth']);
  expect(requests()).toBeGreaterThanOrEqual(3);
  expect(requests()).toBeLessThanOrEqual(5);
});
