import type { Page, Route } from '@playwright/test';
import { admin, expect, signInAs, test } from './fixtures';

/**
 * The menu's profile read is GET /rest/v1/profiles. These tests break it in the browser
 * (route interception), check the "could not load" state, mend it and press Retry.
 */
const profiles = '**/rest/v1/profiles*';

/** Fails every profile read with `fail`; writes pass. Returns the times of the failed reads. */
async function breakProfileReads(page: Page, fail: (route: Route) => Promise<void>) {
  const failedAt: number[] = [];
  await page.route(profiles, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    failedAt.push(Date.now());
    await fail(route);
  });
  return failedAt;
}

const unavailable = (route: Route) =>
  route.fulfill({
    status: 503,
    contentType: 'application/json',
    body: JSON.stringify({ message: 'Service Unavailable' }),
  });

for (const [fault, fail] of [
  ['a 503', unavailable],
  ['a refused connection', (route: Route) => route.abort('connectionrefused')],
] as const) {
  test(`the menu says it could not load the profile after ${fault}, and Retry shows the real one`, async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser({ displayName: 'Hope Author' });
    const failedAt = await breakProfileReads(page, fail);
    const logged = page.waitForEvent('console', {
      predicate: (message) => message.type() === 'error' && message.text().includes('Could not read your profile'),
    });
    await signInAs(page, user);
    await page.goto('/');

    const trigger = page.getByRole('button', { name: 'Account menu' });
    await trigger.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText("Couldn't load your profile")).toBeVisible();
    await expect(menu.getByText('No name set')).toHaveCount(0);
    await expect(menu.getByText(user.email)).toBeVisible();
    // No form that could save an empty name over the real one.
    await expect(menu.getByRole('menuitem', { name: 'Edit Profile' })).toBeDisabled();
    await logged;
    // The first read and two retries, backing off (1 s, then 2 s), then it stopped.
    expect(failedAt).toHaveLength(3);
    expect(failedAt[1]! - failedAt[0]!).toBeGreaterThanOrEqual(900);
    expect(failedAt[2]! - failedAt[1]!).toBeGreaterThanOrEqual(1900);

    await page.unroute(profiles);
    await menu.getByRole('menuitem', { name: 'Retry' }).click();
    await expect(trigger).toContainText('HA');
    await trigger.click();
    await expect(menu.getByText('Hope Author')).toBeVisible();
    await expect(menu.getByText("Couldn't load your profile")).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Retry' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Edit Profile' })).toBeEnabled();
  });
}

test('a failed refresh keeps the name shown a moment ago, and Retry brings the new one', async ({ page, makeUser }) => {
  const user = await makeUser({ displayName: 'Grace Writer' });
  await signInAs(page, user);
  await page.goto('/');
  const trigger = page.getByRole('button', { name: 'Account menu' });
  await expect(trigger).toContainText('GW');

  const failedAt = await breakProfileReads(page, unavailable);
  // A change made elsewhere makes the menu read again (realtime), and that read fails. The
  // subscription may still be joining: repeat the write until a read has been attempted.
  await expect
    .poll(
      async () => {
        const { error } = await admin.from('profiles').update({ display_name: 'Hope Author' }).eq('user_id', user.id);
        expect(error).toBeNull();
        return failedAt.length;
      },
      { intervals: [250, 500, 1000], timeout: 15_000 },
    )
    .toBeGreaterThan(0);

  await trigger.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText("Couldn't refresh your profile")).toBeVisible();
  await expect(menu.getByText('Grace Writer')).toBeVisible();
  await expect(trigger).toContainText('GW');
  await expect(menu.getByRole('menuitem', { name: 'Edit Profile' })).toBeEnabled();

  await page.unroute(profiles);
  await menu.getByRole('menuitem', { name: 'Retry' }).click();
  await expect(trigger).toContainText('HA');
  await trigger.click();
  await expect(menu.getByText('Hope Author')).toBeVisible();
  await expect(menu.getByText("Couldn't refresh your profile")).toHaveCount(0);
});
