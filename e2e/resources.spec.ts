import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { findResourceCard, resourceCards, resourceFolder } from '../src/content/resources';
import { tierLabels, tierRank, tiers, type Tier } from '../src/content/tiers';
import { e2eEnv } from './env';
import { admin, anonClient, expect, expectAccessible, signInAs, test } from './fixtures';
import { pdfPageText } from '../supabase/functions/download/test-support';
import { downloadLinkName } from './files';
import { titleFromName } from '../src/features/resources/lib/resource-files';

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
    const unlockedFiles = resourceCards
      .filter((card) => tierRank(card.tier) <= tierRank(tier))
      .flatMap((card) => card.sampleFiles);
    // A video plays in the page and is not downloaded; its captions play with it.
    const expectedFiles = unlockedFiles.filter((file) => !/\.(mp4|vtt)$/.test(file));
    for (const file of expectedFiles) {
      await expect(page.getByRole('link', { name: downloadLinkName(file) })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(expectedFiles.length);
    for (const video of unlockedFiles.filter((file) => file.endsWith('.mp4'))) {
      await expect(page.getByRole('button', { name: `Play ${titleFromName(video)}` })).toBeVisible();
    }
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

test('a click downloads the member’s own copy: the PDF stamped with them, the audio as it is', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'foundation' });
  await signInAs(page, user);
  await page.goto('/resources');
  const link = page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('href', /\/functions\/v1\/download\?path=/);

  const [pdf] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(await pdf.failure()).toBeNull();
  expect(pdf.suggestedFilename()).toBe('book-planning-worksheet.pdf');
  const bytes = new Uint8Array(await readFile((await pdf.path())!));
  expect(await pdfPageText(bytes, 0)).toContain(`Licensed to ${user.email}`);

  const audioLink = page.getByRole('link', { name: downloadLinkName('session-1-called-to-write.mp3') });
  const [audio] = await Promise.all([page.waitForEvent('download'), audioLink.click()]);
  expect(await audio.failure()).toBeNull();
  expect(audio.suggestedFilename()).toBe('session-1-called-to-write.mp3');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
});

test('a link to a file removed meanwhile says so instead of downloading, and goes', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  const name = `e2e-${randomUUID()}.pdf`;
  const path = `${resourceFolder(findResourceCard('worksheets')!)}/${name}`;
  const uploaded = await admin.storage
    .from('resources')
    .upload(path, Buffer.from('%PDF-1.4\n%%EOF\n'), { contentType: 'application/pdf' });
  expect(uploaded.error).toBeNull();
  await signInAs(page, user);
  await page.goto('/resources');
  const link = page.getByRole('link', { name: downloadLinkName(name) });
  await expect(link).toBeVisible();

  await admin.storage.from('resources').remove([path]);
  await link.click();

  await expect(page.getByText('Download failed')).toBeVisible();
  await expect(page.getByText('That file is not in your library.')).toBeVisible();
  await expect(link).toHaveCount(0);
});

test('a member lists their tier’s files but cannot sign or fetch a paid file directly', async ({
  request,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'ebook' });
  const client = anonClient();
  const { error: signInError } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  expect(signInError).toBeNull();

  const worksheets = resourceCards.find((card) => card.slug === 'worksheets')!;
  const locked = `${resourceFolder(worksheets)}/${worksheets.sampleFiles[0]}`;
  const ebook = resourceCards.find((card) => card.slug === 'ebook')!;
  const own = `${resourceFolder(ebook)}/${ebook.sampleFiles[0]}`;

  // Their own folder lists; a higher tier's lists empty. Signing is refused even for their own
  // tier: paid files leave only through the download function.
  const mine = await client.storage.from('resources').list(resourceFolder(ebook));
  expect(mine.data?.map((file) => file.name)).toContain(ebook.sampleFiles[0]);
  for (const path of [own, locked]) {
    const signed = await client.storage.from('resources').createSignedUrl(path, 60);
    expect(signed.data, path).toBeNull();
    expect(signed.error, path).not.toBeNull();
  }
  const listing = await client.storage.from('resources').list(resourceFolder(worksheets));
  expect(listing.data ?? []).toHaveLength(0);

  // Straight at the storage API with the user's token, and with no token at all.
  const session = (await client.auth.getSession()).data.session!;
  for (const path of [own, locked]) {
    const direct = await request.get(`${e2eEnv.supabaseUrl}/storage/v1/object/authenticated/resources/${path}`, {
      headers: { Authorization: `Bearer ${session.access_token}`, apikey: e2eEnv.anonKey },
    });
    expect(direct.status(), path).toBeGreaterThanOrEqual(400);
  }
  const anonymous = await request.get(`${e2eEnv.supabaseUrl}/storage/v1/object/public/resources/${locked}`);
  expect(anonymous.status()).toBeGreaterThanOrEqual(400);
});
