import { readFile } from 'node:fs/promises';
import { findResourceCard, resourceFolder } from '../src/content/resources';
import { pdfPageText } from '../supabase/functions/download/test-support';
import { e2eEnv } from './env';
import { admin, expect, expectAccessible, signInAs, test } from './fixtures';
import { downloadLinkName } from './files';

const worksheet = `${resourceFolder(findResourceCard('worksheets')!)}/book-planning-worksheet.pdf`;

async function loggedDownloads(userId: string) {
  const { data, error } = await admin.from('download_log').select('file_name, ip').eq('user_id', userId);
  expect(error).toBeNull();
  return data ?? [];
}

test('a member downloads a PDF stamped with their e-mail, and staff see the download', async ({
  browser,
  page,
  makeUser,
}) => {
  const member = await makeUser({ tier: 'foundation' });
  const staff = await makeUser({ staff: true });
  await signInAs(page, member);
  await page.goto('/resources');
  const link = page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') });
  await expect(link).toBeVisible();

  // The function's answer is held until the page has said what it is doing.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/functions/v1/download?**', async (route) => {
    await held;
    await route.continue();
  });
  const downloading = page.waitForEvent('download');
  await link.click();
  await expect(page.getByText('Preparing your copy of Book planning worksheet…')).toBeVisible();
  await expect(link).toHaveAttribute('aria-busy', 'true');
  release();
  const download = await downloading;
  expect(await download.failure()).toBeNull();
  const text = await pdfPageText(new Uint8Array(await readFile((await download.path())!)), 0);
  expect(text).toContain(`Licensed to ${member.email} on ${new Date().toISOString().slice(0, 4)}`);
  await expect(link).not.toHaveAttribute('aria-busy');
  expect(await loggedDownloads(member.id)).toEqual([{ file_name: worksheet, ip: expect.any(String) }]);

  const staffContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const staffPage = await staffContext.newPage();
  await signInAs(staffPage, staff);
  await staffPage.goto('/staff/members');
  const totals = staffPage.getByRole('list', { name: 'Downloads per file' });
  await expect(totals.getByRole('listitem').filter({ hasText: worksheet })).toBeVisible();
  await staffPage.getByRole('searchbox', { name: 'Search by e-mail' }).fill(member.email);
  await staffPage.getByRole('button', { name: 'Search', exact: true }).click();
  await staffPage.getByRole('button', { name: `Manage ${member.email}` }).click();
  const downloads = staffPage
    .getByRole('region', { name: 'Their downloads' })
    .getByRole('table', { name: 'Files this member downloaded' });
  const row = downloads.getByRole('row', { name: new RegExp(worksheet) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(1)).toHaveText('Downloaded');
  await expect(row.getByRole('cell').nth(3)).toHaveText(/^[0-9a-f.:]+$/);
  await expectAccessible(staffPage);
  await staffPage.goto('/staff');
  const topFiles = staffPage.getByRole('region', { name: 'Top files by downloads, last 30 days' });
  await expect(topFiles.getByRole('listitem').filter({ hasText: worksheet })).toBeVisible();
  await staffContext.close();
});

test('a member of a lower tier is refused in words, and nothing is logged', async ({ page, makeUser }) => {
  const member = await makeUser({ tier: 'ebook' });
  const session = await signInAs(page, member);
  await page.goto('/resources');
  // The page offers no link to it: the card is locked.
  const worksheets = page.getByRole('article', { name: findResourceCard('worksheets')!.title });
  await expect(worksheets.getByText('Locked')).toBeVisible();
  await expect(page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') })).toHaveCount(0);

  // Asked anyway, with the member's own session, as a hand-made request would.
  const url = `${e2eEnv.supabaseUrl}/functions/v1/download?path=${encodeURIComponent(worksheet)}`;
  const asked = await page.request.get(url, {
    headers: { Authorization: `Bearer ${session.access_token}`, apikey: e2eEnv.anonKey, Accept: 'application/json' },
  });
  expect(asked.status()).toBe(403);
  expect(((await asked.json()) as { message: string }).message).toBe(
    'This file comes with the foundation tier, which your subscription does not include.',
  );

  // Dot segments and another folder: not found.
  for (const path of ['ebook/ebook/../../foundation/worksheets/book-planning-worksheet.pdf', 'avatars/x/a.png']) {
    const refused = await page.request.get(
      `${e2eEnv.supabaseUrl}/functions/v1/download?path=${encodeURIComponent(path)}`,
      {
        headers: { Authorization: `Bearer ${session.access_token}`, apikey: e2eEnv.anonKey },
      },
    );
    expect(refused.status(), path).toBe(404);
  }
  // Signed out: the platform's gateway refuses before the function runs.
  expect((await page.request.get(url, { headers: { apikey: e2eEnv.anonKey } })).status()).toBe(401);

  expect(await loggedDownloads(member.id)).toEqual([]);
});
