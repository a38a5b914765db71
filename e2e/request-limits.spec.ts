import type { Browser } from '@playwright/test';
import { expect, test, waitForHydration } from './fixtures';
import { e2eEnv } from './env';
import { visitorProxy } from './visitor-proxy';
import { nextLoopbackAddress } from '../packages/supabase-stand-in/loopback-fetch.mjs';

// The auth server's per-IP limits (packages/supabase-stand-in/auth/request-limits.mjs, as
// GoTrue's): past them the forms say how long to wait. Each test is a visitor at a loopback
// address of their own (the limits key on the connection's address): the browser context goes
// through a proxy that connects from it. The bucket refills continuously, so the proxy holds the
// visitor's own request while the test spends the bucket from the same address, over the same
// connection, then forwards the request right behind the last refusal.

type Visitor = Awaited<ReturnType<typeof visitorProxy>>;

/** Spends what is left of one per-IP bucket from the visitor's address (30 at most), until 429. */
async function exhaust(visitor: Visitor, path: string, body: Record<string, unknown>) {
  const statuses: number[] = [];
  for (let i = 0; i < 31 && statuses.at(-1) !== 429; i += 1) {
    const headers = { apikey: e2eEnv.anonKey, 'content-type': 'application/json' };
    statuses.push(await visitor.post(`${e2eEnv.supabaseUrl}/auth/v1/${path}`, headers, JSON.stringify(body)));
  }
  expect(statuses.at(-1)).toBe(429);
}

/** A browser context for a visitor at an address of their own, and what closes it. */
async function visitorAt(browser: Browser) {
  const proxy = await visitorProxy(nextLoopbackAddress());
  const context = await browser.newContext({ proxy: { server: proxy.server } });
  return {
    proxy,
    context,
    close: async () => {
      await context.close();
      await proxy.close();
    },
  };
}

test('past the sign-in limit, the form says to wait', async ({ browser }) => {
  const visitor = await visitorAt(browser);
  try {
    const page = await visitor.context.newPage();
    visitor.proxy.holdNext('/auth/v1/token', () =>
      exhaust(visitor.proxy, 'token?grant_type=password', { email: 'nobody@example.com', password: 'guess' }),
    );
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
  const visitor = await visitorAt(browser);
  try {
    const page = await visitor.context.newPage();
    visitor.proxy.holdNext('/auth/v1/verify', () =>
      exhaust(visitor.proxy, 'verify', { type: 'email', email: 'nobody@example.com', token: '000000' }),
    );
    await page.goto('/auth/confirm');
    await page.getByRole('textbox', { name: 'Email' }).fill('nobody@example.com');
    await page.getByRole('textbox', { name: '6-digit code' }).fill('123456');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('alert')).toContainText('Please wait a minute, then try again.');
  } finally {
    await visitor.close();
  }
});
