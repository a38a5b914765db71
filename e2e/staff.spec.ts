import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { makePdf } from '../packages/supabase-stand-in/sample-files.mjs';
import { pdfPageText } from '../supabase/functions/download/test-support';
import { findResourceCard, resourceFolder } from '../src/content/resources';
import { admin, anonClient, expect, expectAccessible, signInAs, test } from './fixtures';
import { downloadLinkName } from './files';

/** A one-page PDF that shows `text`, as staff would upload. */
function pdf(text: string) {
  return Buffer.from(makePdf(text, [[text]]));
}

test('staff upload a file and a subscriber of that tier can download it', async ({ browser, page, makeUser }) => {
  const staff = await makeUser({ staff: true });
  const reader = await makeUser({ tier: 'foundation' });
  const name = `e2e-${randomUUID()}.pdf`;
  const body = pdf(name);
  const card = findResourceCard('worksheets')!;

  await signInAs(page, staff);
  await page.goto('/admin-upload');
  await expect(page.getByRole('heading', { name: 'Upload Resources' })).toBeVisible();
  await expect(page.getByText('Supported formats: PDF, EPUB, MOBI')).toBeVisible();
  await expectAccessible(page);

  // Nothing chosen: said plainly, nothing sent.
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('You must select a file to upload.').first()).toBeVisible();

  await page.getByLabel('Resource', { exact: true }).selectOption(card.slug);
  await page.getByLabel('File', { exact: true }).setInputFiles({ name, mimeType: 'application/pdf', buffer: body });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Success!')).toBeVisible();
  await expect(page.getByText(`${name} has been uploaded successfully.`)).toBeVisible();
  await expect(page.getByLabel('File', { exact: true })).toHaveValue('');

  const readerPage = await browser.newPage({ baseURL: new URL(page.url()).origin });
  await signInAs(readerPage, reader);
  await readerPage.goto('/resources');
  const link = readerPage.getByRole('link', { name: downloadLinkName(name) });
  await expect(link).toBeVisible();
  // The reader's copy: the uploaded PDF, stamped with them on its first page.
  const [download] = await Promise.all([readerPage.waitForEvent('download'), link.click()]);
  expect(await download.failure()).toBeNull();
  const served = new Uint8Array(await readFile((await download.path())!));
  expect(await pdfPageText(served, 0)).toContain(name);
  expect(await pdfPageText(served, 0)).toContain(`Licensed to ${reader.email}`);
  await readerPage.close();

  await admin.storage.from('resources').remove([`${resourceFolder(card)}/${name}`]);
});

test('a MOBI the browser calls octet-stream still uploads with the type the bucket allows', async ({
  page,
  makeUser,
}) => {
  const staff = await makeUser({ staff: true });
  const card = findResourceCard('ebook')!;
  const name = `e2e-${randomUUID()}.mobi`;
  await signInAs(page, staff);
  await page.goto('/admin-upload');
  await page.getByLabel('Resource', { exact: true }).selectOption(card.slug);
  await page
    .getByLabel('File', { exact: true })
    .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from('BOOKMOBI sample') });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText(`${name} has been uploaded successfully.`)).toBeVisible();

  const { data } = await admin.storage.from('resources').list(resourceFolder(card), { search: name });
  expect(data?.[0]?.metadata?.mimetype).toBe('application/x-mobipocket-ebook');
  await admin.storage.from('resources').remove([`${resourceFolder(card)}/${name}`]);
});

test('a subscriber who is not staff gets the staff-only page, and the database refuses them', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'complete' });
  await signInAs(page, user);
  await page.goto('/admin-upload');
  await expect(page.getByRole('heading', { name: 'Staff only' })).toBeVisible();
  await expect(page.getByLabel('File', { exact: true })).toHaveCount(0);
  await expectAccessible(page);

  const client = anonClient();
  await client.auth.signInWithPassword({ email: user.email, password: user.password });
  const path = `complete/publishing-roadmap/forged-${randomUUID()}.pdf`;
  const { error } = await client.storage
    .from('resources')
    .upload(path, pdf('forged'), { contentType: 'application/pdf' });
  expect(error).not.toBeNull();
  const { data } = await admin.storage.from('resources').list('complete/publishing-roadmap');
  expect((data ?? []).map((entry) => entry.name)).not.toContain(path.split('/').pop());
});

test('a visitor at /admin-upload is told it is for staff and offered Sign In', async ({ page }) => {
  await page.goto('/admin-upload');
  await expect(page.getByRole('heading', { name: 'Staff only' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign In' }).first().click();
  await expect(page).toHaveURL(/\/auth/);
});

test('a file name storage would refuse is named before anything is sent', async ({ page, makeUser }) => {
  const staff = await makeUser({ staff: true });
  const card = findResourceCard('worksheets')!;
  const id = randomUUID();
  await signInAs(page, staff);
  await page.goto('/admin-upload');
  await page.getByLabel('Resource', { exact: true }).selectOption(card.slug);
  await page
    .getByLabel('File', { exact: true })
    .setInputFiles({ name: `chapter ${id} #1.pdf`, mimeType: 'application/pdf', buffer: pdf(id) });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(
    page.getByText('File names may use letters, digits, spaces, dots, hyphens and underscores only.').first(),
  ).toBeVisible();

  const { data } = await admin.storage.from('resources').list(resourceFolder(card), { search: `chapter ${id}` });
  expect(data ?? []).toEqual([]);
});
