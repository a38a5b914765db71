import { randomUUID } from 'node:crypto';
import { paths } from '../src/config/paths';
import { admin, anonClient, expect, expectAccessible, test, waitForHydration } from './fixtures';
import { e2eEnv } from './env';
import { openMailLink, readInbox } from './inbox';

// "Forgot password?" and invitations, through the real auth server's e-mails.

/** The only message in `email`'s inbox (delivery to Mailpit on a real stack is not instant). */
async function onlyMail(email: string) {
  await expect.poll(async () => (await readInbox(email)).length).toBe(1);
  return (await readInbox(email))[0]!;
}

const sent = (email: string) => `If an account exists for ${email}, we've sent it a link to choose a new password.`;

test('forgot password: the same answer for any address, and a plain message when asked again at once', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser();
  await page.goto('/auth');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const email = page.getByRole('textbox', { name: 'Email' });
  await expect(email).toBeFocused();
  await expectAccessible(page);

  // An address without an account gets the very same answer, and no e-mail.
  const stranger = `e2e-nobody-${randomUUID()}@example.com`;
  await email.fill(stranger);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(sent(stranger))).toBeVisible();

  await email.fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(sent(user.email))).toBeVisible();
  // Asking again at once: the auth server's per-address limit, said plainly.
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    /^Too many requests for this address\. Please wait \d+ seconds, then try again\.$/,
  );
  await expect.poll(async () => (await readInbox(user.email)).length).toBe(1);
  expect(await readInbox(stranger)).toEqual([]);
});

test('forgot password round trip: the e-mailed link opens the set-password page, and the new password works', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'foundation' });
  await page.goto('/auth');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(sent(user.email))).toBeVisible();

  const mail = await onlyMail(user.email);
  await openMailLink(page, mail.link);
  await expect(page).toHaveURL(/\/auth\/set-password#?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeFocused();
  await expect(page.getByText(`Choose a new password for ${user.email}.`)).toBeVisible();

  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('short');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters');

  const fresh = `new-${randomUUID()}`;
  await page.getByLabel('New password', { exact: true }).fill(fresh);
  await page.getByLabel('Confirm password').fill(fresh);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByText('Password updated')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();

  expect((await anonClient().auth.signInWithPassword({ email: user.email, password: fresh })).error).toBeNull();
  expect(
    (await anonClient().auth.signInWithPassword({ email: user.email, password: user.password })).error?.status,
  ).toBe(400);

  // The link worked once.
  await openMailLink(page, mail.link);
  await expect(page.getByRole('heading', { level: 1, name: 'This link has expired' })).toBeVisible();
});

test('an invitation: the buyer opens the e-mailed link, chooses a password and lands on /resources signed in', async ({
  page,
  baseURL,
}) => {
  const email = `e2e-invite-${randomUUID()}@example.com`;
  const { data, error } = await admin.auth.admin.inviteUserByEmail(email, {
    redirectTo: `${baseURL}${paths.setPassword}`,
  });
  expect(error).toBeNull();
  const id = data.user!.id;
  try {
    const mail = await onlyMail(email);
    expect(mail.subject).toBe('Your files are ready');

    await page.setViewportSize({ width: 360, height: 740 });
    await openMailLink(page, mail.link);
    await expect(page).toHaveURL(/\/auth\/set-password#?$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome! Your files are ready' })).toBeFocused();
    await expect(page.getByText(`Choose a password for ${email}.`)).toBeVisible();
    // Nothing wider than a 360 px phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page);

    const password = `pw-${randomUUID()}`;
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(`${password}x`);
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Set Password' }).click();

    await expect(page).toHaveURL(/\/resources$/);
    await expect(page.getByText('Password set')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Subscriber Resources' })).toBeVisible();

    const confirmed = await admin.auth.admin.getUserById(id);
    expect(confirmed.data.user?.email_confirmed_at).toBeTruthy();
    expect((await anonClient().auth.signInWithPassword({ email, password })).error).toBeNull();
  } finally {
    await admin.auth.admin.deleteUser(id);
  }
});

test('a refused link says it has expired and sends a new one', async ({ page, baseURL }) => {
  const target = encodeURIComponent(`${baseURL}${paths.setPassword}`);
  // What a spent, expired or edited link does: the auth server redirects with the error.
  await page.goto(`${e2eEnv.supabaseUrl}/auth/v1/verify?token=not-a-token&type=recovery&redirect_to=${target}`);
  await expect(page).toHaveURL(/\/auth\/set-password/);
  await expect(page.getByRole('heading', { level: 1, name: 'This link has expired' })).toBeFocused();
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await expectAccessible(page);

  const email = `e2e-nobody-${randomUUID()}@example.com`;
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(sent(email))).toBeVisible();
});
