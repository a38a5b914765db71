import { randomUUID } from 'node:crypto';
import { expect, test, waitForHydration } from './fixtures';
import { e2eEnv } from './env';

// The auth server's per-IP limits (packages/supabase-stand-in/auth/request-limits.mjs, as
// GoTrue's): past them the forms say how long to wait. Each test is a visitor at an address of
// its own (X-Forwarded-For, the header the limits read); the bucket refills continuously, so it
// is spent from Node while the visitor's own request is held, then that request goes on.

/** Spends what is left of one per-IP bucket from `address` (30 at most), until it answers 429. */
async function exhaust(path: string, body: Record<string, unknown>, address: string) {
  const statuses: number[] = [];
  for (let i = 0; i < 31 && statuses.at(-1) !== 429; i += 1) {
    const res = await fetch(`${e2eEnv.supabaseUrl}/auth/v1/${path}`, {
      method: 'POST',
      headers: { apikey: e2eEnv.anonKey, 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
    });
    statuses.push(res.status);
  }
  expect(statuses.at(-1)).toBe(429);
}

function addressOf(test: string) {
  const n = parseInt(randomUUID().slice(0, 4), 16);
  return `100.${test === 'token' ? 64 : 65}.${n >> 8}.${n & 255}`;
}

test('past the sign-in limit, the form says to wait', async ({ browser }) => {
  const address = addressOf('token');
  const visitor = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': address } });
  try {
    const page = await visitor.newPage();
    await page.route('**/auth/v1/token?grant_type=password', async (route) => {
      await exhaust('token?grant_type=password', { email: 'nobody@example.com', password: 'guess' }, address);
      await route.continue();
    });
    await page.goto('/auth');
    await waitForHydration(page);
    const form = page.getByRole('tabpanel', { name: 'Sign In' });
    await form.getByRole('textbox', { name: 'Email' }).fill('nobody@example.com');
    await form.getByLabel('Password', { exact: true }).fill('another-guess');
    await form.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Too many sign-in attempts from your network. Please wait a minute')).toBeVisible();
  } finally {
    await visitor.close();
  }
});

test('past the verification limit, the code form says to wait', async ({ browser }) => {
  const address = addressOf('verify');
  const visitor = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': address } });
  try {
    const page = await visitor.newPage();
    await page.route('**/auth/v1/verify', async (route) => {
      await exhaust('verify', { type: 'email', email: 'nobody@example.com', token: '000000' }, address);
      await route.continue();
    });
    await page.goto('/auth/confirm');
    await page.getByRole('textbox', { name: 'Email' }).fill('nobody@example.com');
    await page.getByRole('textbox', { name: '6-digit code' }).fill('123456');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('alert')).toContainText('Please wait a minute, then try again.');
  } finally {
    await visitor.close();
  }
});
