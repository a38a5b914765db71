import type { Page, Route } from '@playwright/test';
import { expect, signInAs, test } from './fixtures';
import { downloadLinkName } from './files';

/**
 * A read that decides what a signed-in person may see has three outcomes shown as
 * three states (data, none, could not load). Each test injects the failure in the browser,
 * checks the could-not-load state, removes the fault, presses retry and checks the real data.
 */

const tierRead = /\/rest\/v1\/user_tiers\?/;
const staffCheck = /\/rest\/v1\/rpc\/is_staff(\?|$)/;
const fileListing = /\/storage\/v1\/object\/list\/resources$/;
/** /resources' one read of the tier and files: when it fails, the page reads each itself. */
const oneRead = /\/rest\/v1\/rpc\/member_resources$/;

function unavailable(route: Route) {
  return route.fulfill({
    status: 503,
    contentType: 'application/json',
    body: JSON.stringify({ message: 'Service Unavailable' }),
  });
}

function refused(route: Route) {
  return route.abort('connectionrefused');
}

/** Console errors, to check the failures are still logged (the spec asks for it). */
function consoleErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test('a failed tier read says so, sells nothing, and Retry shows the real tier', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'foundation' });
  const errors = consoleErrors(page);
  await signInAs(page, user);
  await page.route(oneRead, unavailable);
  await page.route(tierRead, unavailable);
  await page.goto('/resources');

  const problem = page.getByRole('alert').filter({ hasText: "We couldn't load your subscription" });
  await expect(problem).toContainText('Your purchases are safe');
  await expect(page.getByText(/No active subscription/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Bundle Options' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Unlock with / })).toHaveCount(0);
  await expect(page.getByText('Locked', { exact: true })).toHaveCount(0);
  await expect(page.getByText('Ready for More?')).toHaveCount(0);
  await expect.poll(() => errors.some((text) => text.includes('Could not read your subscription tier'))).toBe(true);

  await page.unroute(tierRead);
  await problem.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Current Tier: Foundation Builder')).toBeVisible();
  await expect(problem).toHaveCount(0);
  await expect(page.getByRole('link', { name: downloadLinkName('book-planning-worksheet.pdf') })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Unlock with / })).toHaveCount(2);
});

test('an unreachable tier read (connection refused) is could-not-load too, until Retry', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'complete' });
  await signInAs(page, user);
  await page.route(oneRead, refused);
  await page.route(tierRead, refused);
  await page.goto('/resources');

  const problem = page.getByRole('alert').filter({ hasText: "We couldn't load your subscription" });
  await expect(problem).toBeVisible();
  await expect(page.getByText(/No active subscription/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Unlock with / })).toHaveCount(0);

  await page.unroute(tierRead);
  await problem.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Current Tier: Complete Transformation')).toBeVisible();
  await expect(page.getByRole('link', { name: /^Unlock with / })).toHaveCount(0);
});

test('a failed staff check says it could not check, never "Staff only", and Retry opens the form', async ({
  page,
  makeUser,
}) => {
  const staff = await makeUser({ staff: true });
  const errors = consoleErrors(page);
  await signInAs(page, staff);
  await page.route(staffCheck, refused);
  await page.goto('/admin-upload');

  await expect(page.getByRole('heading', { name: "We couldn't check your access" })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Staff only' })).toHaveCount(0);
  await expect(page.getByLabel('File', { exact: true })).toHaveCount(0);
  await expect.poll(() => errors.some((text) => text.includes('Could not check staff access'))).toBe(true);

  await page.unroute(staffCheck);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Upload Resources' })).toBeVisible();
  await expect(page.getByLabel('File', { exact: true })).toBeVisible();
});

test('a failed staff check of a non-staff member, once retried, is "Staff only"', async ({ page, makeUser }) => {
  const member = await makeUser({ tier: 'complete' });
  await signInAs(page, member);
  await page.route(staffCheck, unavailable);
  await page.goto('/admin-upload');

  await expect(page.getByRole('heading', { name: "We couldn't check your access" })).toBeVisible();
  await page.unroute(staffCheck);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Staff only' })).toBeVisible();
  await expect(page.getByLabel('File', { exact: true })).toHaveCount(0);
});

test('a failed file listing says so on the card, and Try again lists the files', async ({ page, makeUser }) => {
  const user = await makeUser({ tier: 'ebook' });
  const errors = consoleErrors(page);
  await signInAs(page, user);
  await page.route(oneRead, unavailable);
  await page.route(fileListing, unavailable);
  await page.goto('/resources');

  // The tier loaded: the page is as it should be, only the card's list is missing.
  await expect(page.getByText('Current Tier: Ebook Only')).toBeVisible();
  const card = page.getByRole('article', { name: 'Yes, You Can! eBook' });
  const problem = card.getByRole('alert');
  await expect(problem).toContainText('Could not load the files');
  await expect(card.getByRole('link', { name: /^Download / })).toHaveCount(0);
  await expect.poll(() => errors.some((text) => text.includes('Could not load the files of ebook/'))).toBe(true);

  await page.unroute(fileListing);
  await problem.getByRole('button', { name: 'Try again' }).click();
  await expect(card.getByRole('link', { name: downloadLinkName('yes-you-can.pdf') })).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
});
