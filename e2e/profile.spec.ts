import type { Locator } from '@playwright/test';
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
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Avatar updated')).toBeVisible();
  await expect(page.getByText('Your profile picture has been updated successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  const { data } = await admin.from('profiles').select('avatar_url').eq('user_id', user.id).single();
  expect(data?.avatar_url).toContain(`/avatars/${user.id}/avatar.png`);
  const served = await page.request.get(data!.avatar_url!);
  expect(served.status()).toBe(200);
  expect(Buffer.compare(await served.body(), tinyPng)).toBe(0);
  await expect(trigger.getByRole('img')).toHaveAttribute('src', data!.avatar_url!);
});

test('a picture of exactly 2 MB, the limit, is stored whole', async ({ page, makeUser }) => {
  const user = await makeUser();
  await signInAs(page, user);
  await page.goto('/upgrade');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  const picture = Buffer.concat([tinyPng, Buffer.alloc(2 * 1024 * 1024 - tinyPng.length)]);
  await dialog.getByLabel('Profile picture').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: picture });
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Avatar updated')).toBeVisible();

  const { data } = await admin.from('profiles').select('avatar_url').eq('user_id', user.id).single();
  const served = await page.request.get(data!.avatar_url!);
  expect(served.status()).toBe(200);
  expect((await served.body()).length).toBe(2 * 1024 * 1024);
});

test('a chosen picture is a preview until Save Changes; Cancel discards it', async ({ page, makeUser }) => {
  const user = await makeUser({ displayName: 'Faith Pen' });
  // Every write to storage the page makes (the upload is a POST or PUT to /storage/v1/object).
  const storageWrites: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/storage/v1/object') && request.method() !== 'GET') storageWrites.push(request.url());
  });
  await signInAs(page, user);
  await page.goto('/');
  const trigger = page.getByRole('button', { name: 'Account menu' });
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  const preview = dialog.getByRole('img', { name: 'Preview of your new profile picture' });
  await trigger.click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();

  await dialog.getByLabel('Profile picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng });
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute('src', /^blob:/);
  await expect(dialog.getByText('New picture: me.png. It is saved when you press Save Changes.')).toBeVisible();
  expect(storageWrites).toEqual([]);

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(trigger).toContainText('FP');
  await expect(trigger.getByRole('img')).toHaveCount(0);
  expect(storageWrites).toEqual([]);
  const { data: stored } = await admin.storage.from('avatars').list(user.id);
  expect(stored ?? []).toEqual([]);

  // Reopened, nothing is chosen; choose again and save: the upload waits for Save Changes.
  await trigger.click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  await expect(preview).toHaveCount(0);
  await dialog.getByLabel('Profile picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng });
  await expect(preview).toBeVisible();
  // Hold the upload until the busy label has been seen, then let it through.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/storage/v1/object/avatars/**', async (route) => {
    await held;
    await route.fallback();
  });
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog.getByRole('button', { name: 'Uploading...' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  release();
  await expect(page.getByText('Avatar updated')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(trigger.getByRole('img', { name: 'Profile picture of Faith Pen' })).toHaveAttribute(
    'src',
    new RegExp(`/avatars/${user.id}/avatar\\.png\\?v=\\d+$`),
  );
  expect(storageWrites).toHaveLength(1);
});

test('at 360 px the picture chooser and the chosen file are readable', async ({ page, makeUser }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const user = await makeUser({ displayName: 'Faith Pen' });
  await signInAs(page, user);
  await page.goto('/upgrade');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });

  await expectReadable(dialog.getByText('Profile picture', { exact: true }), dialog);
  await expectReadable(dialog.getByText('Choose a picture'), dialog);
  // The browser's own chooser is visually hidden: the visible button opens it, and so do the
  // keys on the (focused) hidden input.
  let chooser = page.waitForEvent('filechooser');
  await dialog.getByText('Choose a picture').click();
  await (await chooser).setFiles([]);
  chooser = page.waitForEvent('filechooser');
  await dialog.getByLabel('Profile picture').focus();
  await page.keyboard.press('Enter');
  await (
    await chooser
  ).setFiles({
    name: 'IMG_20261123_113045_portrait_for_the_author_profile.png',
    mimeType: 'image/png',
    buffer: tinyPng,
  });
  await expectReadable(dialog.getByText('Choose another picture'), dialog);
  await expectReadable(dialog.getByText(/^New picture: IMG_20261123_113045_portrait/), dialog);
  await expectAccessible(page);
});

/**
 * Readable: visible, inside the dialog's box, its text not clipped (no overflow), and on top
 * at its corners and centre (nothing drawn over it).
 */
async function expectReadable(target: Locator, container: Locator) {
  await expect(target).toBeVisible();
  const box = await target.boundingBox();
  const outer = await container.boundingBox();
  expect(box && outer).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(outer!.x);
  expect(box!.y).toBeGreaterThanOrEqual(outer!.y);
  expect(box!.x + box!.width).toBeLessThanOrEqual(outer!.x + outer!.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(outer!.y + outer!.height);
  const layout = await target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const inset = 4;
    const points: Array<[number, number]> = [
      [rect.left + inset, rect.top + inset],
      [rect.right - inset, rect.top + inset],
      [rect.left + inset, rect.bottom - inset],
      [rect.right - inset, rect.bottom - inset],
      [rect.left + rect.width / 2, rect.top + rect.height / 2],
    ];
    return {
      clipped: element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight,
      covered: points.filter(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return !hit || !(hit === element || element.contains(hit));
      }).length,
    };
  });
  expect(layout).toEqual({ clipped: false, covered: 0 });
}

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
