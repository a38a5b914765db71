import type { APIResponse, Page, Route } from '@playwright/test';
import { shareImage, siteOrigin } from '../src/app/head';
import { bundles } from '../src/content/bundles';
import { landing } from '../src/content/landing';
import { privacy } from '../src/content/privacy';
import { site } from '../src/content/site';
import { documentPages } from '../src/config/paths';
import { e2eEnv } from './env';
import { expect, signInAs, test, waitForHydration, withoutSpeculationRules } from './fixtures';

// The public pages are prerendered by the build (scripts/build/vite-prerender.mjs): readable, with
// working links, before (and without) any script. The documents (/, /bundles, /upgrade,
// /privacy) stay so, their own small script aside; /auth is then hydrated, without a complaint.

const origin = siteOrigin(process.env.VITE_SITE_URL);

type Cta = { name: string | RegExp; href: string };
type PublicPage = { path: string; heading: string; ctas: Cta[]; indexable: boolean };

const pages: PublicPage[] = [
  {
    path: '/',
    heading: site.productName,
    indexable: true,
    ctas: [
      { name: landing.header.purchase, href: site.urls.storefrontProduct },
      { name: landing.price.buy, href: site.urls.storefrontProduct },
      { name: new RegExp(`^${landing.price.offers}`), href: site.urls.storefront },
      { name: 'Get Yes, You Can Now', href: site.urls.company },
      { name: 'Sign In', href: '/auth' },
      { name: 'Bundles', href: '/bundles' },
    ],
  },
  {
    path: '/bundles',
    heading: 'Compare Our Bundles',
    indexable: true,
    ctas: [
      ...bundles.map((bundle) => ({ name: new RegExp(`^${bundle.cta}`), href: bundle.purchaseUrl })),
      { name: 'Back to Home', href: '/' },
      { name: 'Sign In', href: '/auth' },
    ],
  },
  {
    path: '/upgrade',
    heading: 'Congratulations on Your Purchase!',
    indexable: true,
    ctas: [
      { name: 'Download eBook Now', href: '/resources' },
      ...bundles.map((bundle) => ({ name: `Explore ${bundle.name}`, href: '/bundles' })),
      { name: 'Sign In', href: '/auth' },
    ],
  },
  {
    path: '/privacy',
    heading: privacy.title,
    indexable: true,
    ctas: [
      { name: privacy.backHome, href: '/' },
      { name: site.contactEmail, href: `mailto:${site.contactEmail}` },
      { name: 'Sign In', href: '/auth' },
    ],
  },
  {
    path: '/auth',
    heading: site.productName,
    indexable: false,
    ctas: [{ name: 'Back to Home', href: '/' }],
  },
];

test.describe('with JavaScript disabled', () => {
  test.use({ javaScriptEnabled: false });

  for (const { path, heading, ctas } of pages) {
    test(`${path} shows its heading and its calls to action`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      for (const cta of ctas) {
        await expect(page.getByRole('link', { name: cta.name, exact: true }).first()).toHaveAttribute('href', cta.href);
      }
    });
  }

  test('/auth shows a form that can be typed into before any script runs', async ({ page }) => {
    await page.goto('/auth');
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.fill('reader@example.com');
    await expect(email).toHaveValue('reader@example.com');
    await expect(page.getByRole('tabpanel').getByLabel('Password', { exact: true })).toBeEditable();
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  });
});

/**
 * Resolves once React has hydrated the page (see waitForHydration). The HTML as served has
 * the page's head tags before its inlined stylesheet; the app's first effects replace them,
 * appending the new ones after it. Effects run after the commit, which is where React
 * reports a mismatch.
 */
const hydrated = waitForHydration;

/** Whether `path` is a document (no React, never hydrated) rather than a page the app takes over. */
const isDocument = (path: string) => documentPages.includes(path);

for (const { path, heading } of pages) {
  test(`${path} ${isDocument(path) ? 'runs its script' : 'hydrates'} with no console error or warning`, async ({
    page,
  }) => {
    const complaints = watchComplaints(page);
    await page.goto(path);
    if (!isDocument(path)) await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(complaints).toEqual([]);
  });
}

/** Collects the page's console errors and warnings and its uncaught errors. */
function watchComplaints(page: Page) {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') complaints.push(message.text());
  });
  page.on('pageerror', (error) => complaints.push(error.message));
  return complaints;
}

test('a signed-in subscriber’s prerendered page shows their account menu in place of Sign In, cleanly', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'ebook' });
  await signInAs(page, user);
  const complaints = watchComplaints(page);
  // The HTML says "Sign In" (it was rendered for a visitor); the page's island (loaded because
  // a session is stored) puts the member's menu in its place.
  await page.goto('/bundles');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toHaveCount(0);
  expect(complaints).toEqual([]);
});

test('a first-time visitor’s page loads ask nothing of the backend but to count the visit', async ({ page }) => {
  const backend: string[] = [];
  const count = `${e2eEnv.supabaseUrl}/functions/v1/count`;
  page.on('request', (request) => {
    if (request.url().startsWith(e2eEnv.supabaseUrl) && request.url() !== count) backend.push(request.url());
  });
  for (const { path, heading } of pages) {
    await page.goto(path);
    if (!isDocument(path)) await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  // /auth loads supabase-js after `load`; with no stored session it still asks nothing.
  await expect(page.getByRole('textbox', { name: 'Email' })).toBeEditable();
  expect(backend).toEqual([]);
});

test('/auth can be filled in while supabase-js is still loading, and signs in once it arrives', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'ebook' });
  // Hold every supabase-js chunk until the form has been filled in.
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/supabase-[^/]+\.js$/, (route) => (released ? route.continue() : held.push(route)));
  await page.goto('/auth');
  await hydrated(page);
  // The client is asked for after `load`: it is on its way, and not here.
  await expect.poll(() => held.length).toBeGreaterThan(0);

  await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
  await page.getByRole('tabpanel').getByLabel('Password', { exact: true }).fill(user.password);
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(user.email);

  released = true;
  for (const route of held) await route.continue();
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();
});

