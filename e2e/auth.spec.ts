import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { admin, anonClient, expect, expectAccessible, signInAs, test, waitForHydration } from './fixtures';
import { openMailLink, readInbox } from './inbox';

/** The `type` of an e-mailed verify link (signup, invite, recovery, email_change). */
function linkType(link: string) {
  return new URL(link).searchParams.get('type');
}

async function deleteUserByEmail(email: string) {
  const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
  const user = data.users.find((u) => u.email === email);
  if (user) await admin.auth.admin.deleteUser(user.id);
}

async function fillSignIn(page: Page, email: string, password: string) {
  const form = page.getByRole('tabpanel', { name: 'Sign In' });
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

async function expectToast(page: Page, title: string, description?: string) {
  const toast = page
    .getByRole('region', { name: /notifications/i })
    .getByRole('listitem')
    .filter({ hasText: title });
  await expect(toast.first()).toBeVisible();
  if (description) await expect(toast.first()).toContainText(description);
}

test('sign-up: check the inbox, confirm, choose the password, land signed in where the person was going', async ({
  page,
}) => {
  const email = `e2e-signup-${randomUUID()}@example.com`;
  try {
    await page.goto('/auth?next=%2Fupgrade');
    await waitForHydration(page);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = page.getByRole('tabpanel', { name: 'Sign Up' });
    await expect(form.getByText('Must be at least 6 characters')).toBeVisible();
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByLabel('Password', { exact: true }).fill('a-good-password');
    await form.getByRole('button', { name: 'Create Account' }).click();
    // Confirmations are on (config.toml): no session until the address is proven.
    await expectToast(page, 'Account created!', 'Check your e-mail for your code.');
    await expect(page).toHaveURL(/\/auth\?next=%2Fupgrade$/);
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await fillSignIn(page, email, 'a-good-password');
    await expectToast(page, 'Sign in failed', 'Email not confirmed');

    // Told apart by the link's type: the subject is the auth server's template (config.toml's [auth.email.template.*]).
    await expect.poll(async () => (await readInbox(email)).map((m) => linkType(m.link))).toEqual(['signup']);
    const [mail] = await readInbox(email);
    // Followed from another device: the password is chosen there (typed on this tab, the code keeps it).
    await openMailLink(page, mail!.link);
    await expect(page).toHaveURL(/\/auth\/set-password\?next=%2Fupgrade/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your e-mail address is confirmed' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('New password', { exact: true }).fill('my-kept-password');
    await page.getByLabel('Confirm password').fill('my-kept-password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expectToast(page, 'Password set');
    await expect(page).toHaveURL(/\/upgrade$/);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();

    // From now on the chosen password signs in; the one typed at sign-up never will.
    const typed = await anonClient().auth.signInWithPassword({ email, password: 'a-good-password' });
    expect(typed.error?.message).toBe('Invalid login credentials');
    const kept = await anonClient().auth.signInWithPassword({ email, password: 'my-kept-password' });
    expect(kept.error).toBeNull();

    // The same address again gets the same answer as a new one: the page never says who has an account.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    // Signed out once home shows Sign In again: /auth opened before that sends a member on.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    await page.goto('/auth');
    await waitForHydration(page);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByLabel('Password', { exact: true }).fill('a-good-password');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await expectToast(page, 'Account created!', 'Check your e-mail');
  } finally {
    await deleteUserByEmail(email);
  }
});

test('each credential rule shows its message in a Validation error toast', async ({ page }) => {
  await page.goto('/auth');
  await waitForHydration(page);
  await expectAccessible(page);

  // Passes the browser's e-mail check but not the schema's (no top-level domain).
  await fillSignIn(page, 'writer@localhost', 'long-enough');
  await expectToast(page, 'Validation error', 'Invalid email address');

  await fillSignIn(page, 'writer@example.com', '12345');
  await expectToast(page, 'Validation error', 'Password must be at least 6 characters');

  await fillSignIn(page, 'writer@example.com', 'x'.repeat(101));
  await expectToast(page, 'Validation error', 'Password must be less than 100 characters');
  await expect(page).toHaveURL(/\/auth$/);
});

test('a wrong password says Sign in failed; the right one welcomes and redirects', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'ebook' });
  await page.goto('/auth');
  await waitForHydration(page);
  await fillSignIn(page, user.email, 'not-the-password');
  await expectToast(page, 'Sign in failed', 'Invalid login credentials');
  await expect(page).toHaveURL(/\/auth$/);

  await fillSignIn(page, user.email, user.password);
  await expectToast(page, 'Welcome back!', 'Redirecting to your resources...');
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByText('Current Tier: Ebook Only')).toBeVisible();
});

test('next is honoured for same-site paths only', async ({ page, makeUser }) => {
  const user = await makeUser({ staff: true });
  await page.goto('/auth?next=/admin-upload');
  await waitForHydration(page);
  await fillSignIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/admin-upload$/);

  const other = await makeUser();
  const second = await page.context().browser()!.newPage();
  await second.goto(`${new URL(page.url()).origin}/auth?next=//evil.example/steal`);
  await fillSignIn(second, other.email, other.password);
  await expect(second).toHaveURL(/\/resources$/);
  await second.close();
});

test('a signed-in user who opens /auth is sent to the resources', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  await signInAs(page, user);
  await page.goto('/auth');
  await waitForHydration(page);
  await expect(page).toHaveURL(/\/resources$/);
});

test('the link in a confirmation e-mail signs the user in and clears the tokens from the address bar', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ displayName: 'Ruth Newcomer' });
  // What GoTrue's /verify redirect puts after the site URL (emailRedirectTo = origin + '/'):
  // the new session in the fragment. The browser has no stored session yet.
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  expect(error).toBeNull();
  const session = data.session!;
  const fragment = new URLSearchParams({
    access_token: session.access_token,
    refresh_token: session.refresh_token,
    expires_in: String(session.expires_in),
    expires_at: String(session.expires_at),
    token_type: 'bearer',
    type: 'signup',
  });
  await page.goto(`/#${fragment.toString()}`);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu').getByText('Ruth Newcomer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('');
  await page.goto('/resources');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
});
