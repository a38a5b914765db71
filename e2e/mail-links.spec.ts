import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { paths } from '../src/config/paths';
import { admin, anonClient, expect, expectAccessible, test, waitForHydration } from './fixtures';
import { openMailLink, readInbox, type Mail } from './inbox';

// Every auth e-mail survives what a mail scanner does to it (a plain GET of each link, then a
// headless browser loading it) and still takes the person where it promised; codes work in
// the tab that signed up and in another browser; a spent link leads to a new one in one tap.
// See docs/decisions/064-code-in-the-same-tab-keeps-the-password.md.

const confirmButton = /^(Open my account|Confirm my address|Choose a new password|Confirm the change)$/;

/** The newest mails to `email` once there are `count` (delivery to Mailpit is not instant). */
async function mails(email: string, count = 1): Promise<Mail[]> {
  await expect.poll(async () => (await readInbox(email)).length).toBe(count);
  return readInbox(email);
}

/** What scanners do: GET every address in the mail, then load its link in a headless browser of their own. */
async function scan(browser: Browser, mail: Mail) {
  expect(mail.link).toMatch(/\/auth\/confirm\?token_hash=[0-9a-f]+&type=/);
  expect(mail.links).toContain(mail.link);
  for (const url of mail.links) expect((await fetch(url)).status).toBe(200);
  const scanner = await browser.newContext();
  try {
    const page = await scanner.newPage();
    await page.goto(mail.link);
    await expect(page.getByRole('button', { name: confirmButton })).toBeVisible();
  } finally {
    await scanner.close();
  }
}

async function deleteUserByEmail(email: string) {
  const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
  const user = data.users.find((u) => u.email === email);
  if (user) await admin.auth.admin.deleteUser(user.id);
}

async function choosePassword(page: Page, password: string, button: 'Set Password' | 'Update Password') {
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: button }).click();
}

