import { expect, test } from '@playwright/test';
import { CHECKS } from '../scripts/checks/smoke.mjs';
import { e2eEnv } from './env';
import { runSmoke } from './smoke-run';

// `npm run smoke -- <site-url>` passes against the site the suite serves (vite preview
// of the production build, with its _headers and _redirects) and the project that build points
// at (the stand-in, or a `supabase start` stack). It reads the project and key from the site's JS.

test('npm run smoke passes every check against the local preview and its project', async ({ baseURL }) => {
  test.setTimeout(120_000);
  // Without the service-role key (the functions' secrets and the signed URL's range are asked in
  // e2e/smoke-faults.spec.ts, on stand-ins of their own: a `supabase start` project has no mail API
  // key, by design).
  const run = await runSmoke(baseURL!);
  expect(run.output).toContain(`→ project ${e2eEnv.supabaseUrl}`);
  expect(
    run.lines.filter((line) => !line.ok),
    run.output,
  ).toEqual([]);
  expect(run.lines).toHaveLength(CHECKS.length);
  expect(run.lines.filter((line) => line.skipped).map((line) => line.name)).toEqual([
    'each Edge Function has the secrets production needs',
    'a signed URL answers a range request with 206',
  ]);
  expect(run.code).toBe(0);
});
