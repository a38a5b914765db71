import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build, preview, type PreviewServer } from 'vite';
import { runInvitationSchedule } from '../packages/supabase-stand-in/cron.mjs';
import { resourceCards } from '../src/content/resources';
import { tierRank } from '../src/content/tiers';
import { e2eEnv } from './env';
import { openMailLink, readInbox } from './inbox';
import { admin, anonClient, expect, expectAccessible, signInAs, test } from './fixtures';
import { deliverStripeSale } from './webhook';

const DAY_MS = 24 * 60 * 60 * 1000;

async function deleteUserByEmail(email: string) {
  const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
  const user = data.users.find((u) => u.email === email);
  if (user) await admin.auth.admin.deleteUser(user.id);
}

test('a Stripe sale of an unknown price is kept; staff map it in one step, and the buyer is invited once and gets the files', async ({
  page,
  makeUser,
}) => {
  const email = `e2e-unmatched-${randomUUID()}@example.com`;
  const priceId = `price_e2e_${randomUUID().replaceAll('-', '')}`;
  try {
    // The owner raised the price in Stripe: a new price id the catalog does not know.
    const { orderId, answer } = await deliverStripeSale(email, priceId, 'prod_e2e_foundation', 5900);
    expect(answer).toEqual({ ok: true, outcome: 'unmatched' });
    const { data: kept } = await admin
      .from('unmatched_sales')
      .select('email, amount_cents, currency, line_ids')
      .eq('order_id', orderId)
      .single();
    expect(kept).toEqual({
      email,
      amount_cents: 5900,
      currency: 'USD',
      line_ids: [{ stripe_price: priceId, stripe_product: 'prod_e2e_foundation' }],
    });

    const staff = await makeUser({ staff: true });
    await signInAs(page, staff);
    await page.goto('/staff/catalog');
    await expect(page.getByRole('heading', { name: /^Unmatched sales \(\d+\)$/ })).toBeVisible();
    const sale = page.getByRole('form', { name: `Map order ${orderId}` });
    await expect(sale).toContainText(email);
    await expectAccessible(page);
    await sale.getByLabel('Provider id').selectOption({ label: `Stripe price ${priceId}` });
    await sale.getByLabel('Grants').selectOption({ label: 'Foundation Builder' });
    await sale.getByRole('button', { name: 'Map and grant' }).click();
    await expect(page.getByText(`${priceId} now grants Foundation Builder: 1 sale granted`)).toBeVisible();
    await expect(sale).toHaveCount(0);

    const { data: purchase } = await admin.from('purchases').select('tier, status').eq('order_id', orderId).single();
    expect(purchase).toEqual({ tier: 'foundation', status: 'paid' });

    // The invitation waits in the ledger; the scheduled run sends it, once.
    expect((await runInvitationSchedule(e2eEnv.supabaseUrl)).status).toBe(200);
    await expect.poll(async () => (await readInbox(email)).length).toBe(1);
    expect((await runInvitationSchedule(e2eEnv.supabaseUrl)).status).toBe(200);
    expect(await readInbox(email)).toHaveLength(1);

    const [mail] = await readInbox(email);
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await openMailLink(page, mail?.link ?? '');
    await expect(page).toHaveURL(/\/auth\/set-password/);
    await page.getByLabel('New password', { exact: true }).fill('buyer-pass-1');
    await page.getByLabel('Confirm password').fill('buyer-pass-1');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page).toHaveURL(/\/resources$/);
    await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
    const files = resourceCards
      .filter((card) => tierRank(card.tier) <= tierRank('foundation'))
      .flatMap((c) => c.sampleFiles);
    await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(files.length);
  } finally {
    await deleteUserByEmail(email);
  }
});

/** The instant a day starts in `timeZone`, `daysAgo` days before today there. */
function startOfDay(timeZone: string, daysAgo: number, now = new Date()): Date {
  const ymd = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  );
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d - daysAgo);
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(instant));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - instant;
  };
  const first = guess - offsetAt(guess);
  return new Date(guess - offsetAt(first));
}

async function countSince(column: 'created_at' | 'refunded_at', since: Date): Promise<number> {
  const { count, error } = await admin
    .from('purchases')
    .select('id', { count: 'exact', head: true })
    .gte(column, since.toISOString());
  expect(error).toBeNull();
  return count ?? 0;
}

/** Records a sale as the webhook does, and its refund when `refundedAt` is given. */
async function seedSale(amountCents: number, paidAt: Date, refundedAt?: Date) {
  const orderId = `e2e-dash-${randomUUID()}`;
  const sale = await admin.rpc('record_purchase', {
    p_provider: 'stripe',
    p_event_id: `evt-${orderId}`,
    p_order_id: orderId,
    p_email: `e2e-dash-${randomUUID()}@example.com`,
    p_product: 'ebook',
    p_tier: 'ebook',
    p_amount_cents: amountCents,
    p_currency: 'XTS',
    p_occurred_at: paidAt.toISOString(),
  });
  expect(sale.error).toBeNull();
  if (!refundedAt) return;
  const refund = await admin.rpc('record_refund', {
    p_provider: 'stripe',
    p_event_id: `evt-refund-${orderId}`,
    p_order_id: orderId,
    p_occurred_at: refundedAt.toISOString(),
  });
  expect(refund.error).toBeNull();
}

