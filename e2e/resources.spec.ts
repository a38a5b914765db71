import { randomUUID } from 'node:crypto';
import type { Response } from '@playwright/test';
import { findResourceCard, resourceCards, resourceFolder } from '../src/content/resources';
import { tierLabels, tierRank, tiers, type Tier } from '../src/content/tiers';
import { e2eEnv } from './env';
import { admin, anonClient, expect, expectAccessible, signInAs, test } from './fixtures';
import { downloadLinkName } from './files';

function unlockedCount(tier: Tier | null) {
  return tier === null ? 0 : resourceCards.filter((card) => tierRank(card.tier) <= tierRank(tier)).length;
}

test('a user with no tier sees every card locked and the way to buy', async ({ page, makeUser }) => {
  const user = await makeUser();
  await signInAs(page, user);
  await page.goto('/resources');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
  await expect(page.getByText(/No active subscription/)).toContainText(
    'No active subscription: Purchase here to access additional resources',
  );
  await expect(page.getByRole('link', { name: /^Unlock with / })).toHaveCount(resourceCards.length);
  await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(0);
  await expect(page.getByText('Ready for More?')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Bundle Options' }).click();
  await expect(page).toHaveURL(/\/bundles$/);
});

for (const tier of tiers) {
  test(`a ${tier} subscriber has exactly the cards up to their tier unlocked`, async ({ page, makeUser }) => {
    const user = await makeUser({ tier });
    await signInAs(page, user);
    await page.goto('/resources');
    await expect(page.getByText(`Current Tier: ${tierLabels[tier]}`)).toBeVisible();
    await expect(page.getByRole('link', { name: /^Unlock with / })).toHaveCount(
      resourceCards.length - unlockedCount(tier),
    );
    const expectedFiles = resourceCards
      .filter((card) => tierRank(card.tier) <= tierRank(tier))
      .flatMap((card) => card.sampleFiles);
    for (const file of expectedFiles) {
      await expect(page.getByRole('link', { name: downloadLinkName(file) })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(expectedFiles.length);
    await expect(page.getByText('Ready for More?')).toHaveCount(tier === 'complete' ? 0 : 1);
    if (tier === 'complete') await expectAccessible(page);
  });
}

test('the resources page fits a 360 px phone without sideways scrolling', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'complete', displayName: 'Hannah Longname-Writer' });
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, user);
  await page.goto('/resources');
  await expect(page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeInViewport();
});

test('a download link really returns the file, as a download in a new tab', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  await signInAs(page, user);
  await page.goto('/resources');
  const link = page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') });
  await expect(link).toHaveAttribute('target', '_blank');
  const href = await link.getAttribute('href');
  expect(href).toBeTruthy();
  const response = await page.request.get(href!);
  expect(response.status()).toBe(200);
  expect((await response.body()).subarray(0, 5).toString()).toBe('%PDF-');
  expect(response.headers()['content-disposition'] ?? '').toContain('attachment');

  const audio = await page.request.get(
    (await page.getByRole('link', { name: downloadLinkName('session-1-called-to-write.mp3') }).getAttribute('href'))!,
  );
  expect(audio.status()).toBe(200);
  expect(audio.headers()['content-type']).toContain('audio/mpeg');
});

/** The batch signing request that renews one card's links (supabase-js: POST /object/sign/:bucket). */
function isSigningOf(folder: string) {
  return (response: Response) =>
    response.request().method() === 'POST' &&
    response.url().endsWith('/storage/v1/object/sign/resources') &&
    (response.request().postData() ?? '').includes(`${folder}/`);
}

test('a link left open past its expiry is signed again when clicked', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  const folder = resourceFolder(findResourceCard('worksheets')!);
  await page.clock.install();
  await signInAs(page, user);
  await page.goto('/resources');
  const link = page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') });
  await expect(link).toBeVisible();

  // The laptop slept for longer than the link lives (10 minutes): the clock moved on, but
  // no timer has run yet, so the list on screen still holds the old link. The server's
  // clock did not move, so a link signed again in the same second can be byte-identical;
  // what proves the renewal is the signing request the click makes, and the download
  // following the URL that request returned.
  await page.clock.setSystemTime(Date.now() + 11 * 60 * 1000);
  const signing = page.waitForResponse(isSigningOf(folder));
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const renewed = (await (await signing).json()) as { path: string; signedURL: string | null }[];
  const entry = renewed.find((item) => item.path === `${folder}/book-planning-worksheet.pdf`);
  expect(entry?.signedURL).toBeTruthy();
  expect(download.url().startsWith(`${e2eEnv.supabaseUrl}/storage/v1${entry!.signedURL!}`)).toBe(true);

  expect(await download.failure()).toBeNull();
  const served = await page.request.get(download.url());
  expect(served.status()).toBe(200);
  expect((await served.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
});

test('a stale link to a file removed meanwhile says so instead of downloading', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  const name = `e2e-${randomUUID()}.pdf`;
  const path = `${resourceFolder(findResourceCard('worksheets')!)}/${name}`;
  const uploaded = await admin.storage
    .from('resources')
    .upload(path, Buffer.from('%PDF-1.4\n%%EOF\n'), { contentType: 'application/pdf' });
  expect(uploaded.error).toBeNull();
  await page.clock.install();
  await signInAs(page, user);
  await page.goto('/resources');
  const link = page.getByRole('link', { name: downloadLinkName(name) });
  await expect(link).toBeVisible();

  await admin.storage.from('resources').remove([path]);
  // As above: time jumps without a timer running, so the stale link is still on screen to click.
  await page.clock.setSystemTime(Date.now() + 11 * 60 * 1000);
  await link.click();

  await expect(page.getByText('Download failed')).toBeVisible();
  await expect(page.getByText(`${name} is no longer available.`)).toBeVisible();
  await expect(link).toHaveCount(0);
});

test('a file above the tier is refused even with a forged path', async ({ request, makeUser }) => {
  const user = await makeUser({ tier: 'ebook' });
  const client = anonClient();
  const { error: signInError } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  expect(signInError).toBeNull();

  const worksheets = resourceCards.find((card) => card.slug === 'worksheets')!;
  const locked = `${resourceFolder(worksheets)}/${worksheets.sampleFiles[0]}`;
  const ebook = resourceCards.find((card) => card.slug === 'ebook')!;
  const own = `${resourceFolder(ebook)}/${ebook.sampleFiles[0]}`;

  // Own tier: a signed URL is granted. Higher tier: refused, and the listing is empty.
  const allowed = await client.storage.from('resources').createSignedUrl(own, 60);
  expect(allowed.error).toBeNull();
  const refused = await client.storage.from('resources').createSignedUrl(locked, 60);
  expect(refused.data).toBeNull();
  expect(refused.error).not.toBeNull();
  const listing = await client.storage.from('resources').list(resourceFolder(worksheets));
  expect(listing.data ?? []).toHaveLength(0);

  // Straight at the storage API with the user's token, and with no token at all.
  const session = (await client.auth.getSession()).data.session!;
  const direct = await request.get(`${e2eEnv.supabaseUrl}/storage/v1/object/authenticated/resources/${locked}`, {
    headers: { Authorization: `Bearer ${session.access_token}`, apikey: e2eEnv.anonKey },
  });
  expect(direct.status()).toBeGreaterThanOrEqual(400);
  const anonymous = await request.get(`${e2eEnv.supabaseUrl}/storage/v1/object/public/resources/${locked}`);
  expect(anonymous.status()).toBeGreaterThanOrEqual(400);
});
