// A PDF that cannot be stamped, as staff and members meet it: the upload page reads the file
// before sending it and refuses a password-protected one in words; one that got into the
// bucket another way is refused to the member in words, and staff find it on the dashboard.
import { randomUUID } from 'node:crypto';
import { findResourceCard, resourceFolder } from '../src/content/resources';
import { encryptedPdf } from '../src/features/staff/testing/encrypted-pdf';
import { admin, expect, expectAccessible, signInAs, test } from './fixtures';
import { downloadLinkName } from './files';

const card = findResourceCard('worksheets')!;
const refusal =
  'This PDF is password-protected. Export it again without a password (and without permission restrictions), then upload it.';

test('staff uploading a password-protected PDF are told why it is refused, and nothing is sent', async ({
  page,
  makeUser,
}) => {
  const staff = await makeUser({ staff: true });
  const name = `e2e-${randomUUID()}.pdf`;
  await signInAs(page, staff);
  await page.goto('/admin-upload');
  await page.getByLabel('Resource', { exact: true }).selectOption(card.slug);
  const file = page.getByLabel('File', { exact: true });
  await file.setInputFiles({ name, mimeType: 'application/pdf', buffer: Buffer.from(encryptedPdf(name)) });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  await expect(page.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
  await expect(file).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeEnabled();
  await expect(page.getByText('Success!')).toHaveCount(0);
  await expectAccessible(page);
  const { data } = await admin.storage.from('resources').list(resourceFolder(card), { search: name });
  expect(data ?? []).toEqual([]);
});

test('a member asking for a PDF that cannot be stamped is told so, and staff see it under Needs attention', async ({
  browser,
  page,
  makeUser,
}) => {
  const member = await makeUser({ tier: 'foundation' });
  const staff = await makeUser({ staff: true });
  const name = `e2e-${randomUUID()}.pdf`;
  const path = `${resourceFolder(card)}/${name}`;
  // Put in the bucket the way the upload page no longer allows (Supabase's dashboard, a script).
  const put = await admin.storage
    .from('resources')
    .upload(path, new Blob([new Uint8Array(encryptedPdf(name))], { type: 'application/pdf' }), {
      contentType: 'application/pdf',
    });
  expect(put.error).toBeNull();

  try {
    await signInAs(page, member);
    await page.goto('/resources');
    const link = page.getByRole('link', { name: downloadLinkName(name) });
    await expect(link).toBeVisible();
    let asked = 0;
    page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().includes('/functions/v1/download?')) asked += 1;
    });
    await link.click();
    const words = "This file can't be prepared. We've told the team.";
    await expect(page.getByText('Download failed')).toBeVisible();
    await expect(link).toHaveAccessibleDescription(words);
    await expect(link).not.toHaveAttribute('aria-busy');
    expect(asked).toBe(1);

    const staffContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const staffPage = await staffContext.newPage();
    await signInAs(staffPage, staff);
    await staffPage.goto('/staff');
    const attention = staffPage.getByRole('region', { name: 'Needs attention' });
    const item = attention.getByRole('listitem').filter({ hasText: path });
    await expect(item).toBeVisible();
    await expect(item).toContainText(refusal);
    await expect(item).toContainText(/Last asked for .* UTC; 1 download refused since/);
    await expectAccessible(staffPage);
    await staffContext.close();
    // The member was not sent round again meanwhile.
    expect(asked).toBe(1);
  } finally {
    await admin.storage.from('resources').remove([path]);
  }
});
