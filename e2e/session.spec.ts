import { e2eEnv } from './env';
import { expect, signInAs, test } from './fixtures';

test('Sign Out on /resources says goodbye and goes home', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'ebook' });
  await signInAs(page, user);
  await page.goto('/resources');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByText('Signed out successfully')).toBeVisible();
  await expect(page.getByText('Come back anytime to access your resources!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
  await page.goto('/resources');
  await expect(page).toHaveURL(/\/auth/);
});

test('Sign Out from the profile menu goes home signed out', async ({ page, makeUser }) => {
  const user = await makeUser({ displayName: 'Grace Writer' });
  await signInAs(page, user);
  await page.goto('/bundles');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page.getByText('Signed out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
});

test('signing out in another tab sends /resources to sign in', async ({ context, page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  await signInAs(page, user);
  await page.goto('/resources');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();

  const other = await context.newPage();
  await other.goto('/');
  await other.getByRole('button', { name: 'Account menu' }).click();
  await other.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(other).toHaveURL(/\/$/);

  await expect(page).toHaveURL(/\/auth/);
});

test('a session that expires and cannot be refreshed ends on /auth', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  await page.clock.install();
  const session = await signInAs(page, user);
  await page.goto('/resources');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();

  // Revoke every refresh token of the user (as a sign-out elsewhere would), then let time
  // pass beyond the access token's life: the auto-refresh fails and the page lets go.
  const revoked = await page.request.post(`${e2eEnv.supabaseUrl}/auth/v1/logout?scope=global`, {
    headers: { Authorization: `Bearer ${session.access_token}`, apikey: e2eEnv.anonKey },
  });
  expect(revoked.status()).toBeLessThan(300);
  await page.clock.fastForward((session.expires_in + 120) * 1000);

  await expect(page).toHaveURL(/\/auth/);
});
