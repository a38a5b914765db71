// config.toml is read by the Supabase CLI, not by TypeScript, so this is the one place the
// module's URLs meet it: a change on either side without the other fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADDITIONAL_REDIRECT_URLS, SITE_URL } from './auth-urls.mjs';

describe('scripts/dev/auth-urls.mjs', () => {
  it('says what supabase/config.toml [auth] site_url and additional_redirect_urls say', () => {
    const toml = readFileSync(new URL('../../supabase/config.toml', import.meta.url), 'utf8');
    const section = /^\[auth\]\s*$([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? '';
    expect(/^site_url\s*=\s*"([^"]*)"/m.exec(section)?.[1]).toBe(SITE_URL);
    const list = /^additional_redirect_urls\s*=\s*\[([\s\S]*?)\]/m.exec(section)?.[1] ?? '';
    expect([...list.matchAll(/"([^"]*)"/g)].map((m) => m[1])).toEqual([...ADDITIONAL_REDIRECT_URLS]);
  });
});
