import { defineConfig, devices } from '@playwright/test';
import { e2eEnv } from './e2e/env';
import { findChromium, launchOptions } from './scripts/dev/browser.mjs';
import { LOCAL_HOST, PREVIEW_PORT } from './scripts/dev/auth-urls.mjs';

/**
 * End-to-end tests: the built site (vite build + preview) against the local Supabase
 * stand-in, in Chromium: CHROMIUM_PATH, else Playwright's own, else the machine's
 * (scripts/dev/browser.mjs; `npm test` runs scripts/dev/ensure-browser.mjs first, which installs one
 * if there is none). Set SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY to run
 * the same suite against a `supabase start` stack instead.
 */
const chromium = findChromium();

const sitePort = Number(process.env.E2E_SITE_PORT ?? PREVIEW_PORT);
const siteUrl = `http://${LOCAL_HOST}:${sitePort}`;

const standIn = {
  command: `node packages/supabase-stand-in/server.mjs --port ${e2eEnv.standInPort} --data packages/supabase-stand-in/.data/e2e --reset`,
  url: `${e2eEnv.supabaseUrl}/auth/v1/health`,
  reuseExistingServer: false,
  timeout: 120_000,
  // Auth e-mails' links may lead back to this site (recovery, invitations): its origin is the
  // stand-in's site URL, so redirects to it are allowed, as on a configured project.
  env: { LOCAL_SUPABASE_SITE_URL: siteUrl },
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
};

const site = {
  command: `npx vite build --logLevel warn && npx vite preview --port ${sitePort} --strictPort`,
  url: siteUrl,
  reuseExistingServer: false,
  timeout: 180_000,
  env: { VITE_SUPABASE_URL: e2eEnv.supabaseUrl, VITE_SUPABASE_ANON_KEY: e2eEnv.anonKey },
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
};

export default defineConfig({
  testDir: 'e2e',
  // Seeds the sample files into a real stack; a no-op against the stand-in, which seeds itself.
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // A whole journey, with its accessibility scans (axe's source is evaluated afresh in each page
  // and frame, seconds apiece on a busy runner), can take half a minute: 60 s. A step that waits
  // for the app to boot, sign in and run the next page's loader can pass 10 s on a busy runner,
  // every chunk served slowly: 20 s. A lost action never arrives, however long the wait.
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: siteUrl,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: launchOptions(chromium),
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'] } }],
  webServer: e2eEnv.usingStandIn ? [standIn, site] : [site],
});
