#!/usr/bin/env node
// @ts-check
// `npm run perf`: the public pages' speed. Builds the site against the local Supabase stand-in,
// serves dist/ the way a static host does (precompressed brotli / gzip, the production headers
// from dist/_headers, prerendered pages, the SPA fallback), and runs Lighthouse (mobile,
// simulated throttling: its defaults) N times per page in Chromium, signed in for /resources.
// Prints the median of each figure per page, and each public page's LCP against its no-JS
// floor (the same page served without its scripts, /__nojs/<page>), both loaded under
// Lighthouse's applied throttling (the same phone, throttled in Chrome as it loads: see
// docs/decisions/088-lcp-floor-under-applied-throttling.md for why). Then, on an emulated phone
// at 4x and 6x CPU: the first-tap answers (scripts/bench/first-tap.mjs), a tap on a public
// page's internal link until the next page shows, and Enter on the sign-in form until the
// first download link shows (scripts/bench/journeys.mjs). Last, one table of every row with
// its limit and its median over the runs; exit code 1 when a row is over its limit.
//
//   npm run perf                     5 runs per page (takes a while on a small machine)
//   npm run perf -- --only taps      the phone's rows alone (or --only lighthouse)
//   npm run perf -- --only journeys  the links and sign-in to files alone
//   npm run perf -- --runs 1         one run, while working on it
//   npm run perf -- --only taps --rows Play   only the phone's rows whose name has that text
//   npm run perf -- --pages /,/auth  some pages only
//   npm run perf -- --json out.json  also write every run's figures
//   PERF_LHR_DIR=dir npm run perf    also keep each run's whole Lighthouse report there
//
// Ports: PERF_SITE_PORT (default 4180) and PERF_STANDIN_PORT (default 54330).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { findChromium, CHROMIUM_ARGS, playwrightHeadlessShell } from '../dev/browser.mjs';
import { FIRST_TAP_BUDGET_MS, measureFirstTap, PHONE, SCENARIOS } from './first-tap.mjs';
import {
  FOUNDATION_MEMBER,
  LINKS,
  measureLinkTap,
  measureSignInToFiles,
  NEXT_PAGE_BUDGET_MS,
  SIGN_IN_TO_FILES_BUDGET_MS,
} from './journeys.mjs';
import { headersFor, SPA_SHELL } from '../build/security-headers.mjs';
import { filesUnder } from '../checks/check-budgets.mjs';
import { startPreflightLatency } from './preflight-latency.mjs';
import { parseHeadersFile } from '../build/vite-security-headers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const distDir = path.join(root, 'dist');

/** Where supabase-js keeps the session (src/config/auth-storage.ts). */
const AUTH_STORAGE_KEY = 'yes-you-can-auth';
/** A seeded account with every card unlocked (supabase/seed.sql). */
const MEMBER = { email: 'complete@example.com', password: 'password123' };

/** The phones the taps and journeys run on: a mid-range one and a low-end one (CPU slowdown). */
export const PHONE_CPUS = [PHONE.cpuSlowdown, 6];

/** Lighthouse's limits on every public page: its score, and LCP against the page without JS. */
export const LIGHTHOUSE_SCORE = 100;
export const LCP_OVER_FLOOR = 1.1;

/** Where serveDist serves each page with its scripts taken out: the no-JS floor. */
export const NO_JS_PREFIX = '/__nojs';

export const PAGES = [
  { path: '/', signedIn: false },
  { path: '/bundles', signedIn: false },
  { path: '/upgrade', signedIn: false },
  { path: '/privacy', signedIn: false },
  { path: '/auth', signedIn: false },
  { path: '/resources', signedIn: true },
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};
/** Types worth compressing; images other than SVG already are. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.xml', '.txt', '.webmanifest']);

/**
 * The file a static host answers `pathname` with: the file itself, a prerendered page
 * (`/bundles` → bundles/index.html or bundles.html), else the app's shell for app routes, as
 * the build's `_redirects` and `vercel.json` tell the hosts: spa.html (index.html is the
 * prerendered landing page: served for /resources, it would be hydrated, mismatch and be
 * thrown away), or index.html in a build without one.
 * Missing files under /assets/ stay 404 (as on the hosts: a stale chunk must not get HTML).
 * @param {string} dir
 * @param {string} pathname
 * @returns {string | null} path relative to dir
 */
