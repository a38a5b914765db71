import type { Page } from '@playwright/test';
import { landing } from '../src/content/landing';
import { site } from '../src/content/site';
import { admin, expect, signInAs, test } from './fixtures';
import { downloadLinkName } from './files';

// The preview server sends exactly the headers in dist/_headers (scripts/build/vite-security-headers.mjs),
// so these are the headers the static hosts will send.

// A 1×1 transparent PNG.
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Collects every Content-Security-Policy violation the page (or the browser console) reports. */
async function watchViolations(page: Page) {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) refused.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective} blocked ${event.blockedURI}`);
    });
  });
  return async () => {
    const reported = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    return [...reported, ...refused];
  };
}

test('pages, deep routes and hashed assets carry the production headers', async ({ request }) => {
  const home = await request.get('/');
  expect(home.status()).toBe(200);
  const csp = home.headers()['content-security-policy'];
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain(`frame-src ${new URL(site.urls.salesVideoEmbed).origin}`);
  expect(csp).toContain('frame-ancestors');
  expect(csp).not.toContain('unsafe-eval');
  expect(home.headers()['x-content-type-options']).toBe('nosniff');
  expect(home.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(home.headers()['cache-control']).toBe('no-cache');

  // The SPA fallback: a client-side route is the app's page, with the same headers.
  const deep = await request.get('/admin-upload');
  expect(deep.status()).toBe(200);
  expect(await deep.text()).toContain('<div id="root"></div>');
  expect(deep.headers()['content-security-policy']).toBe(csp);
  expect(deep.headers()['cache-control']).toBe('no-cache');

  const script = /<script type="module"[^>]*\ssrc="(\/assets\/[^"]+\.js)"/.exec(await home.text())?.[1];
  expect(script).toBeDefined();
  const asset = await request.get(script!);
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['x-content-type-options']).toBe('nosniff');
});

test('the visitor pages and the sales video run under the policy without a violation', async ({ page }) => {
  const violations = await watchViolations(page);
  // The video site is outside the test; answer its player page here.
  await page.route(`${site.urls.salesVideoEmbed}**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<p>The player</p>' }),
  );

  await page.goto('/');
  // The visible words are the name; the browser joins the button's two lines with a space.
  await page
    .getByRole('button', { name: new RegExp(`^${landing.hero.video.play}\\W+${landing.hero.video.caption}$`) })
    .click();
  await expect(
    page.frameLocator(`iframe[title="${landing.hero.video.iframeTitle}"]`).getByText('The player'),
  ).toBeVisible();
  expect(await violations()).toEqual([]);

  await page.goto('/bundles');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await violations()).toEqual([]);

  await page.goto('/upgrade');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await violations()).toEqual([]);

  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  expect(await violations()).toEqual([]);
});

test('a signed-in subscriber’s resources, realtime and avatar run under the policy', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'complete', displayName: 'Grace Writer' });
  const avatarPath = `${user.id}/avatar.png`;
  const { error } = await admin.storage.from('avatars').upload(avatarPath, tinyPng, { contentType: 'image/png' });
  expect(error).toBeNull();
  const avatarUrl = admin.storage.from('avatars').getPublicUrl(avatarPath).data.publicUrl;
  await admin.from('profiles').update({ avatar_url: avatarUrl }).eq('user_id', user.id);

  const violations = await watchViolations(page);
  await signInAs(page, user);
  await page.goto('/resources');
  await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();
  await expect(page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') })).toBeVisible();
  expect(await violations()).toEqual([]);

  // The account menu subscribes to the profile over Supabase Realtime (connect-src ws:/wss:).
  const realtime = page.waitForEvent('websocket', (socket) => socket.url().includes('/realtime/v1/'));
  await page.goto('/upgrade');
  await realtime;
  // The avatar is an image from the Supabase origin: it has loaded, not been blocked.
  await expect(page.getByRole('button', { name: 'Account menu' }).getByRole('img')).toHaveJSProperty('naturalWidth', 1);
  expect(await violations()).toEqual([]);

  // Signing out shows a toast (its styles are injected at run time), carried to the landing
  // page, where the sign-out goes: a document of its own, whose island shows it.
  await page.goto('/resources');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Signed out successfully')).toBeVisible();
  expect(await violations()).toEqual([]);
});

/** A page at `parentUrl` (answered here) that frames the site's home page. */
async function framedBy(page: Page, parentUrl: string, siteUrl: string) {
  // The parent is a public https page and the test's site is on 127.0.0.1: Chromium asks
  // the user before a public page reaches the local network. Grant it, as a deployed site
  // on a public host never needs.
  await page.context().grantPermissions(['local-network-access'], { origin: new URL(parentUrl).origin });
  await page.route(parentUrl, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Parent</title><iframe title="The app" src="${siteUrl}/" width="1200" height="800"></iframe>`,
    }),
  );
  await page.goto(parentUrl);
}

test('the marketplace admin may frame the site, and the purchase button loads its SDK', async ({ page, baseURL }) => {
  const violations = await watchViolations(page);
  // The SDK and the storefront are outside the test: a stand-in SDK that registers itself.
  await page.route(site.urls.marketplaceSdk, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: 'window.shopify = {};' }),
  );
  await page.route(`${site.urls.storefrontProduct}**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Storefront</title>' }),
  );
  await framedBy(page, 'https://admin.shopify.com/store/demo/apps/yes-you-can', baseURL!);

  const app = page.frameLocator('iframe[title="The app"]');
  await app.getByRole('link', { name: landing.price.buy }).click();
  // The SDK ran and opened the storefront in the top window (a blocked SDK opens a new tab).
  await expect(page).toHaveURL(site.urls.storefrontProduct);
  expect(await violations()).toEqual([]);
});

test('any other site framing the app gets a blocked frame', async ({ page, baseURL }) => {
  await framedBy(page, 'https://framer.example/', baseURL!);
  await expect
    .poll(() =>
      page
        .frames()
        .find((frame) => frame !== page.mainFrame())
        ?.url(),
    )
    .toMatch(/^chrome-error:/);
});