test.describe('each auth e-mail survives a scanner and takes the person where it promised', () => {
  test('invitation: to choosing a password, then the files', async ({ page, browser, baseURL }) => {
    const email = `e2e-scan-invite-${randomUUID()}@example.com`;
    try {
      const invited = await admin.auth.admin.inviteUserByEmail(email, { redirectTo: `${baseURL}${paths.setPassword}` });
      expect(invited.error).toBeNull();
      const [mail] = await mails(email);
      expect(mail!.subject).toBe('Your files are ready');
      expect(mail!.code).toMatch(/^\d{6}$/);
      await scan(browser, mail!);

      await page.goto(mail!.link);
      await expect(page.getByRole('heading', { level: 1, name: 'Your files are ready' })).toBeFocused();
      await expect(page.getByText(email)).toBeVisible();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Open my account' }).click();
      await expect(page).toHaveURL(/\/auth\/set-password$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome! Your files are ready' })).toBeVisible();
      const password = `pw-${randomUUID()}`;
      await choosePassword(page, password, 'Set Password');
      await expect(page).toHaveURL(/\/resources$/);
      expect((await anonClient().auth.signInWithPassword({ email, password })).error).toBeNull();
    } finally {
      await deleteUserByEmail(email);
    }
  });

  test('sign-up confirmation: to choosing a password, then where they were going', async ({
    page,
    browser,
    baseURL,
  }) => {
    const email = `e2e-scan-signup-${randomUUID()}@example.com`;
    try {
      const signedUp = await anonClient().auth.signUp({
        email,
        password: `typed-${randomUUID()}`,
        options: { emailRedirectTo: `${baseURL}${paths.setPassword}?next=${encodeURIComponent(paths.upgrade)}` },
      });
      expect(signedUp.error).toBeNull();
      const [mail] = await mails(email);
      expect(mail!.subject).toBe('Confirm your e-mail address for Yes, You Can!');
      await scan(browser, mail!);

      await openMailLink(page, mail!.link);
      await expect(page).toHaveURL(/\/auth\/set-password\?next=%2Fupgrade$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Your e-mail address is confirmed' })).toBeVisible();
      await choosePassword(page, 'chosen-after-link', 'Set Password');
      await expect(page).toHaveURL(/\/upgrade$/);
    } finally {
      await deleteUserByEmail(email);
    }
  });

  test('password reset: to choosing a new password, then the files', async ({ page, browser, makeUser }) => {
    const user = await makeUser({ tier: 'foundation' });
    expect((await anonClient().auth.resetPasswordForEmail(user.email)).error).toBeNull();
    const [mail] = await mails(user.email);
    expect(mail!.subject).toBe('Reset your Yes, You Can! password');
    await scan(browser, mail!);

    await openMailLink(page, mail!.link);
    await expect(page).toHaveURL(/\/auth\/set-password$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    const fresh = `new-${randomUUID()}`;
    await choosePassword(page, fresh, 'Update Password');
    await expect(page).toHaveURL(/\/resources$/);
    expect((await anonClient().auth.signInWithPassword({ email: user.email, password: fresh })).error).toBeNull();
  });

  test('e-mail change: both addresses confirm, then the files, at the new address', async ({
    page,
    browser,
    makeUser,
  }) => {
    const user = await makeUser({ tier: 'foundation' });
    const member = anonClient();
    expect((await member.auth.signInWithPassword({ email: user.email, password: user.password })).error).toBeNull();
    const newEmail = `e2e-scan-new-${randomUUID()}@example.com`;
    expect((await member.auth.updateUser({ email: newEmail })).error).toBeNull();
    const [toCurrent] = await mails(user.email);
    const [toNew] = await mails(newEmail);
    for (const mail of [toCurrent!, toNew!]) {
      expect(mail.subject).toBe('Confirm your new e-mail address for Yes, You Can!');
      await scan(browser, mail);
    }

    await openMailLink(page, toCurrent!.link);
    await expect(page.getByRole('heading', { level: 1, name: 'One address confirmed' })).toBeVisible();
    await openMailLink(page, toNew!.link);
    await expect(page).toHaveURL(/\/resources$/);
    await expect(page.getByText('Your e-mail address is changed')).toBeVisible();
    expect((await admin.auth.admin.getUserById(user.id)).data.user?.email).toBe(newEmail);
  });
});

test('sign-up confirmed by its code in the same tab: the password is typed once', async ({ page }) => {
  const email = `e2e-code-${randomUUID()}@example.com`;
  const password = `typed-once-${randomUUID()}`;
  try {
    await page.goto('/auth?next=%2Fupgrade');
    await waitForHydration(page);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = page.getByRole('tabpanel', { name: 'Sign Up' });
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByLabel('Password', { exact: true }).fill(password);
    await form.getByRole('button', { name: 'Create Account' }).click();
    await expect(form.getByRole('heading', { name: 'Check your e-mail' })).toBeFocused();
    // Checked once the sign-up's toast has gone (axe reads its fade as low contrast).
    await expect(page.getByRole('region', { name: /notifications/i }).getByRole('listitem')).toHaveCount(0);
    await expectAccessible(page);

    const [mail] = await mails(email);
    const code = form.getByRole('textbox', { name: '6-digit code' });
    // A wrong code is refused in words, and the right one still works.
    await code.fill(mail!.code === '000000' ? '111111' : '000000');
    await form.getByRole('button', { name: 'Confirm' }).click();
    await expect(form.getByRole('alert')).toContainText('This code is not right');
    await code.fill(mail!.code);
    await form.getByRole('button', { name: 'Confirm' }).click();

    await expect(page).toHaveURL(/\/upgrade$/);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    expect((await anonClient().auth.signInWithPassword({ email, password })).error).toBeNull();
  } finally {
    await deleteUserByEmail(email);
  }
});

test('a code typed in another browser confirms the address there', async ({ page, browser }) => {
  const email = `e2e-code-elsewhere-${randomUUID()}@example.com`;
  try {
    await page.goto('/auth');
    await waitForHydration(page);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = page.getByRole('tabpanel', { name: 'Sign Up' });
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByLabel('Password', { exact: true }).fill('typed-on-the-phone');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await expect(form.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    const [mail] = await mails(email);

    const laptop = await browser.newContext();
    try {
      const other = await laptop.newPage();
      await other.goto(paths.confirm);
      await expect(other.getByRole('heading', { level: 1, name: 'Enter your code' })).toBeFocused();
      await other.getByRole('button', { name: 'Confirm' }).click();
      await expect(other.getByText('Enter the e-mail address the code was sent to')).toBeVisible();
      await other.getByRole('textbox', { name: 'Email' }).fill(email);
      await other.getByRole('textbox', { name: '6-digit code' }).fill(mail!.code);
      await other.getByRole('button', { name: 'Confirm' }).click();
      await expect(other).toHaveURL(/\/auth\/set-password\?next=%2Fresources$/);
      await expect(other.getByRole('heading', { level: 1, name: 'Your e-mail address is confirmed' })).toBeVisible();
      await choosePassword(other, 'chosen-on-the-laptop', 'Set Password');
      await expect(other).toHaveURL(/\/resources$/);
    } finally {
      await laptop.close();
    }
    expect((await anonClient().auth.signInWithPassword({ email, password: 'chosen-on-the-laptop' })).error).toBeNull();
  } finally {
    await deleteUserByEmail(email);
  }
});

test('a spent link says so and sends a new one in one tap, the address filled in', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `e2e-spent-${randomUUID()}@example.com`;
  try {
    expect(
      (await admin.auth.admin.inviteUserByEmail(email, { redirectTo: `${baseURL}${paths.setPassword}` })).error,
    ).toBeNull();
    const [invitation] = await mails(email);
    // Spent elsewhere (another device, or a scanner that pressed the button).
    const first = await browser.newContext();
    try {
      await openMailLink(await first.newPage(), invitation!.link);
    } finally {
      await first.close();
    }

    await openMailLink(page, invitation!.link);
    await expect(page.getByRole('heading', { level: 1, name: 'This link has expired' })).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Send me a new link' }).click();
    await expect(page.getByText(`If an account exists for ${email}, we've sent it a link`)).toBeVisible();

    const [fresh] = await mails(email, 2);
    expect(fresh!.subject).toBe('Reset your Yes, You Can! password');
    await openMailLink(page, fresh!.link);
    await expect(page).toHaveURL(/\/auth\/set-password$/);
    await choosePassword(page, 'after-a-new-link', 'Update Password');
    await expect(page).toHaveURL(/\/resources$/);
  } finally {
    await deleteUserByEmail(email);
  }
});