export function resolveFile(dir, pathname) {
  const clean = path.posix.normalize(decodeURIComponent(pathname)).replace(/^\/+/, '');
  if (clean.startsWith('..')) return null;
  const isFile = (/** @type {string} */ rel) => {
    const full = path.join(dir, rel);
    return existsSync(full) && statSync(full).isFile();
  };
  const trimmed = clean.replace(/\/$/, '');
  const candidates = clean === '' ? ['index.html'] : [clean, `${trimmed}/index.html`, `${trimmed}.html`];
  const found = candidates.find(isFile);
  if (found) return found;
  if (clean.startsWith('assets/')) return null;
  const shell = SPA_SHELL.replace(/^\//, '');
  return isFile(shell) ? shell : 'index.html';
}

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, else none.
 * @param {string | undefined} accept
 * @returns {'br' | 'gzip' | null}
 */
export function pickEncoding(accept) {
  const offered = new Map(
    (accept ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .map(([name = '', ...params]) => {
        const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        return [name.trim().toLowerCase(), q ? Number(q.slice(2)) : 1];
      }),
  );
  if ((offered.get('br') ?? 0) > 0) return 'br';
  if ((offered.get('gzip') ?? 0) > 0) return 'gzip';
  return null;
}

/**
 * A page's HTML with every script element taken out (inline, module, speculation rules), and
 * any link that fetches a script ahead (modulepreload, preload as script): what the page is
 * without JavaScript, the floor its LCP is held to. A floor that still fetched the scripts
 * would pay for them too, and hide their cost.
 * @param {string} html
 */
export function withoutScripts(html) {
  const fetchesScript = (/** @type {string} */ link) =>
    /\brel="?modulepreload\b/i.test(link) || (/\brel="?preload\b/i.test(link) && /\bas="?script\b/i.test(link));
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*>/gi, (link) => (fetchesScript(link) ? '' : link));
}

/**
 * A static server for dist/: precompressed variants (made once, at start), the production
 * headers, prerendered pages and the SPA fallback.
 * @param {{ dir: string, port: number }} options
 * @returns {Promise<http.Server>}
 */
export async function serveDist({ dir, port }) {
  const rules = parseHeadersFile(readFileSync(path.join(dir, '_headers'), 'utf8'));
  /** @type {Map<string, { raw: Buffer, br?: Buffer, gzip?: Buffer }>} */
  const cache = new Map();
  const load = (/** @type {string} */ rel, noJs = false) => {
    const key = noJs ? `${NO_JS_PREFIX}/${rel}` : rel;
    let entry = cache.get(key);
    if (!entry) {
      const file = readFileSync(path.join(dir, rel));
      const raw = noJs ? Buffer.from(withoutScripts(file.toString('utf8'))) : file;
      entry = { raw };
      if (COMPRESSIBLE.has(path.extname(rel)) && raw.length > 256) {
        entry.br = brotliCompressSync(raw, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        entry.gzip = gzipSync(raw, { level: 9 });
      }
      cache.set(key, entry);
    }
    return entry;
  };
  // Every file and every page's floor, compressed now: brotli at its highest quality takes tens
  // of milliseconds a page, which a request made first would otherwise wait for, and Lighthouse
  // would model as the host's response time (a static host sends files it compressed ahead).
  for (const rel of filesUnder(dir)) {
    load(rel);
    if (rel.endsWith('.html')) load(rel, true);
  }
  const server = http.createServer((req, res) => {
    const requested = new URL(req.url ?? '/', 'http://perf.invalid').pathname;
    const noJs = requested === NO_JS_PREFIX || requested.startsWith(`${NO_JS_PREFIX}/`);
    const pathname = noJs ? requested.slice(NO_JS_PREFIX.length) || '/' : requested;
    const rel = resolveFile(dir, pathname);
    for (const [name, value] of Object.entries(headersFor(rules, pathname))) res.setHeader(name, value);
    if (!rel) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const entry = load(rel, noJs && rel.endsWith('.html'));
    const encoding = entry.br ? pickEncoding(req.headers['accept-encoding']) : null;
    const body = (encoding && entry[encoding]) || entry.raw;
    res.setHeader(
      'Content-Type',
      TYPES[/** @type {keyof typeof TYPES} */ (path.extname(rel))] ?? 'application/octet-stream',
    );
    if (entry.br) res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.writeHead(200).end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  return server;
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(/** @type {number[]} */ values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (!sorted.length) return NaN;
  return sorted.length % 2 ? /** @type {number} */ (sorted[mid]) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * The parts of a Lighthouse result (`import('lighthouse').Result`) the figures are read from.
 * @typedef {{
 *   categories: Record<string, { score: number | null } | undefined>,
 *   audits: Record<string, { numericValue?: number, details?: object } | undefined>,
 * }} LighthouseResult
 */

/**
 * The figures of one Lighthouse result.
 * @param {LighthouseResult} lhr
 */
export function figuresOf(lhr) {
  const audit = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = lhr.audits['network-requests']?.details;
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    bytes: audit('total-byte-weight'),
    requests: requests && 'items' in requests && Array.isArray(requests.items) ? requests.items.length : NaN,
  };
}

/** @typedef {ReturnType<typeof figuresOf>} Figures */

/**
 * The results table: one row per page, the median of each column over its runs.
 * @param {{ path: string, runs: Figures[] }[]} results
 */
export function formatTable(results) {
  const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;
  const rows = results.map(({ path: page, runs }) => {
    const m = (/** @type {keyof Figures} */ key) => median(runs.map((run) => run[key]));
    return [
      page,
      String(m('score')),
      seconds(m('fcp')),
      seconds(m('lcp')),
      `${Math.round(m('tbt'))} ms`,
      m('cls').toFixed(3),
      `${(m('bytes') / 1000).toFixed(1)} kB`,
      String(m('requests')),
    ];
  });
  const header = ['page', 'score', 'FCP', 'LCP', 'TBT', 'CLS', 'transferred', 'requests'];
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]?.length ?? 0)));
  const line = (/** @type {string[]} */ row) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

function parseArgs(/** @type {string[]} */ argv) {
  const options = {
    runs: 5,
    pages: PAGES.map((p) => p.path),
    json: /** @type {string | null} */ (null),
    only: /** @type {'lighthouse' | 'taps' | 'journeys' | null} */ (null),
    rows: '',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--runs') options.runs = Number(argv[++i]);
    else if (arg === '--pages') options.pages = String(argv[++i]).split(',');
    else if (arg === '--json') options.json = String(argv[++i]);
    else if (arg === '--rows') options.rows = String(argv[++i]);
    else if (arg === '--only') {
      const only = String(argv[++i]);
      if (only !== 'lighthouse' && only !== 'taps' && only !== 'journeys') {
        throw new Error('--only takes lighthouse, taps or journeys');
      }
      options.only = only;
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs takes a whole number >= 1');
  return options;
}

/** Runs a command to completion, inheriting the terminal; rejects on a non-zero exit. */
function run(/** @type {string} */ command, /** @type {string[]} */ args, /** @type {NodeJS.ProcessEnv} */ env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`${command} exited with ${code}`))));
  });
}

