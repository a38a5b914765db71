import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error';
import { parseEnv } from './env';

const anonKey = 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.c2lnbmF0dXJl';

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
    expect(parseEnv({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'sb_publishable_abc' }))
      .toBeTruthy();
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
    expect(problemsOf({ VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'not a key' })[0]).toMatch(
      /VITE_SUPABASE_ANON_KEY must be the project’s anon/,
    );
  });
});
