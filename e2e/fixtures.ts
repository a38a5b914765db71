import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page, type Route } from '@playwright/test';
import { createClient, type RealtimeClientOptions } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import ws from 'ws';
import { AUTH_STORAGE_KEY } from '../src/config/auth-storage';
import type { Tier } from '../src/content/tiers';
import { e2eEnv } from './env';
import { fetchFrom, nextLoopbackAddress } from '../packages/supabase-stand-in/loopback-fetch.mjs';

/** The service-role client: test set-up only, never the browser. */
// Node 20 has no global WebSocket; supabase-js needs one handed in for its realtime client.
const nodeOptions = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: ws as RealtimeClientOptions['transport'] },
} as const;

export const admin = createClient(e2eEnv.supabaseUrl, e2eEnv.serviceRoleKey, nodeOptions);

/**
 * A caller of the test's own making (a second visitor, an attacker, a member's other device):
 * connections from a loopback address of its own, the address the auth server's per-IP limits
 * key on, so the suite's many sign-ins do not all count against the one machine that runs it.
 */
export function anonClient() {
  return createClient(e2eEnv.supabaseUrl, e2eEnv.anonKey, {
    ...nodeOptions,
    global: { fetch: fetchFrom(nextLoopbackAddress()) },
  });
}

export type TestUser = { id: string; email: string; password: string; displayName: string | null };
export type UserOptions = { tier?: Tier; staff?: boolean; displayName?: string };

async function createUser(options: UserOptions): Promise<TestUser> {
  const email = `e2e-${randomUUID()}@example.com`;
  const password = `pw-${randomUUID()}`;
  const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw new Error(`createUser failed: ${error?.message}`);
  const id = data.user.id;
  if (options.tier) {
    // The database derives user_tiers from purchases and staff grants (supabase/migrations/20261125000000_baseline.sql).
    const { error: tierError } = await admin
      .from('tier_grants')
      .insert({ user_id: id, tier: options.tier, reason: 'e2e fixture' });
    if (tierError) throw new Error(`tier grant failed: ${tierError.message}`);
  }
  if (options.staff) {
    const { error: staffError } = await admin.from('staff').insert({ user_id: id });
    if (staffError) throw new Error(`staff grant failed: ${staffError.message}`);
  }
  if (options.displayName) {
    // The database made the (empty) profile row when the user was created; name it.
    const { error: profileError } = await admin
      .from('profiles')
      .update({ display_name: options.displayName })
      .eq('user_id', id);
    if (profileError) throw new Error(`profile failed: ${profileError.message}`);
  }
  return { id, email, password, displayName: options.displayName ?? null };
}

/** Puts a real session for `user` into the page's localStorage before any script runs. */
export async function signInAs(page: Page, user: TestUser) {
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw new Error(`sign in failed: ${error?.message}`);
  await page.addInitScript(
    ([key, value]) => {
      // Once per tab: a later sign-out must not be undone by the next navigation.
      if (window.sessionStorage.getItem('e2e-session-seeded')) return;
      window.sessionStorage.setItem('e2e-session-seeded', '1');
      window.localStorage.setItem(key, value);
    },
    [AUTH_STORAGE_KEY, JSON.stringify(data.session)] as const,
  );
  return data.session;
}

/** Zero serious or critical accessibility violations on the page as it stands. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/**
 * `makeUser` creates a fresh account (with tier / staff / display name as asked) through the
 * admin API and deletes it when the test ends, so tests share nothing.
 */
export const test = base.extend<{ makeUser: (options?: UserOptions) => Promise<TestUser> }>({
  // Playwright requires the object pattern for fixture dependencies, even when empty.
  // eslint-disable-next-line no-empty-pattern
  makeUser: async ({}, use) => {
    const made: string[] = [];
    await use(async (options = {}) => {
      const user = await createUser(options);
      made.push(user.id);
      return user;
    });
    for (const id of made) await admin.auth.admin.deleteUser(id);
  },
});

export { expect };

/**
 * Waits until a prerendered page the app runs on (/auth, a member page's shell) has hydrated:
 * the app re-applies its head tags after the inlined CSS once React runs. Before that the
 * page is HTML only (tabs do not switch, typing is not yet in React's state), so a test that
 * interacts right after `goto` waits here. A first-time visitor's /auth starts the app on
 * their first action (src/boot/main.ts), so this acts first, with a key press that changes
 * nothing on the page; `{ act: false }` waits for a page that starts by itself (a stored
 * session, a link from an auth e-mail). The public pages are documents and never hydrate.
 */
export async function waitForHydration(page: Page, { act = true }: { act?: boolean } = {}) {
  if (act) {
    // Once the boot script listens (it has taken the head script's held input): a key pressed
    // before it runs starts nothing, as for a visitor, whose next action then does.
    await page.waitForFunction(() => !('__earlyInput' in window));
    await page.keyboard.press('Shift');
  }
  await expect(page.locator('head > style ~ [data-page-head]').first()).toBeAttached();
}

/**
 * Makes the page a browser without Speculation Rules (Safari, Firefox): the public pages put
 * none in force, and their links are plain navigations (src/document/speculation.ts).
 */
export async function withoutSpeculationRules(page: Page) {
  await page.addInitScript(() => {
    const supports = HTMLScriptElement.supports.bind(HTMLScriptElement);
    HTMLScriptElement.supports = (type: string) => type !== 'speculationrules' && supports(type);
  });
}

/** Holds the app's chunk until `release`, so a test can act on the page before the app runs. */
export async function holdTheApp(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/start-[^/]+\.js$/, (route) => (released ? route.continue() : held.push(route)));
  return {
    requested: () => held.length > 0,
    async release() {
      released = true;
      for (const route of held) await route.continue();
    },
  };
}
