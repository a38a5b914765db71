// Issue 25: the smoke check (scripts/smoke.mjs) fails a project whose auth server confirms
// e-mail addresses by itself, and passes the posture the repo's config.toml runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs, runChecks } from '../../../scripts/smoke.mjs';
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

describe('npm run smoke', () => {
  it("passes the repo's posture: confirmations on", async () => {
    const [result] = await runChecks({ supabaseUrl: on.url, anonKey: ANON_KEY });
    expect(result).toEqual({ name: 'e-mail confirmations are on', ok: true, detail: 'mailer_autoconfirm: false' });
  });

  it('fails a project with confirmations off, and says what to do', async () => {
    const [result] = await runChecks({ supabaseUrl: `${off.url}/`, anonKey: ANON_KEY });
    expect(result?.ok).toBe(false);
    expect(result?.detail).toMatch(/^mailer_autoconfirm: true: turn "Confirm email" on/);
  });

  it('fails when the key is not the project’s, and when nothing answers', async () => {
    const [wrongKey] = await runChecks({ supabaseUrl: on.url, anonKey: 'not-a-key' });
    expect(wrongKey?.ok).toBe(false);
    expect(wrongKey?.detail).toMatch(/answered 401/);
    const [nobody] = await runChecks({ supabaseUrl: 'http://127.0.0.1:9', anonKey: ANON_KEY });
    expect(nobody?.ok).toBe(false);
    expect(nobody?.detail).toMatch(/did not answer/);
  });

  it('takes the project from flags, else from what the site was built with', () => {
    expect(parseArgs(['--supabase-url', 'https://a.supabase.co', '--anon-key', 'k'], {})).toEqual({
      supabaseUrl: 'https://a.supabase.co',
      anonKey: 'k',
    });
    expect(parseArgs([], { VITE_SUPABASE_URL: 'https://b.supabase.co', VITE_SUPABASE_ANON_KEY: 'j' })).toEqual({
      supabaseUrl: 'https://b.supabase.co',
      anonKey: 'j',
    });
    expect(() => parseArgs([], {})).toThrow(/--supabase-url/);
  });
});
