import { randomUUID } from 'node:crypto';
import type { Page, Response } from '@playwright/test';
import { decodeReference } from '../src/lib/campaign';
import { e2eEnv } from './env';
import { anonClient, expect, expectAccessible, signInAs, test, type TestUser } from './fixtures';
import { deliverStripeSale } from './webhook';

// A visitor from a podcast's campaign link, counted with nothing kept in their browser, clicks a
// checkout link; the signed sale carries the campaign back, and staff read the visit, the click
// and the sale under it on /staff. The count function does not count headless browsers: the
// visitor's browser says it is a phone's Chrome, each run a build of its own, so each run is a
// new visitor. Its medium is its own too, so its row of the table is its own hand count while
// other runs count beside it.

const PHONE_CHROME = (build: number) =>
  `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${build}.0 Mobile Safari/537.36`;

const countUrl = `${e2eEnv.supabaseUrl}/functions/v1/count`;

/** The next count the page sends of `kind`, once the function has answered it. */
function counted(page: Page, kind: string): Promise<Response> {
  return page.waitForResponse(
    (response) => response.url() === countUrl && response.request().postDataJSON()?.k === kind,
  );
}

/** The row of `medium` in the campaign table of today's figures, as `staff` reads them. */
async function todaysRow(staff: TestUser, medium: string) {
  const client = anonClient();
  await client.auth.signInWithPassword({ email: staff.email, password: staff.password });
  const { data, error } = await client.rpc('staff_visits', { p_days: 1 });
  if (error) throw new Error(error.message);
  const rows = (data as { by_campaign: Array<Record<string, unknown>> }).by_campaign;
  return rows.find((row) => row.medium === medium) ?? null;
}

/** Nothing in the browser: no cookie, no localStorage or sessionStorage key, on the page's origin. */
async function expectNothingStored(page: Page) {
  expect(await page.context().cookies()).toEqual([]);
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
}

test('a campaign visit, its checkout click and its signed sale show under the campaign on /staff, with nothing stored in the browser', async ({
  browser,
  page: staffPage,
  makeUser,
}) => {
  const medium = `e2e-${randomUUID().slice(0, 8)}`;
  const visitor = await browser.newContext({
    userAgent: PHONE_CHROME(1000 + Math.floor(Math.random() * 9000)),
    viewport: { width: 412, height: 823 },
  });
  // The checkout is another site: its page here is a stand-in that answers at once.
  await visitor.route('https://checkout.yesyoucanbook.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Checkout</title><h1>Checkout</h1>' }),
  );
  try {
    const page = await visitor.newPage();
    const landing = counted(page, 'view');
    await page.goto(`/?utm_source=podcast&utm_medium=${medium}&utm_campaign=launch`);
    const view = await landing;
    expect(view.status()).toBe(202);
    expect(view.request().postDataJSON()).toMatchObject({ p: '/', s: 'podcast', m: medium, c: 'launch' });

    // The next page's address has no campaign: the visit keeps it.
    const bundlesView = counted(page, 'view');
    await page.locator('a[href="/bundles"]').first().click();
    await expect(page).toHaveURL(/\/bundles$/);
    expect((await bundlesView).request().postDataJSON()).toMatchObject({ p: '/bundles', c: 'launch', m: medium });

    const click = counted(page, 'checkout');
    const [checkout] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('link', { name: /^Start Building Today/ }).click(),
    ]);
    expect((await click).status()).toBe(202);
    const reference = new URL(checkout.url()).searchParams.get('client_reference_id') ?? '';
    expect(decodeReference(reference)).toMatchObject({ source: 'podcast', medium, campaign: 'launch' });
    expect(new URL(checkout.url()).searchParams.get('utm_campaign')).toBe('launch');
    await expectNothingStored(page);

    // Stripe reports the sale with the reference the link carried.
    const { answer } = await deliverStripeSale(
      `e2e-campaign-${randomUUID()}@example.com`,
      'REPLACE_ME_stripe_price_foundation',
      'prod_e2e_foundation',
      5900,
      reference,
    );
    expect(answer).toMatchObject({ ok: true });

    // The function writes counts in batches, a moment after it answers: staff's figures have
    // them once the batch is written.
    const staff = await makeUser({ staff: true });
    await expect.poll(async () => (await todaysRow(staff, medium))?.checkouts).toBe(1);
    await signInAs(staffPage, staff);
    await staffPage.goto('/staff');
    await staffPage.getByRole('tab', { name: 'Today' }).click();
    const row = staffPage
      .getByRole('table', { name: /campaign/i })
      .getByRole('row')
      .filter({ hasText: medium });
    await expect(row).toHaveCount(1);
    // The source heads the row; medium, campaign, visitors 1, checkout clicks 1, sales 1, $59.00
    // and a conversion of 100 % follow.
    await expect(row.getByRole('rowheader')).toHaveText('podcast');
    await expect(row.getByRole('cell')).toHaveText([medium, 'launch', '1', '1', '1', '$59.00 USD', '100%']);
    await expectAccessible(staffPage);
  } finally {
    await visitor.close();
  }
});
