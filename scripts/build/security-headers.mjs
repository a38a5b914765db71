// @ts-check
// The production response headers: one source of truth for the static hosts' files that the
// build writes (dist/_headers and dist/_redirects for Netlify and Cloudflare Pages,
// dist/vercel.json for Vercel) and for `vite preview`, which the end-to-end suite runs, so a
// policy that breaks the app fails a test before it ships.
//
// Header files cannot read environment variables, so the Supabase origin is baked in at build
// time from VITE_SUPABASE_URL (see vite.config.ts).

/** Outside origins the app itself uses; keep in step with `src/content/site.ts`. */
export const VIDEO_PLAYER_ORIGIN = 'https://www.youtube-nocookie.com';
export const MARKETPLACE_SDK_ORIGIN = 'https://cdn.shopify.com';
/** Who may frame the site: the marketplace's admin (purchase buttons work in its frame; docs/decisions/009-purchase-buttons-are-links.md). */
export const MARKETPLACE_FRAME_ANCESTORS = ['https://admin.shopify.com', 'https://*.myshopify.com'];

/** Vite puts content-hashed files here; they never change under the same name. */
export const HASHED_ASSETS_PREFIX = '/assets/';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * The Supabase project's origin and its realtime (websocket) origin.
 * @param {string} supabaseUrl
 * @returns {{ http: string, ws: string }}
 */
export function supabaseOrigins(supabaseUrl) {
  const url = new URL(supabaseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`VITE_SUPABASE_URL must be http(s), got ${url.protocol}`);
  }
  return { http: url.origin, ws: `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}` };
}

/**
 * The Content-Security-Policy: the app's own files, the Supabase project (API, realtime,
 * storage images, signed downloads and the members' media), the video facade's player, and the marketplace SDK
 * that purchase buttons load inside a marketplace frame. No 'unsafe-eval', and no inline script
 * but those named by their hash (the early-input script, scripts/build/early-input.mjs).
 * @param {{ supabaseUrl: string, scriptHashes?: string[] }} options
 * @returns {string}
 */
export function contentSecurityPolicy({ supabaseUrl, scriptHashes = [] }) {
  const supabase = supabaseOrigins(supabaseUrl);
  /** @type {Record<string, string[]>} */
  const directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes, MARKETPLACE_SDK_ORIGIN],
    // Inline styles only: sonner (the toasts) injects a <style> element; scripts stay strict.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', supabase.http],
    'font-src': ["'self'"],
    'connect-src': ["'self'", supabase.http, supabase.ws],
    'frame-src': [VIDEO_PLAYER_ORIGIN],
    // The members' player: signed links to the project's storage, and a video's captions as a
    // local object URL.
    'media-src': ["'self'", 'blob:', supabase.http],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'self'", ...MARKETPLACE_FRAME_ANCESTORS],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * Header rules by path pattern (`/*` is every path, `/assets/*` a prefix). No header name
 * appears in two rules that match the same path: Netlify and Cloudflare Pages join such
 * values with commas, which would turn one Cache-Control into nonsense.
 * @param {{ supabaseUrl: string, scriptHashes?: string[] }} options
 * @returns {{ path: string, headers: Record<string, string> }[]}
 */
export function securityHeaders({ supabaseUrl, scriptHashes = [] }) {
  return [
    {
      path: '/*',
      headers: {
        'Content-Security-Policy': contentSecurityPolicy({ supabaseUrl, scriptHashes }),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'strict-origin-when-cross-origin',
        'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
      },
    },
    { path: `${HASHED_ASSETS_PREFIX}*`, headers: { 'Cache-Control': IMMUTABLE_CACHE } },
  ];
}

/**
 * Whether a rule's path pattern matches a request path.
 * @param {string} pattern
 * @param {string} pathname
 */
function matches(pattern, pathname) {
  return pattern.endsWith('*') ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern;
}

/**
 * The headers a request for `pathname` gets, as the static hosts would send them; pages (not
 * hashed assets) are revalidated on every load so a deploy is picked up at once.
 * @param {{ path: string, headers: Record<string, string> }[]} rules
 * @param {string} pathname
 * @returns {Record<string, string>}
 */
export function headersFor(rules, pathname) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const rule of rules) if (matches(rule.path, pathname)) Object.assign(headers, rule.headers);
  if (!headers['Cache-Control']) headers['Cache-Control'] = 'no-cache';
  return headers;
}

/**
 * Netlify / Cloudflare Pages `_headers`.
 * @param {{ path: string, headers: Record<string, string> }[]} rules
 */
export function toHeadersFile(rules) {
  return (
    rules
      .map((rule) => [rule.path, ...Object.entries(rule.headers).map(([k, v]) => `  ${k}: ${v}`)].join('\n'))
      .join('\n\n') + '\n'
  );
}

/**
 * The page every path without a file of its own gets: the app's empty shell (the client
 * renders the route). index.html is the prerendered landing page, so it cannot be that.
 */
export const SPA_SHELL = '/spa.html';

/**
 * Netlify / Cloudflare Pages `_redirects`: the SPA fallback. Existing files win, and both
 * hosts serve `/bundles` from the prerendered `bundles.html` themselves. A missing file under
 * /assets/ is a 404 first (the first matching rule wins), as vercel.json keeps it: a chunk gone
 * after a deploy must fail as a script, not arrive as the shell's HTML (`npm run smoke` checks it).
 */
export function toRedirectsFile() {
  return `${HASHED_ASSETS_PREFIX}*  /404.html  404\n/*  ${SPA_SHELL}  200\n`;
}

/**
 * Vercel's `vercel.json`: the same headers, clean URLs (`/bundles` is served from the
 * prerendered `bundles.html`), and the SPA fallback for every other path outside /assets/
 * (a chunk gone after a deploy stays a 404, which the app reloads on).
 * @param {{ path: string, headers: Record<string, string> }[]} rules
 */
export function toVercelJson(rules) {
  const config = {
    headers: rules.map((rule) => ({
      source: rule.path.endsWith('*') ? `${rule.path.slice(0, -1)}(.*)` : rule.path,
      headers: Object.entries(rule.headers).map(([key, value]) => ({ key, value })),
    })),
    cleanUrls: true,
    rewrites: [{ source: '/((?!assets/).*)', destination: SPA_SHELL }],
  };
  return JSON.stringify(config, null, 2) + '\n';
}