/** Starts the stand-in in its own process (so its database work does not share Lighthouse's). */
async function startStandIn(/** @type {number} */ port) {
  // Something already answering there (a stand-in still stopping, or another run's) would pass
  // the health check below in this one's place, and then go away mid-run.
  const taken = await fetch(`http://127.0.0.1:${port}/auth/v1/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is in use (another stand-in?); set PERF_STANDIN_PORT to another`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'perf-standin-'));
  const child = spawn(
    process.execPath,
    [path.join(root, 'packages/supabase-stand-in/server.mjs'), '--port', String(port), '--data', dataDir, '--reset'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) => reject(new Error(`stand-in exited (${code})`))),
  );
  const healthy = (async () => {
    for (;;) {
      try {
        if ((await fetch(`${url}/auth/v1/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  await Promise.race([healthy, exited]);
  // Resolves once the process has gone, its port free for the next run.
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, stop };
}

/** The seeded member's session, as supabase-js stores it. */
async function memberSession(/** @type {string} */ url, /** @type {string} */ anonKey) {
  const response = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(MEMBER),
  });
  if (!response.ok) throw new Error(`sign-in as ${MEMBER.email} failed: ${response.status} ${await response.text()}`);
  return JSON.stringify(await response.json());
}

function chromiumPath() {
  const found = findChromium();
  if (found.problem) throw new Error(`CHROMIUM_PATH ${found.problem}`);
  const executable = found.executablePath ?? (found.source === 'playwright' ? playwrightHeadlessShell() : undefined);
  if (!executable) throw new Error('No Chromium found: see docs/testing.md (Chromium).');
  return executable;
}

/**
 * What the measuring steps share: the browser to launch, the site to measure and the seeded
 * member's session (for signed-in pages).
 * @typedef {{
 *   lighthouse: typeof import('lighthouse').default,
 *   puppeteer: typeof import('puppeteer-core'),
 *   executablePath: string,
 *   site: string,
 *   session: string,
 *   runs: number,
 *   rows: string,
 * }} Bench
 */

/**
 * How Lighthouse throttles a run: `simulate` (its default, and PageSpeed Insights'), which
 * loads the page at full speed and models the phone from the trace; or `devtools`, which loads
 * it on the same phone profile applied in Chrome (150 ms round trips, 1.6 Mbps, 4x CPU).
 * @typedef {'simulate' | 'devtools'} Throttling
 */

/**
 * One Lighthouse run of one page, in a fresh browser: nothing cached from the run before.
 * @param {Bench} bench @param {{ path: string, signedIn: boolean }} spec @param {number} i the run's index
 * @param {Throttling} [throttling]
 */
async function lighthouseRun(bench, spec, i, throttling = 'simulate') {
  const { site, lighthouse } = bench;
  const browser = await bench.puppeteer.launch({
    executablePath: bench.executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    defaultViewport: null,
  });
  try {
    const page = await browser.newPage();
    if (spec.signedIn) {
      // The session goes into the site's storage first; Lighthouse must then keep it.
      await page.goto(`${site}/favicon.svg`);
      await page.evaluate((key, value) => globalThis.localStorage.setItem(key, value), AUTH_STORAGE_KEY, bench.session);
    }
    const result = await lighthouse(
      `${site}${spec.path}`,
      {
        logLevel: 'error',
        onlyCategories: ['performance'],
        disableStorageReset: spec.signedIn,
        throttlingMethod: throttling,
      },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${spec.path}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${spec.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (spec.signedIn && !new URL(lhr.finalDisplayedUrl).pathname.startsWith(spec.path)) {
      throw new Error(`${spec.path} ended at ${lhr.finalDisplayedUrl}: the session did not take`);
    }
    // PERF_LHR_DIR=dir keeps each run's whole report (long tasks, bootup time) to study.
    if (process.env.PERF_LHR_DIR) {
      const name = `${spec.path.replace(/\W+/g, '_') || 'root'}-${throttling}-${i + 1}.json`;
      writeFileSync(path.join(process.env.PERF_LHR_DIR, name), JSON.stringify(lhr));
    }
    return { figures: figuresOf(lhr), warnings: lhr.runWarnings };
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse over the pages, `runs` times each, then the table of medians (simulated). A public
 * page is also loaded under applied throttling, with its scripts and without them (its no-JS
 * floor), as many times: the LCP rows compare those two.
 * @param {Bench} bench @param {string[]} pages
 */
async function measurePages(bench, pages) {
  /** @type {{ path: string, runs: Figures[], applied: Figures[], floor: Figures[], simulatedFloor: Figures[], raw: unknown[] }[]} */
  const results = [];
  for (const pagePath of pages) {
    const spec = PAGES.find((p) => p.path === pagePath) ?? { path: pagePath, signedIn: false };
    const entry = {
      path: spec.path,
      runs: /** @type {Figures[]} */ ([]),
      applied: /** @type {Figures[]} */ ([]),
      floor: /** @type {Figures[]} */ ([]),
      simulatedFloor: /** @type {Figures[]} */ ([]),
    };
    const raw = /** @type {unknown[]} */ ([]);
    for (let i = 0; i < bench.runs; i++) {
      const { figures, warnings } = await lighthouseRun(bench, spec, i);
      entry.runs.push(figures);
      raw.push({ run: i + 1, ...figures, warnings });
      let against = '';
      if (!spec.signedIn) {
        const noJs = { path: `${NO_JS_PREFIX}${spec.path}`, signedIn: false };
        const simulatedFloor = (await lighthouseRun(bench, noJs, i)).figures;
        const applied = (await lighthouseRun(bench, spec, i, 'devtools')).figures;
        const floor = (await lighthouseRun(bench, noJs, i, 'devtools')).figures;
        entry.simulatedFloor.push(simulatedFloor);
        entry.applied.push(applied);
        entry.floor.push(floor);
        against = ` (no JS ${Math.round(simulatedFloor.lcp)} ms); applied: LCP ${Math.round(applied.lcp)} ms, no JS ${Math.round(floor.lcp)} ms`;
      }
      console.log(
        `[perf] ${spec.path} run ${i + 1}/${bench.runs}: score ${figures.score}, LCP ${Math.round(figures.lcp)} ms, TBT ${Math.round(figures.tbt)} ms, CLS ${figures.cls.toFixed(3)}${against}`,
      );
    }
    results.push({ ...entry, raw });
  }
  if (results.length > 0) {
    console.log(`\nLighthouse ${lighthouseVersion()}, mobile, simulated throttling, median of ${bench.runs} run(s):\n`);
    console.log(formatTable(results));
    const simulated = simulatedLcpOverFloor(results);
    if (simulated) {
      console.log(`\nSimulated LCP / simulated no-JS LCP (shown, not held: docs/decisions/088): ${simulated}`);
    }
  }
  return results;
}

/**
 * Runs `measure` `runs` times, each in a fresh browser (nothing cached from the run before).
 * @param {Bench} bench @param {string} name
 * @param {(browser: import('puppeteer-core').Browser) => Promise<number>} measure
 */
async function repeated(bench, name, measure) {
  /** @type {number[]} */
  const runs = [];
  for (let i = 0; i < bench.runs; i++) {
    const browser = await bench.puppeteer.launch({
      executablePath: bench.executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    try {
      runs.push(await measure(browser));
    } finally {
      await browser.close();
    }
  }
  console.log(`[perf] ${name}: ${runs.map((ms) => Math.round(ms)).join(', ')} ms`);
  return runs;
}

/**
 * On the phone at each CPU slowdown: the first-tap scenarios, the links and sign-in to
 * files, `runs` times each. Returns one verdict row per measure.
 * @param {Bench} bench @param {boolean} firstTaps whether to measure the first taps too
 * @returns {Promise<Verdict[]>}
 */
async function measurePhone(bench, firstTaps) {
  /** @type {Verdict[]} */
  const rows = [];
  const ms = (/** @type {number} */ limit) => ({ limit, unit: 'ms', atMost: true });
  const wanted = (/** @type {string} */ name) => name.includes(bench.rows);
  for (const cpu of PHONE_CPUS) {
    for (const scenario of firstTaps ? SCENARIOS : []) {
      const name = `first tap, ${cpu}x: ${scenario.name}`;
      if (!wanted(name)) continue;
      const runs = await repeated(bench, name, (browser) => measureFirstTap(browser, bench.site, scenario, cpu));
      rows.push({ name, runs, ...ms(FIRST_TAP_BUDGET_MS) });
    }
    for (const link of LINKS) {
      const name = `next page, ${cpu}x: tap ${link.from} → ${link.to}`;
      if (!wanted(name)) continue;
      // Held on the driver's clock; the touch event's own clock is printed beside it.
      /** @type {number[]} */
      const eventClock = [];
      const runs = await repeated(bench, name, async (browser) => {
        const tap = await measureLinkTap(browser, bench.site, link, cpu);
        eventClock.push(tap.eventMs);
        return tap.ms;
      });
      console.log(`[perf] ${name}, from the touch event's timeStamp: ${eventClock.map(Math.round).join(', ')} ms`);
      rows.push({ name, runs, ...ms(NEXT_PAGE_BUDGET_MS) });
    }
    const name = `sign-in to files, ${cpu}x: Enter → first download link`;
    if (!wanted(name)) continue;
    const runs = await repeated(bench, name, (browser) =>
      measureSignInToFiles(browser, bench.site, FOUNDATION_MEMBER, cpu),
    );
    rows.push({ name, runs, ...ms(SIGN_IN_TO_FILES_BUDGET_MS) });
  }
  return rows;
}

/**
 * Each public page's simulated LCP over its simulated no-JS floor (medians), for the record:
 * Lighthouse's simulation charges the boot module to LCP whenever it was fetched before the
 * paint, since it cannot tell when a module ran (decision 088).
 * @param {{ path: string, runs: Figures[], simulatedFloor: Figures[] }[]} results
 */
export function simulatedLcpOverFloor(results) {
  return results
    .filter(({ simulatedFloor }) => simulatedFloor.length > 0)
    .map(({ path: page, runs, simulatedFloor }) => {
      const ratio = median(runs.map((run) => run.lcp)) / median(simulatedFloor.map((run) => run.lcp));
      return `${page} ${ratio.toFixed(2)}x`;
    })
    .join(', ');
}

/**
 * The Lighthouse rows: each public page's score (simulated throttling), and its LCP over its
 * no-JS floor's, both loaded under applied throttling.
 * @param {{ path: string, runs: Figures[], applied: Figures[], floor: Figures[] }[]} results
 * @returns {Verdict[]}
 */
export function lighthouseVerdicts(results) {
  // The limits are the public pages' (those with a floor); a member page's figures are shown above.
  return results.flatMap(({ path: page, runs, applied, floor }) => {
    if (floor.length === 0) return [];
    const floorLcp = median(floor.map((each) => each.lcp));
    /** @type {Verdict[]} */
    const rows = [
      {
        name: `Lighthouse ${page}: score`,
        runs: runs.map((run) => run.score),
        limit: LIGHTHOUSE_SCORE,
        unit: '',
        atMost: false,
      },
      {
        name: `Lighthouse ${page}: LCP / no-JS LCP (applied)`,
        runs: applied.map((run) => run.lcp / floorLcp),
        limit: LCP_OVER_FLOOR,
        unit: 'x',
        atMost: true,
      },
    ];
    return rows;
  });
}

/**
 * One measure against its limit: `atMost` (the median may not pass the limit) or at least.
 * @typedef {{ name: string, runs: number[], limit: number, unit: string, atMost: boolean }} Verdict
 */

/** Whether a row's median is within its limit. */
export function withinLimit(/** @type {Verdict} */ row) {
  const value = median(row.runs);
  return row.atMost ? value <= row.limit : value >= row.limit;
}

/**
 * The table of every row: its limit, its median over the runs, the runs, and ok or OVER.
 * @param {Verdict[]} rows
 */
export function formatVerdicts(rows) {
  const show = (/** @type {number} */ value, /** @type {string} */ unit) =>
    unit === 'x' ? `${value.toFixed(2)}x` : `${Math.round(value)}${unit ? ` ${unit}` : ''}`;
  const body = rows.map((row) => [
    row.name,
    `${row.atMost ? '≤' : '≥'} ${show(row.limit, row.unit)}`,
    show(median(row.runs), row.unit),
    row.runs.map((run) => show(run, row.unit === 'x' ? 'x' : '')).join(', '),
    withinLimit(row) ? 'ok' : 'OVER',
  ]);
  const header = ['measure', 'limit', 'median', 'runs', ''];
  const table = [header, ...body];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]?.length ?? 0)));
  const line = (/** @type {string[]} */ row) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const sitePort = Number(process.env.PERF_SITE_PORT ?? 4180);
  const standInPort = Number(process.env.PERF_STANDIN_PORT ?? 54330);
  const { ANON_KEY } = await import('../../packages/supabase-stand-in/keys.mjs');
  const { default: lighthouse } = await import('lighthouse');
  const puppeteer = await import('puppeteer-core');
  const executablePath = chromiumPath();

  const standIn = await startStandIn(standInPort);
  // The site reaches the stand-in as a phone reaches Supabase: preflights cost a round trip too.
  const supabase = await startPreflightLatency({ target: standIn.url, port: 0, latencyMs: PHONE.latencyMs });
  /** @type {http.Server | undefined} */
  let server;
  try {
    console.log(`[perf] building against the stand-in at ${supabase.url} (preflights held ${PHONE.latencyMs} ms)…`);
    await run(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      ...process.env,
      VITE_SUPABASE_URL: supabase.url,
      VITE_SUPABASE_ANON_KEY: ANON_KEY,
    });
    server = await serveDist({ dir: distDir, port: sitePort });
    const site = `http://127.0.0.1:${sitePort}`;
    const session = await memberSession(standIn.url, ANON_KEY);
    console.log(`[perf] serving dist/ at ${site}; Lighthouse ${options.runs}× per page with ${executablePath}`);
    /** @type {Bench} */
    const bench = { lighthouse, puppeteer, executablePath, site, session, runs: options.runs, rows: options.rows };
    const results = await measurePages(bench, options.only && options.only !== 'lighthouse' ? [] : options.pages);
    const phone = options.only === 'lighthouse' ? [] : await measurePhone(bench, options.only !== 'journeys');
    const rows = [...lighthouseVerdicts(results), ...phone];
    console.log(
      `\nAgainst the limits, median of ${options.runs}; phone: ${PHONE.latencyMs} ms RTT, 1.6 Mbps, ${PHONE.viewport.width} px, CPU ${PHONE_CPUS.join('x and ')}x:\n`,
    );
    console.log(formatVerdicts(rows));
    if (!rows.every(withinLimit)) {
      console.error('\n[perf] a row is over its limit');
      process.exitCode = 1;
    }
    if (options.json) writeFileSync(options.json, `${JSON.stringify({ lighthouse: results, rows }, null, 2)}\n`);
  } finally {
    server?.close();
    supabase.close();
    await standIn.stop();
  }
}

function lighthouseVersion() {
  return JSON.parse(readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8')).version;
}

/**
 * Puppeteer swaps its frame tree when Chrome activates a prerendered page, and may then touch a
 * frame of the page the activation replaced: it throws from its own event handler, outside any
 * call the bench made. That page is gone by design, the bench's page goes on, and the run's
 * figures come from the page shown, so that one error is reported and the run continues.
 * @param {unknown} err
 */
function onUncaught(err) {
  if (err instanceof Error && err.message.startsWith('Attempted to use detached Frame')) {
    console.warn(`[perf] puppeteer: ${err.message} (a prerender's activation replaced that page)`);
    return;
  }
  console.error(`[perf] ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.on('uncaughtException', onUncaught);
  main().catch((err) => {
    // A failed fetch says why only in its cause (the socket's error).
    console.error(`[perf] ${err?.stack ?? err}${err?.cause ? `\ncaused by: ${err.cause?.stack ?? err.cause}` : ''}`);
    process.exit(1);
  });
}