test('the dashboard’s figures equal a count by hand over seeded purchases', async ({ page, makeUser }) => {
  // XTS, ISO 4217's code for tests, is this test's alone: its figures are exact while other
  // tests record sales in other currencies.
  // A run before this one (or a repeat) left its own XTS sales: the count starts from none.
  expect((await admin.from('purchases').delete().eq('currency', 'XTS')).error).toBeNull();
  const now = Date.now();
  await seedSale(1000, new Date(now));
  await seedSale(2000, new Date(now), new Date(now));
  await seedSale(4000, new Date(now - 3 * DAY_MS));
  await seedSale(8000, new Date(now - 20 * DAY_MS), new Date(now - 2 * DAY_MS));
  await seedSale(16000, new Date(now - 60 * DAY_MS));

  const staff = await makeUser({ staff: true });
  await signInAs(page, staff);
  await page.goto('/staff');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Sales, revenue, refunds and net per period' });
  const row = (name: string) => table.getByRole('row', { name: new RegExp(`^${name}`) });
  // By hand: today a and b (30.00), b refunded (20.00); 7 days adds c (40.00) and d's refund
  // (80.00); 30 days adds d's sale (80.00). The 60-day sale is in the chart only.
  const expected = [
    ['Today', '30.00 XTS', '20.00 XTS', '10.00 XTS'],
    ['Last 7 days', '70.00 XTS', '100.00 XTS', '-30.00 XTS'],
    ['Last 30 days', '150.00 XTS', '100.00 XTS', '50.00 XTS'],
  ] as const;
  for (const [name, revenue, refunded, net] of expected) {
    const cells = row(name).getByRole('cell');
    await expect(cells.nth(1)).toContainText(revenue);
    await expect(cells.nth(3)).toContainText(refunded);
    await expect(cells.nth(4)).toContainText(net);
  }

  // Sales and refunds of every currency, counted in the table with the owner's day boundaries
  // (other tests may be selling meanwhile: read both again until they agree).
  const zone = /midnight to midnight in (\S+?);/.exec(
    (await page.getByText(/Days run midnight/).textContent()) ?? '',
  )?.[1];
  expect(zone).toBeTruthy();
  for (const [name, days] of [
    ['Today', 1],
    ['Last 7 days', 7],
    ['Last 30 days', 30],
  ] as const) {
    await expect
      .poll(async () => {
        await page.reload();
        const cells = row(name).getByRole('cell');
        const since = startOfDay(zone ?? 'UTC', days - 1);
        const shown = [await cells.nth(0).textContent(), await cells.nth(2).textContent()].map(Number);
        return shown.join('/') === `${await countSince('created_at', since)}/${await countSince('refunded_at', since)}`;
      })
      .toBe(true);
  }
  await expectAccessible(page);
});

/** The rebuild a catalog change starts (the static host's build hook): `vite build` into `outDir`. */
async function rebuildSite(outDir: string) {
  process.env.VITE_SUPABASE_URL = e2eEnv.supabaseUrl;
  process.env.VITE_SUPABASE_ANON_KEY = e2eEnv.anonKey;
  await build({
    configFile: path.resolve('vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}

/** `vite preview` of `outDir` on a free port, as the static host serves the new build. */
async function previewOf(outDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: PreviewServer = await preview({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

test('staff change the Foundation Builder price and checkout link, and /bundles shows both after the rebuild', async ({
  page,
  makeUser,
  request,
}) => {
  test.setTimeout(300_000);
  const staff = await makeUser({ staff: true });
  const staffClient = anonClient();
  expect(
    (await staffClient.auth.signInWithPassword({ email: staff.email, password: staff.password })).error,
  ).toBeNull();
  const { data: before } = await staffClient.rpc('staff_catalog');
  const original = (before as { products: { tier: string; provider_ids: unknown }[] }).products.find(
    (p) => p.tier === 'foundation',
  );
  expect(original).toBeTruthy();
  const link = `https://checkout.yesyoucanbook.com/b/foundation-${randomUUID().slice(0, 8)}`;
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'catalog-rebuild-'));
  let site: Awaited<ReturnType<typeof previewOf>> | null = null;
  try {
    await signInAs(page, staff);
    await page.goto('/staff/catalog');
    const form = page.getByRole('form', { name: 'Foundation Builder' });
    await form.getByLabel('Price shown (US$)').fill('59.50');
    await form.getByLabel('Checkout link').fill('http://not-https.example.com/f');
    await form.getByRole('button', { name: 'Save Foundation Builder' }).click();
    await expect(form.getByLabel('Checkout link')).toHaveAccessibleDescription(/must be an https:\/\/ link/);
    await form.getByLabel('Checkout link').fill(link);
    await form.getByRole('button', { name: 'Save Foundation Builder' }).click();
    await expect(page.getByText('Foundation Builder saved')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Catalog changes, newest first' })).toContainText(
      'price_cents: 4900 → 5950',
    );

    await rebuildSite(outDir);
    site = await previewOf(outDir);
    // As a visitor without JavaScript reads it: the prerendered page as served.
    const html = await (await request.get(`${site.url}/bundles`)).text();
    expect(html).toContain('$59.50');
    expect(html).toContain(`href="${link}"`);
  } finally {
    await site?.close();
    await rm(outDir, { recursive: true, force: true });
    const restore = await staffClient.rpc('staff_save_product', {
      p_tier: 'foundation',
      p_product: { ...original, name: 'Foundation Builder' },
    });
    expect(restore.error).toBeNull();
  }
});
