// The smoke check (scripts/checks/smoke.mjs) fails a project whose auth server confirms
// e-mail addresses by itself, and passes the posture the repo's config.toml runs. The whole
// check, against a built site, runs in e2e/smoke.spec.ts and e2e/smoke-faults.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEMBER_TABLES,
  PUBLIC_TABLES,
  checkAuthSettings,
  checkWebhookRefusesUnsigned,
  parseArgs,
} from '../../../scripts/checks/smoke.mjs';
import { ANON_KEY } from '../keys.mjs';
import { startStandIn, type StandIn } from './helpers';

let on: StandIn;
let off: StandIn;
beforeAll(async () => {
  [on, off] = await Promise.all([
    startStandIn({ seedSampleFiles: false }),
    startStandIn({ seedSampleFiles: false, authConfig: { enableConfirmations: false } }),
  ]);
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

describe('npm run smoke: the auth check', () => {
  it("passes the repo's posture: e-mail sign-in and confirmations on", async () => {
    expect(await checkAuthSettings({ supabaseUrl: on.url, anonKey: ANON_KEY })).toEqual({
      name: 'auth answers, e-mail sign-in and confirmations on',
      ok: true,
      detail: 'external.email: true, mailer_autoconfirm: false',
    });
  });

  it('fails a project with confirmations off, and says what to do', async () => {
    const result = await checkAuthSettings({ supabaseUrl: `${off.url}/`, anonKey: ANON_KEY });
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(/^mailer_autoconfirm: true: turn "Confirm email" on/);
  });

  it('fails when the key is not the project’s, and when nothing answers', async () => {
    const wrongKey = await checkAuthSettings({ supabaseUrl: on.url, anonKey: 'not-a-key' });
    expect(wrongKey.ok).toBe(false);
    expect(wrongKey.detail).toMatch(/answered 401/);
    const nobody = await checkAuthSettings({ supabaseUrl: 'http://127.0.0.1:9', anonKey: ANON_KEY });
    expect(nobody.ok).toBe(false);
    expect(nobody.detail).toMatch(/did not answer/);
  });

  it('takes only the site URL: the project and its key come from the site’s own build', () => {
    expect(parseArgs(['https://app.example.com/some/page'])).toEqual({ siteUrl: 'https://app.example.com' });
    expect(() => parseArgs([])).toThrow(/usage: npm run smoke -- <site-url>/);
    expect(() => parseArgs(['--supabase-url', 'https://a.supabase.co'])).toThrow(/usage/);
    expect(() => parseArgs(['ftp://example.com'])).toThrow(/not an http/);
  });
});

describe('npm run smoke: the webhook check tells the function from the gateway', () => {
  // The hosted functions gateway cannot run here: these are its answers (a function deployed with
  // JWT verification, a function not deployed), as plain Responses.
  const answering = (status: number, body: unknown) =>
    (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;
  const target = (doFetch: typeof globalThis.fetch) => ({
    siteUrl: 'https://site.example',
    supabaseUrl: 'https://ref.supabase.co',
    anonKey: ANON_KEY,
    scripts: [],
    fetch: doFetch,
  });

  it('passes the function’s own 401, and fails the gateway’s 401 and 404', async () => {
    const own = await checkWebhookRefusesUnsigned(target(answering(401, { ok: false, error: 'signature missing' })));
    expect(own.ok).toBe(true);
    const gateway = await checkWebhookRefusesUnsigned(
      target(answering(401, { code: 401, message: 'Missing authorization header' })),
    );
    expect(gateway).toMatchObject({ ok: false, detail: expect.stringMatching(/--no-verify-jwt/) });
    const notDeployed = await checkWebhookRefusesUnsigned(
      target(answering(404, { code: 'NOT_FOUND', message: 'Requested function was not found' })),
    );
    expect(notDeployed).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/functions deploy purchase-webhook/),
    });
    const accepted = await checkWebhookRefusesUnsigned(target(answering(200, { ok: true })));
    expect(accepted.ok).toBe(false);
  });
});

describe('npm run smoke: the member tables', () => {
  it('asks about every table the migrations make, so a new one is checked from the day it ships', async () => {
    const { rows } = await on.db.query<{ relname: string }>(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by relname`,
    );
    expect([...MEMBER_TABLES, ...PUBLIC_TABLES].sort()).toEqual(rows.map((r) => r.relname));
  });
});
