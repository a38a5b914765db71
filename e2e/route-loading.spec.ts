import { expect, signInAs, test } from './fixtures';

/**
 * A direct load of a lazy route shows its HydrateFallback while the chunk and the loader
 * arrive: the router has nothing to warn about.
 */
const pages = [
  { path: '/auth', heading: 'Yes, You Can!' },
  { path: '/resources', heading: 'Subscriber Resources' },
  { path: '/bundles', heading: 'Compare Our Bundles' },
  { path: '/upgrade', heading: 'Congratulations on Your Purchase!' },
  { path: '/admin-upload', heading: 'Upload Resources' },
];

for (const { path, heading } of pages) {
  test(`a direct load of ${path} gives the router no HydrateFallback warning`, async ({ page, makeUser }) => {
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    if (path === '/resources' || path === '/admin-upload') {
      await signInAs(page, await makeUser({ tier: 'complete', staff: true }));
    }
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(messages.filter((text) => text.includes('HydrateFallback'))).toEqual([]);
  });
}
