// The smoke check (scripts/checks/smoke.mjs) fails a project whose auth server confirms
// e-mail addresses by itself, and passes the posture the repo's config.toml runs. The whole
// check, against a built site, runs in e2e/smoke.spec.ts and e2e/smoke-faults.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEMBER_TABLES,
  PUBLIC_TABLES,
  checkAuthSettings,
  checkFunctionSecrets,
  checkSignedUrlRange,
  checkWebhookRefusesUnsigned,
  RANGE_CHECK_OBJECT,
  functionSecrets,
  parseArgs,
  serviceKeyProblem,
} from '../../../scripts/checks/smoke.mjs';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../keys.mjs';
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

describe('npm run smoke: the functions’ secrets', () => {
  /** A JWT with these claims (the signature is not what is checked here). */
  const jwt = (claims: Record<string, unknown>) =>
    ['{"alg":"HS256"}', JSON.stringify(claims), 'sig'].map((part) => Buffer.from(part).toString('base64url')).join('.');
  const hosted = 'https://abcdefghijklmnopqrst.supabase.co';

  it('sends the key only to the project it belongs to, or to one on this machine', () => {
    expect(serviceKeyProblem(hosted, jwt({ role: 'service_role', ref: 'abcdefghijklmnopqrst' }))).toBeNull();
    expect(serviceKeyProblem('http://127.0.0.1:54321', SERVICE_ROLE_KEY)).toBeNull();
    expect(serviceKeyProblem(hosted, jwt({ role: 'service_role', ref: 'another' }))).toEqual({
      fail: true,
      why: "not sent: the key is project another's, the site's build points at abcdefghijklmnopqrst",
    });
    expect(serviceKeyProblem('https://api.example.com', jwt({ role: 'service_role', ref: 'x' }))).toMatchObject({
      fail: true,
      why: expect.stringMatching(/^not sent: https:\/\/api.example.com is not https:\/\/<ref>.supabase.co/),
    });
    expect(serviceKeyProblem(hosted, ANON_KEY)).toMatchObject({
      fail: true,
      why: expect.stringMatching(/has role anon, not service_role/),
    });
    expect(serviceKeyProblem(hosted, 'sb_secret_abc')).toMatchObject({ fail: true, why: expect.stringMatching(/sb_/) });
    expect(serviceKeyProblem(hosted, 'not-a-key')).toMatchObject({
      fail: true,
      why: expect.stringMatching(/not a JWT/),
    });
  });

  it('without the key: skipped, and for a hosted project that fails, saying how to give it', async () => {
    expect(serviceKeyProblem('http://127.0.0.1:54321', undefined)).toEqual({
      fail: false,
      why: "skipped: SUPABASE_SERVICE_ROLE_KEY is not set, so the functions' secrets were not read",
    });
    const nothingAsked = (async () => {
      throw new Error('nothing may be asked');
    }) as unknown as typeof fetch;
    const check = await checkFunctionSecrets({
      siteUrl: 'https://site.example',
      supabaseUrl: hosted,
      anonKey: ANON_KEY,
      scripts: [],
      fetch: nothingAsked,
    });
    expect(check).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^skipped: .* read -rs SUPABASE_SERVICE_ROLE_KEY/),
    });
    expect(check.skipped).toBeUndefined();
  });

  it('reads each function’s report from the stand-in, and says when the key is refused or the function is missing', async () => {
    for (const fn of ['purchase-webhook', 'account'])
      expect(await functionSecrets(fetch, on.url, SERVICE_ROLE_KEY, fn)).toMatchObject({ missing: [] });
    expect(await functionSecrets(fetch, on.url, ANON_KEY, 'purchase-webhook')).toEqual({
      problem: 'purchase-webhook refused the key (401): it is not the service_role key the function has',
    });
    expect(await functionSecrets(fetch, on.url, SERVICE_ROLE_KEY, 'no-such-function')).toEqual({
      problem:
        'no-such-function answered 404: deploy it, or redeploy it so it reports its secrets (supabase functions deploy no-such-function)',
    });
  });
});

describe('npm run smoke: a signed URL answers a range request with 206', () => {
  const target = (supabaseUrl: string, doFetch: typeof fetch = fetch, withKey = true) => ({
    siteUrl: 'https://site.example',
    supabaseUrl,
    anonKey: ANON_KEY,
    scripts: [],
    fetch: doFetch,
    ...(withKey ? { serviceRoleKey: SERVICE_ROLE_KEY } : {}),
  });
  const leftBehind = async () =>
    (
      await on.db.query(`select 1 from storage.objects where bucket_id = 'resources' and name = $1`, [
        RANGE_CHECK_OBJECT,
      ])
    ).rows.length;

  it('passes against the stand-in: 206, bytes 0-99 of the 4 KiB object, which it then deletes', async () => {
    expect(await checkSignedUrlRange(target(on.url))).toEqual({
      name: 'a signed URL answers a range request with 206',
      ok: true,
      detail: '206, Content-Range: bytes 0-99/4096, 100 bytes; test object deleted',
    });
    expect(await leftBehind()).toBe(0);
  });

  it('fails when the signed URL answers 200 (Range dropped on the way), saying what to fix, and still deletes', async () => {
    // A proxy in front of Storage that drops Range: the stand-in then answers the whole file, 200.
    const rangeDropped = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      if (String(input).includes('/object/sign/') && headers.has('range')) headers.delete('range');
      return fetch(input, { ...init, headers });
    }) as typeof fetch;
    const check = await checkSignedUrlRange(target(on.url, rangeDropped));
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(
      /^answered 200 with all 4096 bytes to Range: bytes=0-99, not 206: .*let Range through/,
    );
    expect(await leftBehind()).toBe(0);
  });

  it('without the key: skipped on this machine, a failure for a hosted project, nothing asked', async () => {
    const nothingAsked = (async () => {
      throw new Error('nothing may be asked');
    }) as unknown as typeof fetch;
    expect(await checkSignedUrlRange(target('http://127.0.0.1:54321', nothingAsked, false))).toMatchObject({
      ok: true,
      skipped: true,
      detail: "skipped: SUPABASE_SERVICE_ROLE_KEY is not set, so a signed URL's range request was not tried",
    });
    const hosted = await checkSignedUrlRange(target('https://abcdefghijklmnopqrst.supabase.co', nothingAsked, false));
    expect(hosted).toMatchObject({ ok: false, detail: expect.stringMatching(/not known ready without it: read -rs/) });
    expect(hosted.skipped).toBeUndefined();
  });
});