test('after hydration, /auth’s links to the documents load them as documents, and app pages stay in the app', async ({
  page,
}) => {
  // Without the rules, so every document below comes from the host on the tap itself.
  await withoutSpeculationRules(page);
  await page.goto('/auth');
  await hydrated(page);
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
  });
  const complaints = watchComplaints(page);
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: site.productName })).toBeVisible();
  await expect(page).toHaveTitle('Yes, You Can! Finish Your Book in 90 Days');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${origin}/`);
  // The router handed the address to the browser: / came from the host, without React.
  expect(documents).toEqual(['/']);
  await expect(page.locator('head > style ~ [data-page-head]')).toHaveCount(0);

  // A member page reached from /auth is the app's: /resources sends a visitor on to sign in,
  // in the app, with nothing said in the console (the build ships React Router's production
  // files, not its development warnings).
  await page.goto('/auth?next=/resources');
  await hydrated(page);
  documents.length = 0;
  await page.evaluate(() => {
    history.pushState(null, '', '/resources');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: 'Subscriber Access' })).toBeVisible();
  expect(documents).toEqual([]);
  expect(complaints).toEqual([]);
});

/** The `content` of the one `<meta {attribute}="{key}">` in `html`. */
function meta(html: string, attribute: 'name' | 'property', key: string): string | undefined {
  const tags = html.match(new RegExp(`<meta ${attribute}="${key.replace(/[.:]/g, '\\$&')}" [^>]*>`, 'g')) ?? [];
  expect(tags, `one <meta ${attribute}="${key}">`).toHaveLength(1);
  return /content="([^"]*)"/.exec(tags[0] ?? '')?.[1];
}

async function rawHtml(response: APIResponse) {
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('text/html');
  return response.text();
}

for (const { path, indexable } of pages) {
  test(`${path} has its head tags in the HTML as served`, async ({ request }) => {
    const html = await rawHtml(await request.get(path));
    const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(title).toContain(site.productName);
    const description = meta(html, 'name', 'description');
    expect(description?.length).toBeGreaterThan(50);

    const url = `${origin}${path}`;
    // Every public page names its one address; the ones search engines should not list say so.
    expect(html).toContain(`<link rel="canonical" href="${url}"`);
    if (indexable) expect(html).not.toContain('noindex');
    else expect(meta(html, 'name', 'robots')).toBe('noindex');
    expect(meta(html, 'property', 'og:title')).toBe(title);
    expect(meta(html, 'property', 'og:description')).toBe(description);
    expect(meta(html, 'property', 'og:url')).toBe(url);
    expect(meta(html, 'property', 'og:type')).toBe('website');
    expect(meta(html, 'property', 'og:image')).toBe(`${origin}${shareImage.path}`);
    expect(meta(html, 'property', 'og:image:width')).toBe('1200');
    expect(meta(html, 'property', 'og:image:height')).toBe('630');
    expect(meta(html, 'property', 'og:image:alt')).toBeTruthy();
    expect(meta(html, 'name', 'twitter:card')).toBe('summary_large_image');

    // Nothing blocks the first paint: the CSS is inline, the app's script is a (deferred) module,
    // and the one classic script is inline (the early-input holder: no request to wait for).
    expect(html).not.toMatch(/<link rel="stylesheet"/);
    expect(html).toMatch(/<style>/);
    expect(html).not.toMatch(/<script(?![^>]*type="module")[^>]*\bsrc=/);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });
}

test('the share image is served, 1200x630', async ({ page }) => {
  const image = await page.request.get(shareImage.path);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  const png = await image.body();
  // The PNG header's IHDR chunk: width and height, big-endian, at bytes 16 and 20.
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([shareImage.width, shareImage.height]);
});

test('private pages get the shell, kept out of search results; sitemap and robots.txt are served', async ({
  request,
}) => {
  for (const path of ['/admin-upload', '/staff/anything', '/no-such-page']) {
    const html = await rawHtml(await request.get(path));
    expect(html, path).toContain('<div id="root"></div>');
    expect(html, path).toContain('<meta name="robots" content="noindex" />');
  }
  // /resources is prerendered as the page before the member's data (resources-shell.spec).
  const resources = await rawHtml(await request.get('/resources'));
  expect(resources).toContain('>Subscriber Resources</h1>');
  expect(resources).toContain('<meta name="robots" content="noindex"');

  const robots = await (await request.get('/robots.txt')).text();
  for (const path of ['/auth', '/resources', '/admin-upload', '/staff/'])
    expect(robots).toContain(`Disallow: ${path}\n`);
  expect(robots).toContain(`Sitemap: ${origin}/sitemap.xml`);

  const sitemap = await (await request.get('/sitemap.xml')).text();
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
  expect(listed).toEqual([`${origin}/`, `${origin}/bundles`, `${origin}/upgrade`, `${origin}/privacy`]);
});
