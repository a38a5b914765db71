// `GET …/<function>/secrets` (secrets-route.ts): names and whether each is set, never a value,
// to the service-role key only; the account and download functions' lists.
import { describe, expect, it } from 'vitest';
import { sameSecret } from './same-secret.ts';
import {
  isSecretsRequest,
  PLATFORM_SECRETS,
  secretsReport,
  secretsResponse,
  withSecretsRoute,
  type SecretsSpec,
} from './secrets-route.ts';

const KEY = 'service-role-key';
const ENV = { SUPABASE_URL: 'http://kong:8000', SUPABASE_SERVICE_ROLE_KEY: KEY, SHOPIFY: 'shh', BLANK: '  ' };
const SPEC: SecretsSpec = {
  required: ['SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'MISSING', 'BLANK'],
  anyOf: [
    ['SHOPIFY', 'STRIPE'],
    ['A', 'B'],
  ],
  optional: ['EXTRA'],
};

const get = (path: string, bearer: string | null = KEY, method = 'GET') =>
  new Request(`http://functions.test/functions/v1/${path}`, {
    method,
    headers: bearer === null ? {} : { Authorization: `Bearer ${bearer}` },
  });

async function body(res: Response) {
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the secrets report', () => {
  it('names each secret and whether it is set (blank is not), and says what is missing', () => {
    expect(secretsReport('fn', SPEC, ENV)).toEqual({
      function: 'fn',
      required: { SUPABASE_URL: true, SUPABASE_SERVICE_ROLE_KEY: true, MISSING: false, BLANK: false },
      anyOf: [
        { SHOPIFY: true, STRIPE: false },
        { A: false, B: false },
      ],
      optional: { EXTRA: false },
      missing: ['MISSING', 'BLANK', 'A or B'],
    });
  });

  it('never carries a value', async () => {
    const res = await secretsResponse(get('fn/secrets'), 'fn', SPEC, ENV);
    const text = await res.text();
    for (const value of [KEY, 'shh', 'http://kong:8000']) expect(text).not.toContain(value);
  });
});

describe('the route', () => {
  it('answers the service-role key only: 401 for none, another key, or a longer one', async () => {
    expect(await body(await secretsResponse(get('fn/secrets'), 'fn', SPEC, ENV))).toMatchObject({
      status: 200,
      body: { function: 'fn', missing: ['MISSING', 'BLANK', 'A or B'] },
    });
    for (const bearer of [null, 'anon-key', `${KEY}x`, KEY.slice(0, -1)]) {
      expect(await body(await secretsResponse(get('fn/secrets', bearer), 'fn', SPEC, ENV))).toEqual({
        status: 401,
        body: { error: 'service_role_only', message: 'Only the service-role key may read this.' },
      });
    }
    // A function without the key configured answers nobody, an empty bearer included.
    const noKey = { ...ENV, SUPABASE_SERVICE_ROLE_KEY: '' };
    expect((await secretsResponse(get('fn/secrets', ''), 'fn', SPEC, noKey)).status).toBe(401);
  });

  it('takes GET only, is kept by no cache, and is only `…/secrets`', async () => {
    const post = await secretsResponse(get('fn/secrets', KEY, 'POST'), 'fn', SPEC, ENV);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    const ok = await secretsResponse(get('fn/secrets'), 'fn', SPEC, ENV);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();
    expect(isSecretsRequest(get('fn/secrets'))).toBe(true);
    expect(isSecretsRequest(get('fn/secrets/'))).toBe(true);
    expect(isSecretsRequest(get('fn/export'))).toBe(false);
    expect(isSecretsRequest(get('fn?path=secrets'))).toBe(false);
  });

  it('compares in constant time what it must', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', 'a')).toBe(false);
  });
});

describe('the account and download functions', () => {
  const platform = { SUPABASE_URL: 'http://kong:8000', SUPABASE_ANON_KEY: 'anon', SUPABASE_SERVICE_ROLE_KEY: KEY };
  const rest = async () => new Response('the function itself');

  for (const name of ['account', 'download'] as const) {
    it(`${name}: reports the platform's three values, and hands every other path to the function`, async () => {
      const handle = withSecretsRoute(name, PLATFORM_SECRETS, platform, rest);
      expect(await body(await handle(get(`${name}/secrets`)))).toEqual({
        status: 200,
        body: {
          function: name,
          required: { SUPABASE_URL: true, SUPABASE_ANON_KEY: true, SUPABASE_SERVICE_ROLE_KEY: true },
          anyOf: [],
          optional: {},
          missing: [],
        },
      });
      expect(await (await handle(get(name))).text()).toBe('the function itself');
      expect(await (await handle(get(`${name}/export`, null))).text()).toBe('the function itself');
    });
  }
});
