#!/usr/bin/env node
// @ts-check
// `npm run smoke -- <site-url>`: checks a deployed site and its Supabase project from outside,
// as a visitor's browser reaches them, before a customer finds out what is wrong. It takes the
// project URL and the public key from the site's own built JavaScript (what every visitor gets),
// never from the command line, so it checks the project the build really points at. One line per
// check; exit 1 when any fails (2 when the site's build cannot be read at all).
//
//   npm run smoke -- https://app.yesyoucanbook.com
//
// It writes nothing anywhere, except that the avatars check tries one anonymous upload, which
// a correct project refuses, and that with the service-role key the range check uploads one
// 4 KiB object to the resources bucket (RANGE_CHECK_OBJECT) and deletes it again. The outgoing e-mail (SMTP) is not visible from outside: the auth
// server's public settings do not show it (GoTrue internal/api/settings.go); README, "Going live",
// says how to tell it works.
//
// With the project's service-role key in SUPABASE_SERVICE_ROLE_KEY (the environment, never an
// argument), it also asks each Edge Function which of its secrets are set (names only; `GET
// …/functions/v1/<function>/secrets`, supabase/functions/_shared/secrets-route.ts) and fails a
// project that lacks one production needs (the webhook's MAIL_API_KEY, MAIL_FROM, a signing
// secret), naming it; and it checks that a signed URL answers a range request with 206, as the
// members' audio and video players need. The key goes only to the project the site's build
// points at, and to a hosted one only when the key's own project ref is that project's. Without
// the key those checks say they were skipped and why; for a hosted project that is a failure: it
// is not known ready.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HASHED_ASSETS_PREFIX, supabaseOrigins } from '../build/security-headers.mjs';

/**
 * @typedef {{ name: string, ok: boolean, detail: string, skipped?: boolean }} CheckResult
 *   skipped: not run, and that is not a failure (printed `skip`).
 * @typedef {{ url: string, text: string }} Script
 * @typedef {{
 *   siteUrl: string,
 *   supabaseUrl: string,
 *   anonKey: string,
 *   scripts: Script[],
 *   fetch?: typeof fetch,
 *   serviceRoleKey?: string,
 * }} Target
 *   siteUrl: the site's origin. supabaseUrl, anonKey: what its build holds. scripts: its built JS.
 *   serviceRoleKey: SUPABASE_SERVICE_ROLE_KEY, for the functions' secrets.
 */

/**
 * The public pages, each with words only its own first HTML holds (the prerendered page, not
 * the empty app shell): the headings of src/app/routes' pages, as `vite build` prerenders them
 * (scripts/build/vite-prerender.mjs). Keep in step with the pages' copy in src/content/.
 */
export const PUBLIC_PAGES = Object.freeze([
  { path: '/', text: 'Finish Your Book in 90 Days' },
  { path: '/bundles', text: 'Compare Our Bundles' },
  { path: '/upgrade', text: 'Congratulations on Your Purchase!' },
  { path: '/privacy', text: 'What we keep' },
  { path: '/auth', text: 'Subscriber Access' },
]);

/**
 * Every table that holds a member's data (supabase/migrations): anon must read none of them,
 * whether refused (401/403), not exposed (404) or filtered by row-level security to nothing.
 */
export const MEMBER_TABLES = Object.freeze([
  'account_erasures',
  'benefit_audit',
  'buyer_invitations',
  'catalog_audit',
  'catalog_provider_ids',
  'coaching_adjustments',
  'coaching_allowances',
  'coaching_bookings',
  'coaching_private_notes',
  'download_log',
  'live_sessions',
  'media_progress',
  'member_benefits',
  'member_mail',
  'member_preferences',
  'owner_settings',
  'profiles',
  'purchase_campaigns',
  'purchases',
  'staff',
  'tier_audit',
  'tier_grants',
  'timed_benefits',
  'unmatched_sales',
  'unstampable_files',
  'user_tiers',
  'webhook_events',
]);

/**
 * The tables public pages read: anon may select only the columns the pages show (column grants,
 * proven per actor in supabase/tests/database/catalog.test.sql), so they are not member tables.
 */
export const PUBLIC_TABLES = Object.freeze(['catalog_products']);

/** The purchase webhook's providers (supabase/functions/purchase-webhook). */
export const WEBHOOK_PROVIDERS = Object.freeze(['shopify', 'stripe']);

/** The Edge Functions asked for their secrets (each serves `…/<function>/secrets`). */
export const SECRET_FUNCTIONS = Object.freeze(['purchase-webhook', 'booking-webhook', 'account', 'download', 'count']);

