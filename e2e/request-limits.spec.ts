import type { Browser } from '@playwright/test';
import { expect, test, waitForHydration } from './fixtures';
import { e2eEnv } from './env';
import { visitorProxy } from './visitor-proxy';
import { fetchFrom, nextLoopbackAddress } from '../packages/supabase-stand-in/loopback-fetch.mjs';

// The auth server's per-IP limits (packages/supabase-stand-in/auth/request-limits.mjs, as
// GoTrue's): past them the forms say how long to wait. Each test is a visitor at a loopback
// address of their own (the limits key on the connection's address): the browser context goes
// through a proxy that connects from it, and Node spends the bucket from the same address while
// the visitor's own request is held (the bucket refills continuously), then that request goes on.

/** Spends what is left of one per-IP bucket from `address` (30 at most), until it answers 429. */
async function exhaust(path: string, body: Record<string, unknown>, address: string) {
  const statuses: number[] = [];
  for (let i = 0; i < 31 && statuses.at(-1) !== 429; i += 1) {
    const res = await fetchFrom(address)(`${e2eEnv.supabaseUrl}/auth/v1/${path}`, {
      method: 'POST',
      headers: { apikey: e2eEnv.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    statuses.push(res.status);
  }
  expect(statuses.at(-1)).toBe(429);
}

/** A browser context for a visitor at `address`, and what closes it. */
async function visitorAt(browser: Browser, address: string) {
  const proxy = await visitorProxy(address);
  const context = await browser.newContext({ proxy: { server: proxy.server } });
  return {
    context,
    close: async () => {
      await context.close();
      await proxy.close();
    },
  };
}

test('past the sign-in limit, the form says to wait', async ({ browser }) => {
  const address = nextLoopbackAddress();
  const visitor = await visitorAt(browser, address);
  try {
    const page = await visitor.context.newPage();
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
  const address = nextLoopbackAddress();
  const visitor = await visitorAt(browser, address);
  try {
    const page = await visitor.context.newPage();
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
