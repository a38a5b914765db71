import { bundles } from '../src/content/bundles';
import { site } from '../src/content/site';
import { expect, expectAccessible, test, waitForHydration, withoutSpeculationRules } from './fixtures';

// A visitor (no account) reads every public page and follows every internal link. Outside
// links (storefront, checkout, company site) are checked by target only: there is no
// network beyond this machine.

test('the landing page sells the ebook and links where it says', async ({ page }) => {
  // The player's frame comes from YouTube, which this machine cannot reach: a stand-in page,
  // so the accessibility scan reads a loaded frame instead of waiting on a failing one, which can
  // outlast the test's time.
  await page.route(/youtube-nocookie\.com/, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>player</title></html>' }),
  );
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const header = page.getByRole('banner');
  const buy = header.getByRole('link', { name: /Purchase Your Yes, You Can! ebook Today!/ });
  await expect(buy).toHaveAttribute('href', site.urls.storefrontProduct);

  for (const bullet of ['Finish Your Book in 90 Days', 'Silence Your Inner Critic', 'Overcome Perfectionism']) {
    await expect(page.getByText(bullet, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText('$497').first()).toBeVisible();
  await expect(page.getByText('$24.95').first()).toBeVisible();
  for (const note of ['Instant Digital Access', 'No Shipping', 'Start Reading in 2 Minutes']) {
    await expect(page.getByText(note).first()).toBeVisible();
  }

  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: site.contactEmail })).toHaveAttribute(
    'href',
    `mailto:${site.contactEmail}`,
  );
  await expect(footer.getByText(String(new Date().getFullYear()))).toBeVisible();

  // The sales video is a facade: no third-party frame until the visitor asks for it.
  await expect(page.locator('iframe[src]')).toHaveCount(0);
  await page.getByRole('button', { name: /play/i }).click();
  await expect(page.locator('iframe[src]')).toHaveCount(1);
  await expect(page.getByTitle('Yes, You Can! sales video')).toBeVisible();

  await expectAccessible(page);

  await footer.getByRole('link', { name: 'Subscriber Resources' }).click();
  // Not signed in: the resources page sends the visitor to sign in.
  await expect(page).toHaveURL(/\/auth/);
});

test('a visitor sees Sign In at the top right and it leads to /auth', async ({ page }) => {
  // A browser without Speculation Rules: the link is a plain page load (in Chromium, of the
  // page the rules got ready: speculation.spec.ts), a new document whose title a screen
  // reader reads as for any page.
  await withoutSpeculationRules(page);
  await page.goto('/');
  await expect(page).toHaveTitle('Yes, You Can! Finish Your Book in 90 Days');
  await page.getByRole('link', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByText('Subscriber Access').first()).toBeVisible();
  await expect(page).toHaveTitle('Subscriber Access | Yes, You Can!');
  await waitForHydration(page);
  await expectAccessible(page);
  // /auth's app hands a public page to the browser: / loads as the document it is.
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle('Yes, You Can! Finish Your Book in 90 Days');
});

test('/bundles compares the three bundles with checkout links in a new tab', async ({ page }) => {
  await page.goto('/bundles');
  await expect(page.getByRole('heading', { name: 'Compare Our Bundles' })).toBeVisible();
  for (const bundle of bundles) {
    await expect(page.getByRole('heading', { name: bundle.name })).toBeVisible();
    const cta = page.getByRole('link', { name: new RegExp(bundle.cta) });
    await expect(cta).toHaveAttribute('href', bundle.purchaseUrl);
    await expect(cta).toHaveAttribute('target', '_blank');
  }
  await expect(page.getByText('MOST POPULAR')).toHaveCount(1);
  await expect(page.getByText('INSTANT ACCESS • Digital Delivery • Lifetime Access')).toBeVisible();
  await expect(
    page.getByText(
      'All bundles include instant digital access. Bundle 2 includes 90-day community access. Bundle 3 includes 6 months of VIP support.',
    ),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('/upgrade congratulates; the ebook card leads to the files (sign in first), the bundles to /bundles', async ({
  page,
}) => {
  await page.goto('/upgrade');
  await expect(page.getByRole('heading', { name: 'Congratulations on Your Purchase!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toHaveAttribute('href', '/auth');
  await expectAccessible(page);
  await expect(page.getByRole('link', { name: 'Explore Foundation Builder' })).toHaveAttribute('href', '/bundles');
  const ebook = page.getByRole('link', { name: 'Download eBook Now' });
  await expect(ebook).toHaveAttribute('href', '/resources');
  await ebook.click();
  await expect(page).toHaveURL(/\/auth\?next=%2Fresources$|\/auth\?next=\/resources$/);
});

test('an unknown path shows the 404 page and logs the path', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  await page.goto('/no-such-page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expectAccessible(page);
  expect(logged.some((line) => line.includes('/no-such-page'))).toBe(true);
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('every public page fits a 360 px phone without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of ['/', '/bundles', '/upgrade', '/auth', '/admin-upload', '/no-such-page']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  }
  await page.goto('/');
  await expect(page.getByRole('link', { name: /Purchase Your Yes, You Can! ebook Today!/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
});

test('every link on the public pages goes somewhere real', async ({ page }) => {
  const known = new Set<string>([
    ...Object.values(site.urls),
    ...bundles.map((bundle) => bundle.purchaseUrl),
    `mailto:${site.contactEmail}`,
  ]);
  const internal = new Set<string>();
  for (const path of ['/', '/bundles', '/upgrade', '/auth']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      if (href.startsWith('/')) internal.add(href);
      else expect(known, `${path} links to ${href}`).toContain(href);
    }
  }
  for (const href of internal) {
    await page.goto(href);
    await expect(page.getByRole('heading', { level: 1 }), `${href} renders a page`).toBeVisible();
    await expect(page.getByText('Oops! Page not found'), `${href} is not a 404`).toHaveCount(0);
  }
});
