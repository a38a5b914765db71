import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  headersFor,
  securityHeaders,
  supabaseOrigins,
  toHeadersFile,
  toRedirectsFile,
  toVercelJson,
} from './security-headers.mjs';
import { parseHeadersFile } from './vite-security-headers.mjs';

const hosted = 'https://abc.supabase.co';

/** The policy as directive → sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split('; ').map((part) => {
      const [name = '', ...sources] = part.split(' ');
      return [name, sources];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  it('lets the app talk to the Supabase project over https and its realtime websocket', () => {
    const csp = directives(contentSecurityPolicy({ supabaseUrl: `${hosted}/` }));
    expect(csp['connect-src']).toEqual(["'self'", hosted, 'wss://abc.supabase.co']);
    expect(csp['img-src']).toContain(hosted);
  });

  it("lets the members' player read the project's signed media and its captions' object URL only", () => {
    const csp = directives(contentSecurityPolicy({ supabaseUrl: hosted }));
    expect(csp['media-src']).toEqual(["'self'", 'blob:', hosted]);
  });

  it('uses ws: for a local http project', () => {
    expect(supabaseOrigins('http://127.0.0.1:54321')).toEqual({
      http: 'http://127.0.0.1:54321',
      ws: 'ws://127.0.0.1:54321',
    });
  });

  it('never allows eval or inline scripts, plugins or foreign forms', () => {
    const csp = directives(contentSecurityPolicy({ supabaseUrl: hosted }));
    expect(Object.values(csp).flat()).not.toContain("'unsafe-eval'");
    expect(csp['script-src']).toEqual(["'self'", 'https://cdn.shopify.com']);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
  });

  it('allows an inline script only by its hash', () => {
    const hash = "'sha256-cKo1M/UwJMKO+nTeKDCC2MIQltP1HSqvNLp4STUleFg='";
    const csp = directives(contentSecurityPolicy({ supabaseUrl: hosted, scriptHashes: [hash] }));
    expect(csp['script-src']).toEqual(["'self'", hash, 'https://cdn.shopify.com']);
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
  });

  it('frames only the video player, and is framed only by the marketplace', () => {
    const csp = directives(contentSecurityPolicy({ supabaseUrl: hosted }));
    expect(csp['frame-src']).toEqual(['https://www.youtube-nocookie.com']);
    expect(csp['frame-ancestors']).toEqual(["'self'", 'https://admin.shopify.com', 'https://*.myshopify.com']);
  });

  it('refuses a Supabase URL that is not http(s)', () => {
    expect(() => contentSecurityPolicy({ supabaseUrl: 'ftp://abc.example' })).toThrow(/http\(s\)/);
  });
});

describe('the header files', () => {
  const rules = securityHeaders({ supabaseUrl: hosted });

  it('give pages the policy and no-cache, hashed assets a year of immutable caching', () => {
    const page = headersFor(rules, '/resources');
    expect(page['Content-Security-Policy']).toBe(contentSecurityPolicy({ supabaseUrl: hosted }));
    expect(page['X-Content-Type-Options']).toBe('nosniff');
    expect(page['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    expect(page['Cache-Control']).toBe('no-cache');
    const asset = headersFor(rules, '/assets/index-abc123.js');
    expect(asset['Cache-Control']).toBe('public, max-age=31536000, immutable');
    expect(asset['X-Content-Type-Options']).toBe('nosniff');
  });

  it('name no header twice for one path (hosts would join the values with commas)', () => {
    for (const path of ['/', '/assets/x.js']) {
      const names = rules
        .filter((r) => path.startsWith(r.path.replace(/\*$/, '')))
        .flatMap((r) => Object.keys(r.headers));
      expect(new Set(names).size).toBe(names.length);
    }
  });

  it('_headers reads back to the same rules (the preview server sends what it says)', () => {
    expect(parseHeadersFile(toHeadersFile(rules))).toEqual(rules);
  });

  it('_redirects and vercel.json fall back to the SPA shell (index.html is the prerendered landing page); vercel.json keeps missing chunks 404', () => {
    expect(toRedirectsFile()).toBe('/assets/*  /404.html  404\n/*  /spa.html  200\n');
    const vercel = JSON.parse(toVercelJson(rules)) as {
      headers: { source: string; headers: { key: string; value: string }[] }[];
      rewrites: { source: string; destination: string }[];
      cleanUrls: boolean;
    };
    // /bundles is served from the prerendered bundles.html, before any rewrite.
    expect(vercel.cleanUrls).toBe(true);
    expect(vercel.headers.map((h) => h.source)).toEqual(['/(.*)', '/assets/(.*)']);
    expect(vercel.headers[0]?.headers).toContainEqual({ key: 'X-Content-Type-Options', value: 'nosniff' });
    const [rewrite] = vercel.rewrites;
    expect(rewrite?.destination).toBe('/spa.html');
    const pattern = new RegExp(`^${rewrite?.source ?? ''}$`);
    expect(pattern.test('/resources')).toBe(true);
    expect(pattern.test('/assets/auth-abc.js')).toBe(false);
  });
});
