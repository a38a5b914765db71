import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { resourceCards } from '../src/content/resources';
import { expect, signInAs, test } from './fixtures';
import { downloadLinkName } from './files';
import { titleFromName } from '../src/features/resources/lib/resource-files';

// Axe finds no serious or critical problem on any public page, nor on /resources
// signed in with every card unlocked; at a phone's width and a desktop's. Lighthouse also runs
// axe's `label-content-name-mismatch` (a control's accessible name must contain its visible
// text), which axe leaves off by default as experimental: it is on here.

const publicPages = [
  { path: '/', heading: 'Yes, You Can!' },
  { path: '/bundles', heading: 'Compare Our Bundles' },
  { path: '/upgrade', heading: 'Congratulations on Your Purchase!' },
  { path: '/privacy', heading: 'Your Privacy' },
  { path: '/auth', heading: 'Yes, You Can!' },
];
const viewports = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
];

async function seriousProblems(page: Page) {
  const results = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

for (const viewport of viewports) {
  for (const { path, heading } of publicPages) {
    test(`axe: no serious problem on ${path} (${viewport.name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      expect(await seriousProblems(page)).toEqual([]);
    });
  }

  test(`axe: no serious problem on /resources signed in with every card (${viewport.name})`, async ({
    page,
    makeUser,
  }) => {
    await page.setViewportSize(viewport);
    await signInAs(page, await makeUser({ tier: 'complete', displayName: 'Casey Complete' }));
    await page.goto('/resources');
    for (const file of resourceCards.flatMap((card) => card.sampleFiles)) {
      // A video plays in the page (no download), with its captions (not a file of their own).
      if (file.endsWith('.vtt')) continue;
      const shown = file.endsWith('.mp4')
        ? page.getByRole('button', { name: `Play ${titleFromName(file)}` })
        : page.getByRole('link', { name: downloadLinkName(file) });
      await expect(shown.first()).toBeVisible();
    }
    expect(await seriousProblems(page)).toEqual([]);
  });
}

test('the sales video is a facade: nothing third-party loads before the click, and its poster is small', async ({
  page,
  baseURL,
}) => {
  const site = new URL(baseURL ?? '').origin;
  const outside: string[] = [];
  const seen: Request[] = [];
  page.on('request', (request) => {
    seen.push(request);
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.hostname !== new URL(site).hostname) {
      outside.push(request.url());
    }
  });
  await page.goto('/');
  await page.waitForLoadState('load');
  const play = page.getByRole('button', { name: /play video/i });
  await expect(play).toBeVisible();
  await expect(page.locator('iframe[src]')).toHaveCount(0);
  expect(outside).toEqual([]);

  // The poster is drawn by the page itself: a 16:9 box, no image bigger than a few kilobytes.
  const box = await play.boundingBox();
  expect(box).not.toBeNull();
  expect(Math.abs((box?.width ?? 0) / (box?.height ?? 1) - 16 / 9)).toBeLessThan(0.02);
  const images = await Promise.all(
    seen
      .filter((request) => request.resourceType() === 'image')
      .map(async (request) => (await request.response())?.body()),
  );
  for (const body of images) expect(body?.length ?? 0).toBeLessThan(10_000);

  // After the click, and only then, the player's frame appears.
  await play.click();
  await expect(page.locator('iframe')).toHaveCount(1);
});

for (const { path, heading } of publicPages) {
  test(`every image on ${path} has a width and a height, and those below the fold load lazily`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    const media = await page.locator('img, iframe').evaluateAll((elements) =>
      elements.map((element) => ({
        tag: element.tagName.toLowerCase(),
        src: element.getAttribute('src'),
        width: element.getAttribute('width'),
        height: element.getAttribute('height'),
        loading: element.getAttribute('loading'),
        belowFold: element.getBoundingClientRect().top + window.scrollY >= window.innerHeight,
      })),
    );
    for (const item of media) {
      expect(item.width && item.height, `${item.tag} ${item.src} width and height`).toBeTruthy();
      if (item.belowFold) expect(item.loading, `${item.tag} ${item.src} below the fold`).toBe('lazy');
    }
  });
}