/** The environment variable the service-role key is read from. */
export const SERVICE_ROLE_KEY_ENV = 'SUPABASE_SERVICE_ROLE_KEY';

const trimSlash = (/** @type {string} */ url) => url.replace(/\/+$/, '');
const errorText = (/** @type {unknown} */ error) => (error instanceof Error ? error.message : String(error));
/** A path nothing serves: a fresh one each run, so no cache answers for it. */
const unlikelyName = () => `smoke-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Fetches, turning a network failure into a thrown Error that names the URL.
 * @param {typeof fetch} doFetch
 * @param {string} url
 * @param {RequestInit} [init]
 */
async function request(doFetch, url, init) {
  try {
    return await doFetch(url, { redirect: 'manual', ...init });
  } catch (error) {
    throw new Error(`${url} did not answer: ${errorText(error)}`);
  }
}

/** A JWT's payload, or null. @param {string} token @returns {Record<string, unknown> | null} */
function jwtPayload(token) {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

/** The `role` claim of a JWT, or undefined. @param {string} token */
function jwtRole(token) {
  const role = jwtPayload(token)?.role;
  return typeof role === 'string' ? role : undefined;
}

/**
 * The values a Vite build inlined for one variable (`VITE_X:"…"` in the env object it writes).
 * @param {string} text @param {string} name
 */
function inlinedValues(text, name) {
  const re = new RegExp(`${name}\\s*:\\s*(?:"([^"]*)"|'([^']*)'|\`([^\`$]*)\`)`, 'g');
  return [...text.matchAll(re)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/**
 * Reads the site's build from outside: its home page, every /assets/ script reachable from it,
 * and the Supabase URL and public key those scripts hold.
 * @param {string} siteUrl
 * @param {typeof fetch} [doFetch]
 * @returns {Promise<Target>}
 */
export async function readSiteBuild(siteUrl, doFetch = globalThis.fetch) {
  const origin = new URL(siteUrl).origin;
  const home = await request(doFetch, `${origin}/`);
  if (!home.ok) throw new Error(`${origin}/ answered ${home.status}`);
  const html = await home.text();
  /** @type {string[]} */
  const queue = [];
  const seen = new Set();
  const enqueue = (/** @type {string} */ name) => {
    const url = `${origin}${HASHED_ASSETS_PREFIX}${name}`;
    if (!seen.has(url)) {
      seen.add(url);
      queue.push(url);
    }
  };
  for (const m of html.matchAll(/(?:src|href)="\/assets\/([\w.-]+\.js)"/g)) enqueue(/** @type {string} */ (m[1]));
  /** @type {Script[]} */
  const scripts = [];
  while (queue.length && scripts.length < 500) {
    const url = /** @type {string} */ (queue.shift());
    const res = await request(doFetch, url);
    if (!res.ok) throw new Error(`${url}, a script the site names, answered ${res.status}`);
    const text = await res.text();
    scripts.push({ url, text });
    // Static imports ("./x.js"), dynamic imports and Vite's preload lists ("assets/x.js").
    for (const m of text.matchAll(/["'`](?:\.\/|\/?assets\/)([\w.-]+\.js)["'`]/g))
      enqueue(/** @type {string} */ (m[1]));
  }
  if (!scripts.length) throw new Error(`${origin}/ names no /assets/ script: is this the site's build?`);
  const all = scripts.map((s) => s.text).join('\n');
  const urls = [...new Set(inlinedValues(all, 'VITE_SUPABASE_URL'))];
  const keys = [...new Set(inlinedValues(all, 'VITE_SUPABASE_ANON_KEY'))];
  if (urls.length !== 1 || keys.length !== 1)
    throw new Error(
      `the site's scripts should hold one VITE_SUPABASE_URL and one VITE_SUPABASE_ANON_KEY, found ${urls.length} and ${keys.length}`,
    );
  return {
    siteUrl: origin,
    supabaseUrl: trimSlash(/** @type {string} */ (urls[0])),
    anonKey: /** @type {string} */ (keys[0]),
    scripts,
    fetch: doFetch,
  };
}

/** @param {string} name @param {boolean} ok @param {string} detail @returns {CheckResult} */
const result = (name, ok, detail) => ({ name, ok, detail });

/**
 * Runs `body`, turning a thrown error (a host that did not answer) into a failed check.
 * @param {string} name
 * @param {() => Promise<CheckResult>} body
 * @returns {Promise<CheckResult>}
 */
async function guarded(name, body) {
  try {
    return await body();
  } catch (error) {
    return result(name, false, errorText(error));
  }
}

/**
 * One check per public page: 200, HTML, with the page's own words in the first answer.
 * @param {{ path: string, text: string }} page
 */
export function checkPublicPage(page) {
  /** @param {Target} target */
  return function checkPage({ siteUrl, fetch: doFetch = globalThis.fetch }) {
    const name = `public page ${page.path} answers with its own text`;
    return guarded(name, async () => {
      const res = await request(doFetch, `${siteUrl}${page.path}`);
      if (res.status !== 200) return result(name, false, `answered ${res.status}`);
      const html = await res.text();
      if (!html.includes(page.text))
        return result(name, false, `its HTML lacks "${page.text}": served the app shell, or an old build?`);
      return result(name, true, `200, "${page.text}"`);
    });
  };
}

/**
 * An unknown path gets the app shell (200, the root element and the app's script), so a link into
 * the app works however it was reached.
 * @param {Target} target
 */
export function checkUnknownPathShell({ siteUrl, fetch: doFetch = globalThis.fetch }) {
  const name = 'an unknown path gets the app shell';
  return guarded(name, async () => {
    const url = `${siteUrl}/${unlikelyName()}`;
    const res = await request(doFetch, url);
    const html = res.status === 200 ? await res.text() : '';
    const ok = res.status === 200 && html.includes('id="root"') && /<script type="module"[^>]+\/assets\//.test(html);
    return result(
      name,
      ok,
      ok
        ? '200, the shell'
        : `answered ${res.status}${html ? ' without the shell' : ''}: is the fallback to spa.html deployed?`,
    );
  });
}

/**
 * A missing /assets/ file is a 404, not the app shell: after a deploy, a browser holding an old
 * page gets a clean failure for a chunk that is gone (and reloads), not HTML as JavaScript.
 * @param {Target} target
 */
export function checkMissingAsset404({ siteUrl, fetch: doFetch = globalThis.fetch }) {
  const name = 'a missing /assets/ file is a 404';
  return guarded(name, async () => {
    const res = await request(doFetch, `${siteUrl}${HASHED_ASSETS_PREFIX}${unlikelyName()}.js`);
    return result(name, res.status === 404, `answered ${res.status}`);
  });
}

/**
 * The Content-Security-Policy's connect-src names the project the build points at (its https
 * and websocket origins), or every request the app makes to it is blocked.
 * @param {Target} target
 */
export function checkCspNamesProject({ siteUrl, supabaseUrl, fetch: doFetch = globalThis.fetch }) {
  const name = "the CSP's connect-src names the build's project";
  return guarded(name, async () => {
    const res = await request(doFetch, `${siteUrl}/`);
    const csp = res.headers.get('content-security-policy');
    if (!csp) return result(name, false, 'no Content-Security-Policy header');
    const connect = csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([directive]) => directive === 'connect-src');
    const { http, ws } = supabaseOrigins(supabaseUrl);
    const missing = [http, ws].filter((origin) => !connect?.includes(origin));
    if (missing.length)
      return result(
        name,
        false,
        `connect-src lacks ${missing.join(' and ')} (has: ${connect?.slice(1).join(' ') ?? 'no connect-src'}): rebuild and redeploy the headers`,
      );
    return result(name, true, `${http} ${ws}`);
  });
}

/** @param {Target} target */
export function checkNosniff({ siteUrl, fetch: doFetch = globalThis.fetch }) {
  const name = 'X-Content-Type-Options is nosniff';
  return guarded(name, async () => {
    const value = (await request(doFetch, `${siteUrl}/`)).headers.get('x-content-type-options');
    return result(name, value?.toLowerCase() === 'nosniff', `X-Content-Type-Options: ${value ?? '(none)'}`);
  });
}

/**
 * The hashed files under /assets/ are cached for a year, immutable: the app's scripts load from
 * the phone's cache on the next visit.
 * @param {Target} target
 */
export function checkImmutableAssets({ scripts, fetch: doFetch = globalThis.fetch }) {
  const name = '/assets/ files are cached immutable';
  return guarded(name, async () => {
    const first = scripts[0];
    if (!first) return result(name, false, 'no /assets/ script to ask');
    const value = (await request(doFetch, first.url)).headers.get('cache-control') ?? '';
    const ok = /\bimmutable\b/.test(value) && /\bmax-age=31536000\b/.test(value);
    return result(name, ok, `${new URL(first.url).pathname}: Cache-Control: ${value || '(none)'}`);
  });
}

/**
 * The project's auth server answers the site's key, with e-mail sign-in on and e-mail
 * confirmations on (`mailer_autoconfirm: false`): with them off, whoever signs up first with a
 * buyer's address gets the buyer's account (docs/database.md).
 * @param {Pick<Target, 'supabaseUrl' | 'anonKey' | 'fetch'>} target
 */
export async function checkAuthSettings({ supabaseUrl, anonKey, fetch: doFetch = globalThis.fetch }) {
  const name = 'auth answers, e-mail sign-in and confirmations on';
  return guarded(name, async () => {
    const url = `${trimSlash(supabaseUrl)}/auth/v1/settings`;
    const res = await request(doFetch, url, { headers: { apikey: anonKey } });
    if (!res.ok) return result(name, false, `${url} answered ${res.status}: is the key this project's?`);
    const settings = /** @type {{ external?: { email?: unknown }, mailer_autoconfirm?: unknown }} */ (await res.json());
    if (settings.external?.email !== true)
      return result(name, false, 'e-mail sign-in is off: turn on the Email provider (Auth → Sign In / Providers)');
    if (settings.mailer_autoconfirm !== false)
      return result(
        name,
        false,
        `mailer_autoconfirm: ${JSON.stringify(settings.mailer_autoconfirm)}: turn "Confirm email" on (supabase config push, or Auth → Sign In / Providers → Email); with it off, whoever signs up first with a buyer's address gets their account (docs/database.md)`,
      );
    return result(name, true, 'external.email: true, mailer_autoconfirm: false');
  });
}

/** The headers anon sends, as supabase-js does. @param {string} anonKey */
const anonHeaders = (anonKey) => ({
  apikey: anonKey,
  ...(anonKey.startsWith('sb_') ? {} : { authorization: `Bearer ${anonKey}` }),
});

/**
 * Whether a bucket is public, asked as Storage's public object-info route answers anyone (storage
 * src/http/routes/object/getObjectInfo.ts: a public route, never authenticated) for a name nothing
 * has: a bucket that is not public is "Bucket not found", a public one "Object not found". Both
 * are HTTP 400 on hosted Storage, so the answer's words tell them apart.
 * @param {typeof fetch} doFetch @param {string} supabaseUrl @param {string} anonKey @param {string} bucket
 * @returns {Promise<'private' | 'public' | string>}
 */
async function bucketVisibility(doFetch, supabaseUrl, anonKey, bucket) {
  const res = await request(doFetch, `${supabaseUrl}/storage/v1/object/info/public/${bucket}/${unlikelyName()}.pdf`, {
    headers: { apikey: anonKey },
  });
  const text = await res.text();
  if (res.ok) return `answered ${res.status} for an object that should not exist`;
  if (/Bucket not found/.test(text)) return 'private';
  if (/Object not found/.test(text)) return 'public';
  return `answered ${res.status} ${text.slice(0, 120)}`;
}

/**
 * What anon's listing of a bucket shows: an error or nothing passes.
 * @param {typeof fetch} doFetch @param {string} supabaseUrl @param {string} anonKey @param {string} bucket
 */
async function anonListing(doFetch, supabaseUrl, anonKey, bucket) {
  const res = await request(doFetch, `${supabaseUrl}/storage/v1/object/list/${bucket}`, {
    method: 'POST',
    headers: { ...anonHeaders(anonKey), 'content-type': 'application/json' },
    body: JSON.stringify({ prefix: '', limit: 10 }),
  });
  const body = res.ok ? /** @type {unknown} */ (await res.json()) : null;
  return Array.isArray(body) && body.length ? `lists ${body.length}+ entries` : null;
}

/**
 * The members' files stay private: anon cannot list `resources`, and its public route refuses.
 * @param {Target} target
 */
export function checkResourcesPrivate({ supabaseUrl, anonKey, fetch: doFetch = globalThis.fetch }) {
  const name = 'anon cannot list or read the resources bucket';
  return guarded(name, async () => {
    const listed = await anonListing(doFetch, supabaseUrl, anonKey, 'resources');
    if (listed) return result(name, false, `anon's listing ${listed}: a storage policy lets anon see members' files`);
    const visibility = await bucketVisibility(doFetch, supabaseUrl, anonKey, 'resources');
    if (visibility !== 'private')
      return result(
        name,
        false,
        visibility === 'public'
          ? 'resources is a public bucket: anyone with a file name downloads it (Storage → resources → make private)'
          : `its public route ${visibility}`,
      );
    return result(name, true, 'listing empty, public route refused');
  });
}

/**
 * anon reads none of the member tables.
 * @param {Target} target
 */
export function checkMemberTablesClosed({ supabaseUrl, anonKey, fetch: doFetch = globalThis.fetch }) {
  const name = 'anon reads no member table';
  return guarded(name, async () => {
    /** @type {string[]} */
    const open = [];
    for (const table of MEMBER_TABLES) {
      const res = await request(doFetch, `${supabaseUrl}/rest/v1/${table}?select=*&limit=1`, {
        headers: anonHeaders(anonKey),
      });
      if (res.status === 401 || res.status === 403 || res.status === 404) continue;
      const body = res.ok ? /** @type {unknown} */ (await res.json()) : null;
      if (res.ok && Array.isArray(body) && body.length === 0) continue;
      open.push(`${table} (${res.status}${Array.isArray(body) ? `, ${body.length} row` : ''})`);
    }
    return open.length
      ? result(name, false, `anon gets rows or an unexpected answer from ${open.join(', ')}`)
      : result(name, true, MEMBER_TABLES.join(', '));
  });
}

/**
 * avatars serves public reads only: its public route works, anon lists nothing and cannot upload.
 * @param {Target} target
 */
export function checkAvatarsPublicReadOnly({ supabaseUrl, anonKey, fetch: doFetch = globalThis.fetch }) {
  const name = 'avatars serves public reads only';
  return guarded(name, async () => {
    const visibility = await bucketVisibility(doFetch, supabaseUrl, anonKey, 'avatars');
    if (visibility !== 'public')
      return result(
        name,
        false,
        `its public route: ${visibility === 'private' ? 'refused (the bucket is private; members’ pictures will not show)' : visibility}`,
      );
    const listed = await anonListing(doFetch, supabaseUrl, anonKey, 'avatars');
    if (listed) return result(name, false, `anon's listing ${listed}`);
    const upload = await request(doFetch, `${supabaseUrl}/storage/v1/object/avatars/${unlikelyName()}/avatar.png`, {
      method: 'POST',
      headers: { ...anonHeaders(anonKey), 'content-type': 'image/png' },
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    });
    if (upload.ok)
      return result(name, false, `anon uploaded to avatars (${upload.status}): an insert policy lets anon write`);
    return result(name, true, `public reads; anon listing empty; anon upload refused (${upload.status})`);
  });
}

/**
 * The purchase webhook refuses an unsigned request: 401 from each provider that is on (404 from
 * one that is off), and at least one on. A 2xx would grant tiers to anyone; a 5xx means the
 * function cannot run (a missing secret stops it: supabase secrets set).
 * @param {Target} target
 */
export function checkWebhookRefusesUnsigned({ supabaseUrl, fetch: doFetch = globalThis.fetch }) {
  const name = 'the purchase webhook refuses an unsigned request';
  return guarded(name, async () => {
    /** @type {string[]} */
    const answers = [];
    let refused = 0;
    let bad = false;
    let gateway = false;
    let missing = false;
    for (const provider of WEBHOOK_PROVIDERS) {
      const res = await request(doFetch, `${supabaseUrl}/functions/v1/purchase-webhook/${provider}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const body = /** @type {{ ok?: unknown } | null} */ (await res.json().catch(() => null));
      answers.push(`${provider} ${res.status}`);
      // The function's own refusal is `{ ok: false, error }`; a 401 without it is the gateway's
      // (deployed without --no-verify-jwt), which refuses the checkout's signed calls as well.
      if (res.status === 401 && body?.ok === false) refused++;
      else if (res.status === 401) gateway = true;
      else if (res.status === 404 && body?.ok !== false) missing = true;
      else if (res.status !== 404) bad = true;
    }
    const detail = answers.join(', ');
    if (missing)
      return result(
        name,
        false,
        `${detail}, not from the function: deploy it (supabase functions deploy purchase-webhook)`,
      );
    if (gateway)
      return result(
        name,
        false,
        `${detail}, not from the function: redeploy with --no-verify-jwt (checkouts send no Supabase token)`,
      );
    if (bad)
      return result(
        name,
        false,
        `${detail}: deployed with --no-verify-jwt, and its secrets set (supabase secrets set)?`,
      );
    if (!refused)
      return result(name, false, `${detail}: no provider is on; set SHOPIFY_WEBHOOK_SECRET or STRIPE_WEBHOOK_SECRET`);
    return result(name, true, detail);
  });
}

/** A host on this machine (the stand-in, a `supabase start` stack). @param {string} host */
const onLoopback = (host) => host === 'localhost' || host.startsWith('127.') || host === '[::1]';

/**
 * Whether the service-role key may be sent to the project the build points at: the key's own
 * project (its `ref` claim) must be that project (`https://<ref>.supabase.co`), or the project
 * must be on this machine. Null: send it; else why not, and whether that fails the check.
 * @param {string} supabaseUrl @param {string | undefined} key
 * @param {{ notDone: string, without: string }} [skipped]  what the check did not do without the
 *   key, and what a hosted project is not known ready without
 * @returns {{ fail: boolean, why: string } | null}
 */
export function serviceKeyProblem(
  supabaseUrl,
  key,
  skipped = { notDone: "the functions' secrets were not read", without: 'them' },
) {
  const url = new URL(supabaseUrl);
  const local = onLoopback(url.hostname);
  if (!key) {
    const set = `read -rs ${SERVICE_ROLE_KEY_ENV} && export ${SERVICE_ROLE_KEY_ENV} (paste the service_role key from Settings → API Keys; kept out of your shell history)`;
    return local
      ? { fail: false, why: `skipped: ${SERVICE_ROLE_KEY_ENV} is not set, so ${skipped.notDone}` }
      : {
          fail: true,
          why: `skipped: ${SERVICE_ROLE_KEY_ENV} is not set, so ${skipped.notDone}, and a hosted project is not known ready without ${skipped.without}: ${set}, then run again`,
        };
  }
  if (key.startsWith('sb_'))
    return {
      fail: true,
      why: `${SERVICE_ROLE_KEY_ENV} is an API key (sb_…), not sent: the functions compare with the service_role JWT they are given (Settings → API Keys → Legacy API keys → service_role)`,
    };
  const payload = jwtPayload(key);
  if (payload?.role !== 'service_role')
    return {
      fail: true,
      why: `${SERVICE_ROLE_KEY_ENV} ${payload ? `has role ${String(payload.role)}` : 'is not a JWT'}, not service_role: not sent`,
    };
  if (local) return null;
  const ref = /^([a-z0-9]+)\.supabase\.(?:co|in)$/.exec(url.hostname)?.[1];
  if (url.protocol !== 'https:' || !ref)
    return {
      fail: true,
      why: `not sent: ${url.origin} is not https://<ref>.supabase.co, so the key's project cannot be matched to it`,
    };
  if (payload.ref !== ref)
    return {
      fail: true,
      why: `not sent: the key is project ${String(payload.ref ?? '(none)')}'s, the site's build points at ${ref}`,
    };
  return null;
}

/**
 * One function's secrets report, or why there is none.
 * @param {typeof fetch} doFetch @param {string} supabaseUrl @param {string} key @param {string} fn
 * @returns {Promise<{ missing: string[], unsetOptional: string[] } | { problem: string }>}
 */
export async function functionSecrets(doFetch, supabaseUrl, key, fn) {
  const res = await request(doFetch, `${supabaseUrl}/functions/v1/${fn}/secrets`, {
    headers: { authorization: `Bearer ${key}`, apikey: key },
  });
  const body = /** @type {{ missing?: unknown, optional?: unknown, error?: unknown } | null} */ (
    await res.json().catch(() => null)
  );
  if (res.ok && Array.isArray(body?.missing)) {
    const optional = body.optional && typeof body.optional === 'object' ? Object.entries(body.optional) : [];
    return {
      missing: body.missing.map(String),
      unsetOptional: optional.filter(([, set]) => set !== true).map(([name]) => name),
    };
  }
  if (res.status === 401 && body?.error === 'service_role_only')
    return { problem: `${fn} refused the key (401): it is not the service_role key the function has` };
  if (res.status === 404)
    return {
      problem: `${fn} answered 404: deploy it, or redeploy it so it reports its secrets (supabase functions deploy ${fn})`,
    };
  return { problem: `${fn} answered ${res.status}: is it deployed?` };
}

/**
 * Each Edge Function has the secrets production needs: asked with the service-role key (see
 * serviceKeyProblem for where it may go), each names what it lacks.
 * @param {Target} target
 */
export function checkFunctionSecrets({ supabaseUrl, serviceRoleKey, fetch: doFetch = globalThis.fetch }) {
  const name = 'each Edge Function has the secrets production needs';
  return guarded(name, async () => {
    const problem = serviceKeyProblem(supabaseUrl, serviceRoleKey);
    if (problem) return { ...result(name, !problem.fail, problem.why), ...(problem.fail ? {} : { skipped: true }) };
    /** @type {string[]} */
    const wrong = [];
    /** @type {string[]} */
    const fine = [];
    for (const fn of SECRET_FUNCTIONS) {
      const report = await functionSecrets(doFetch, supabaseUrl, /** @type {string} */ (serviceRoleKey), fn);
      if ('problem' in report) wrong.push(report.problem);
      else if (report.missing.length)
        wrong.push(
          `${fn} lacks ${report.missing.join(', ')}${report.missing.includes('MAIL_API_KEY') ? ' (without it invitations go through Auth and its hourly e-mail budget)' : ''}`,
        );
      else
        fine.push(
          `${fn}${report.unsetOptional.length ? ` (optional, not set: ${report.unsetOptional.join(', ')})` : ''}`,
        );
    }
    if (wrong.length)
      return result(name, false, `${wrong.join('; ')}: supabase secrets set NAME=… (README, "Going live", step 4)`);
    return result(name, true, `all set: ${fine.join(', ')}`);
  });
}

/**
 * The object the range check writes, then deletes: a path the resources bucket's rules take
 * (public.resource_path_tier: {tier}/{slug}/{file.mp3}; audio/mpeg is an allowed type).
 */
export const RANGE_CHECK_OBJECT = 'ebook/smoke-check/range-check.mp3';
/** Its size: a few kB, far from any limit. */
const RANGE_CHECK_SIZE = 4096;
/** The range asked for, and what a correct answer says of it. */
const RANGE_ASKED = 'bytes=0-99';

/**
 * What the range check writes and the signed URL of it answers for its first 100 bytes.
 * @param {Response} res @param {Uint8Array} sent
 * @returns {Promise<string | null>} what is wrong, or null
 */
async function rangeAnswerProblem(res, sent) {
  const body = new Uint8Array(await res.arrayBuffer());
  if (res.status === 200)
    return `answered 200 with all ${body.length} bytes to Range: ${RANGE_ASKED}, not 206: something in front of Storage (a proxy, a custom domain's CDN) drops Range, so Safari will not play the members' audio and video and no player can seek; let Range through to Storage`;
  if (res.status !== 206) return `answered ${res.status} to Range: ${RANGE_ASKED}, not 206`;
  const contentRange = res.headers.get('content-range');
  const expected = `bytes 0-99/${sent.length}`;
  if (contentRange !== expected) return `206, but Content-Range: ${contentRange ?? '(none)'}, not ${expected}`;
  if (body.length !== 100 || body.some((b, i) => b !== sent[i]))
    return `206, but ${body.length} bytes${body.length === 100 ? ' that are not the first 100 of the object' : ', not 100'}`;
  return null;
}

/**
 * A signed URL answers a range request with 206 (members' players seek and Safari plays media by
 * ranges; the download function's `?play=1` hands out such URLs): with the service-role key,
 * uploads RANGE_CHECK_OBJECT (4 KiB, audio/mpeg), signs it for 60 s, asks for its first 100
 * bytes, then deletes it.
 * @param {Target} target
 */
export function checkSignedUrlRange({ supabaseUrl, serviceRoleKey, fetch: doFetch = globalThis.fetch }) {
  const name = 'a signed URL answers a range request with 206';
  return guarded(name, async () => {
    const problem = serviceKeyProblem(supabaseUrl, serviceRoleKey, {
      notDone: "a signed URL's range request was not tried",
      without: 'it',
    });
    if (problem) return { ...result(name, !problem.fail, problem.why), ...(problem.fail ? {} : { skipped: true }) };
    const key = /** @type {string} */ (serviceRoleKey);
    const headers = { authorization: `Bearer ${key}`, apikey: key };
    const objectUrl = `${supabaseUrl}/storage/v1/object/resources/${RANGE_CHECK_OBJECT}`;
    const sent = Uint8Array.from({ length: RANGE_CHECK_SIZE }, (_, i) => i % 251);
    const upload = await request(doFetch, objectUrl, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'audio/mpeg', 'x-upsert': 'true' },
      body: sent,
    });
    if (!upload.ok)
      return result(
        name,
        false,
        `uploading resources/${RANGE_CHECK_OBJECT} answered ${upload.status} ${(await upload.text()).slice(0, 160)}: are the migrations pushed (supabase db push)?`,
      );
    let wrong;
    try {
      wrong = await signedRangeProblem(doFetch, supabaseUrl, headers, sent);
    } finally {
      const removed = await request(doFetch, objectUrl, { method: 'DELETE', headers });
      if (!removed.ok)
        wrong = `${wrong ? `${wrong}; ` : ''}deleting resources/${RANGE_CHECK_OBJECT} answered ${removed.status}: delete it in Storage`;
    }
    return wrong
      ? result(name, false, wrong)
      : result(name, true, `206, Content-Range: bytes 0-99/${RANGE_CHECK_SIZE}, 100 bytes; test object deleted`);
  });
}

/**
 * Signs RANGE_CHECK_OBJECT for 60 s and asks its signed URL for the first 100 bytes.
 * @param {typeof fetch} doFetch @param {string} supabaseUrl @param {Record<string, string>} headers
 * @param {Uint8Array} sent
 * @returns {Promise<string | null>} what is wrong, or null
 */
async function signedRangeProblem(doFetch, supabaseUrl, headers, sent) {
  const sign = await request(doFetch, `${supabaseUrl}/storage/v1/object/sign/resources/${RANGE_CHECK_OBJECT}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ expiresIn: 60 }),
  });
  const signed = /** @type {{ signedURL?: unknown } | null} */ (await sign.json().catch(() => null));
  if (!sign.ok || typeof signed?.signedURL !== 'string') return `signing it answered ${sign.status}`;
  const res = await request(doFetch, `${supabaseUrl}/storage/v1${signed.signedURL}`, {
    headers: { range: RANGE_ASKED },
  });
  return rangeAnswerProblem(res, sent);
}

/**
 * The built JS holds no key but the public one: no service-role JWT, no sb_secret_ key, no
 * other project's key.
 * @param {Target} target
 */
export async function checkOnlyPublicKey({ anonKey, scripts }) {
  const name = 'the built JS holds only the public key';
  const role = anonKey.startsWith('sb_')
    ? anonKey.startsWith('sb_publishable_')
      ? 'publishable'
      : 'secret'
    : jwtRole(anonKey);
  if (role !== 'anon' && role !== 'publishable')
    return result(
      name,
      false,
      `VITE_SUPABASE_ANON_KEY is a ${role ?? 'unknown'} key: rebuild with the anon or publishable key`,
    );
  /** @type {string[]} */
  const others = [];
  for (const { url, text } of scripts) {
    for (const m of text.matchAll(/eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{16,}|sb_(?:secret|publishable)_[\w-]{8,}/g)) {
      const key = m[0];
      if (key === anonKey) continue;
      const kind = key.startsWith('sb_') ? key.slice(0, key.indexOf('_', 3)) : `JWT role ${jwtRole(key) ?? '?'}`;
      others.push(`${kind} in ${new URL(url).pathname}`);
    }
  }
  return others.length
    ? result(name, false, `also: ${[...new Set(others)].join(', ')}`)
    : result(name, true, `${role} key only, ${scripts.length} scripts read`);
}

/** Every check, in order. @type {((target: Target) => Promise<CheckResult>)[]} */
export const CHECKS = [
  ...PUBLIC_PAGES.map(checkPublicPage),
  checkUnknownPathShell,
  checkMissingAsset404,
  checkCspNamesProject,
  checkNosniff,
  checkImmutableAssets,
  checkAuthSettings,
  checkResourcesPrivate,
  checkMemberTablesClosed,
  checkAvatarsPublicReadOnly,
  checkWebhookRefusesUnsigned,
  checkFunctionSecrets,
  checkSignedUrlRange,
  checkOnlyPublicKey,
];

/**
 * Runs every check against `target`, one after another.
 * @param {Target} target
 * @returns {Promise<CheckResult[]>}
 */
export async function runChecks(target) {
  const results = [];
  for (const check of CHECKS) results.push(await check(target));
  return results;
}

/**
 * The site's URL: the one argument.
 * @param {string[]} argv
 */
export function parseArgs(argv) {
  const [siteUrl, ...rest] = argv;
  if (!siteUrl || rest.length || siteUrl.startsWith('-'))
    throw new Error('usage: npm run smoke -- <site-url>   (e.g. https://app.yesyoucanbook.com)');
  const url = new URL(siteUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${siteUrl} is not an http(s) URL`);
  return { siteUrl: url.origin };
}

async function main() {
  const { siteUrl } = parseArgs(process.argv.slice(2));
  const target = await readSiteBuild(siteUrl);
  target.serviceRoleKey = process.env[SERVICE_ROLE_KEY_ENV]?.trim() || undefined;
  console.log(`[smoke] ${target.siteUrl} → project ${target.supabaseUrl}`);
  const results = await runChecks(target);
  for (const { name, ok, detail, skipped } of results)
    console.log(`${skipped ? 'skip' : ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`[smoke] ${errorText(error)}`);
    process.exit(2);
  });
}
