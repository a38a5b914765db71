import { admin, expect, expectAccessible, signInAs, test } from './fixtures';

// A 1×1 transparent PNG.
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

test('the menu shows No name set, and Edit Profile saves a display name', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'ebook' });
  await signInAs(page, user);
  await page.goto('/');
  const trigger = page.getByRole('button', { name: 'Account menu' });
  await trigger.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('No name set')).toBeVisible();
  await expect(menu.getByText(user.email)).toBeVisible();
  await menu.getByRole('menuitem', { name: 'Edit Profile' }).click();

  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  await expect(dialog.getByLabel('Email')).toHaveValue(user.email);
  await expect(dialog.getByLabel('Email')).not.toBeEditable();
  await expectAccessible(page);
  await dialog.getByLabel('Display Name').fill('Grace Writer');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(trigger).toContainText('GW');

  const { data } = await admin.from('profiles').select('display_name').eq('user_id', user.id).single();
  expect(data?.display_name).toBe('Grace Writer');

  // Cancel leaves everything as it was.
  await trigger.click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  await dialog.getByLabel('Display Name').fill('Someone Else');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(trigger).toContainText('GW');
});

test('a save that matches no profile row says so instead of reporting success', async ({ page, makeUser }) => {
  const user = await makeUser();
  // Only possible by hand (the database gives every user a row): the save must not pass silently.
  const { error } = await admin.from('profiles').delete().eq('user_id', user.id);
  expect(error).toBeNull();
  await signInAs(page, user);
  await page.goto('/');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  await dialog.getByLabel('Display Name').fill('Grace Writer');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Your profile was not found, so the change was not saved.')).toBeVisible();
  await expect(page.getByText('Profile updated')).toHaveCount(0);
  const { data } = await admin.from('profiles').select('id').eq('user_id', user.id);
  expect(data).toEqual([]);
});

test('avatar upload refuses big and non-image files and accepts a picture', async ({ page, makeUser }) => {
  const user = await makeUser({ displayName: 'Faith Pen' });
  await signInAs(page, user);
  await page.goto('/upgrade');
  const trigger = page.getByRole('button', { name: 'Account menu' });
  await trigger.click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  const picker = dialog.getByLabel('Profile picture');

  await picker.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
  await expect(page.getByText('File too large')).toBeVisible();
  await expect(page.getByText('Please upload an image smaller than 2MB')).toBeVisible();

  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByText('Invalid file type')).toBeVisible();
  await expect(page.getByText('Please upload an image file')).toBeVisible();

  // An image the bucket refuses (SVG can carry script): named in words, nothing stored.
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await picker.setInputFiles({ name: 'me.svg', mimeType: 'image/svg+xml', buffer: svg });
  await expect(page.getByText('Please upload a PNG, JPEG, WebP or GIF image')).toBeVisible();
  const { data: stored } = await admin.storage.from('avatars').list(user.id);
  expect(stored ?? []).toEqual([]);

  await picker.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng });
  await expect(page.getByText('Avatar updated')).toBeVisible();
  await expect(page.getByText('Your profile picture has been updated successfully')).toBeVisible();

  const { data } = await admin.from('profiles').select('avatar_url').eq('user_id', user.id).single();
  expect(data?.avatar_url).toContain(`/avatars/${user.id}/avatar.png`);
  const served = await page.request.get(data!.avatar_url!);
  expect(served.status()).toBe(200);
  expect(Buffer.compare(await served.body(), tinyPng)).toBe(0);

  await page.keyboard.press('Escape');
  await expect(trigger.getByRole('img')).toHaveAttribute('src', data!.avatar_url!);
});

test('the menu follows a change to the profile made elsewhere, live', async ({ page, makeUser }) => {
  const user = await makeUser({ displayName: 'Grace Writer' });
  await signInAs(page, user);
  await page.goto('/');
  const trigger = page.getByRole('button', { name: 'Account menu' });
  await expect(trigger).toContainText('GW');
  // The page's subscription may still be joining: repeat the same write until the menu
  // shows it. Only a delivered UPDATE can change it (no polling, no refetch on focus).
  await expect
    .poll(
      async () => {
        const { error } = await admin.from('profiles').update({ display_name: 'Hope Author' }).eq('user_id', user.id);
        expect(error).toBeNull();
        return trigger.textContent();
      },
      { intervals: [250, 500, 1000], timeout: 15_000 },
    )
    .toContain('HA');
});
