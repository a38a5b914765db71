import type { Page } from '@playwright/test';
import { e2eEnv } from './env';
import { expect, test } from './fixtures';

// The sign-in and /resources' one read each need a CORS preflight (supabase-js sends `apikey`
// and `Authorization`). The sign-in form asks both once the visitor is at it, so on Enter each
// call goes out at once (src/lib/preflight.ts, docs/decisions/091). The browser keeps a preflight's
// answer per address and header names: here the browser's own record of its preflights shows
// that the calls find the answers asked ahead, so the asked ahead ones are the calls' own.

const signInCall = `${e2eEnv.supabaseUrl}/auth/v1/token?grant_type=password`;
const readCall = `${e2eEnv.supabaseUrl}/rest/v1/rpc/member_resources`;

/** The address of every CORS preflight the page sends, as it happens (DevTools names their initiator). */
async function preflights(page: Page): Promise<string[]> {
  const seen: string[] = [];
  const session = await page.context().newCDPSession(page);
  session.on('Network.requestWillBeSent', (event) => {
    if (event.initiator.type === 'preflight') seen.push(event.request.url);
  });
  await session.send('Network.enable');
  return seen;
}

test('the sign-in form asks the sign-in’s and the files’ preflights while the member types, and Enter needs neither', async ({
  page,
  makeUser,
}) => {
  const user = await makeUser({ tier: 'foundation' });
  const asked = await preflights(page);
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  // A visitor who only looks at the form sends Supabase nothing.
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);

  await page.getByRole('textbox', { name: 'Email' }).click();
  await page.keyboard.type(user.email);
  await page.getByRole('tabpanel').getByLabel('Password', { exact: true }).click();
  await page.keyboard.type(user.password);
  await expect.poll(() => [...asked].sort()).toEqual([readCall, signInCall].sort());

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/resources$/);
  await expect(page.getByRole('link', { name: /^Download / }).first()).toBeVisible();
  // Both calls went out on the answers already kept: no second preflight for either.
  expect(asked.filter((url) => url === signInCall)).toHaveLength(1);
  expect(asked.filter((url) => url === readCall)).toHaveLength(1);
});
