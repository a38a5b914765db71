import type { Page } from '@playwright/test';
import { expect, test, waitForHydration, withoutSpeculationRules } from './fixtures';

// A tab opened before a deploy asks for chunk names the host no longer serves. The route
// chunk for /auth is answered 404 here, as a host would after the old build is gone. The
// browser has no Speculation Rules: nothing is fetched ahead of the visitor.
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

test('a route chunk gone after a deploy reloads the page once and the visitor gets the page', async ({ page }) => {
  const requests = await failAuthChunk(page, 1);
  const documents = documentLoads(page);
  await page.goto('/auth');
  // The visitor's first action starts the app; its route chunk is gone: the page loads again,
  // with the new build's names, and the app starts at once there, as it was running before.
  await page.getByRole('textbox', { name: 'Email' }).click();
  await expect.poll(() => documents()).toEqual(['/auth', '/auth']);
  await waitForHydration(page, { act: false });
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Sign Up' })).toBeVisible();
  // Failed once on the first page (Chromium may ask a failed import twice), then served.
  expect(requests()).toBeGreaterThanOrEqual(2);
  expect(documents()).toEqual(['/auth', '/auth']);
});

test('a chunk that keeps failing shows the error screen instead of reloading forever', async ({ page }) => {
  const requests = await failAuthChunk(page, Number.POSITIVE_INFINITY);
  const documents = documentLoads(page);
  await page.goto('/auth');
  await page.getByRole('textbox', { name: 'Email' }).click();

  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  // One reload, and no loop: each of the two pages asks for the chunk once or twice (Chromium
  // fetches a failed dynamic import again when it is imported again).
  expect(documents()).toEqual(['/auth', '/auth']);
  expect(requests()).toBeGreaterThanOrEqual(2);
  expect(requests()).toBeLessThanOrEqual(4);
});
