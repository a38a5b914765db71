#!/usr/bin/env node
// @ts-check
// `npm run bench:stamp`: what stamping a paid file costs, against the hosted Edge Function
// limits (2 s of CPU per request, 256 MB of memory).
//
// 1. Fixtures made at run time in a temporary folder (stamp-worker.ts make, from
//    supabase/functions/download/book-fixtures.ts, each streamed to disk): REAL_BOOK (~20 MB,
//    1,500 pages, object streams, a cross-reference stream), BIG_BOOK (200 MB), LINEARIZED,
//    UPDATED (an earlier incremental update), HYBRID, CLASSIC (small), and an EPUB. Nothing
//    big is committed.
// 2. Deno's own cost first: `stamp-worker.ts baseline`, a fresh Deno process that loads the
//    stamping code and reads nothing, reports its peak resident memory (VmHWM, the whole
//    process) and CPU time.
// 3. Each file is stamped by the download function's own code (stamp() in download/stamp.ts)
//    in a fresh Deno process of its own (the function's runtime), which reads the file once and
//    reports: "stamp CPU ms", the CPU time (user + system) of the stamp() call alone; "wall ms",
//    its wall time; "process CPU ms", the whole process's CPU time from start (Deno's start-up,
//    reading the file, stamping); "peak MB", the whole process's peak resident memory (VmHWM:
//    Deno itself, the file, the update); "peak − baseline MB", that peak less the baseline's.
//    The stamped parts are not joined (the function streams them), so the file is held once.
// 4. A stand-in of its own runs the real download function: one member downloads each file
//    once (it is stamped) and then five times more (the cached copy; the median is shown).
//    Each download's server time is the function's own Server-Timing header. A file over the
//    stand-in's upload limit (storage-api's global 50 MB cap) is left out of this part, and the
//    output says so.
//
// Exits 1 when, for any PDF: the stamp takes more than 100 ms of CPU; or the peak less the
// baseline is over the file's size + 64 MB; or, for a file of 150 MB or less, the whole
// process's peak is over 256 MB or its CPU over 2 s; or when a cached download takes more than
// 100 ms of server time.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../../packages/supabase-stand-in/keys.mjs';
import { startServer } from '../../packages/supabase-stand-in/server.mjs';
import { GLOBAL_FILE_SIZE_LIMIT } from '../../packages/supabase-stand-in/storage/objects-write.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const worker = path.join(root, 'scripts/bench/stamp-worker.ts');
const deno = /** @type {{ runInstall(): string }} */ (
  createRequire(import.meta.url)('deno/install_api.cjs')
).runInstall();

const MB = 1_000_000;
export const LIMITS = {
  /** CPU of the stamp() call, every PDF. */
  stampCpuMs: 100,
  /** Peak less the baseline, every PDF: the file's size plus this. */
  overSizeBytes: 64 * MB,
  /** For files up to this size, the hosted function's limits apply to the whole process: */
  hostedUpToBytes: 150 * MB,
  hostedPeakBytes: 256 * MB,
  hostedCpuMs: 2000,
  /** Server time of a cached download. */
  cachedMs: 100,
};
const PDF = 'application/pdf';
const FILES = [
  { file: 'real-book.pdf', label: 'REAL_BOOK (1,500 pages, xref stream)', type: PDF },
  { file: 'big-book.pdf', label: 'BIG_BOOK (2,000 pages, xref stream)', type: PDF },
  { file: 'linearized.pdf', label: 'LINEARIZED (400 pages)', type: PDF },
  { file: 'updated.pdf', label: 'UPDATED (earlier update, 400 pages)', type: PDF },
  { file: 'hybrid.pdf', label: 'HYBRID (200 pages)', type: PDF },
  { file: 'classic.pdf', label: 'CLASSIC (24 pages, table)', type: PDF },
  { file: 'book.epub', label: 'EPUB', type: 'application/epub+zip' },
];

/** @param {string[]} args */
function runWorker(args) {
  return new Promise((resolve, reject) => {
    execFile(
      deno,
      ['run', '--quiet', '--allow-read', '--allow-write', '--allow-env', '--node-modules-dir=manual', worker, ...args],
      { cwd: root, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/** Cached downloads per file; the median is reported (one is at the mercy of a busy machine). */
const CACHED_RUNS = 5;

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** @param {Response} response */
const serverMs = (response) => Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? NaN);

/**
 * Downloads `name` as `token` and follows the link; the function's time and the bytes' size.
 * @param {string} url @param {string} token @param {string} name
 */
async function download(url, token, name) {
  const answer = await fetch(`${url}/functions/v1/download?path=${encodeURIComponent(name)}`, {
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${await answer.text()}`);
  const ms = serverMs(answer);
  const { url: link } = /** @type {{ url: string }} */ (await answer.json());
  const file = await fetch(link);
  return { ms, bytes: (await file.arrayBuffer()).byteLength };
}

/** A member of the top tier, signed in: their access token. @param {string} url */
async function member(url) {
  const options = {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; realtime is not used here.
    realtime: { transport: /** @type {any} */ (WebSocket) },
  };
  const admin = createClient(url, SERVICE_ROLE_KEY, options);
  const email = `bench-stamp-${Date.now()}@example.com`;
  const created = await admin.auth.admin.createUser({ email, password: 'bench-pass-1', email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error('no user');
  const granted = await admin
    .from('tier_grants')
    .insert({ user_id: created.data.user.id, tier: 'complete', reason: 'bench:stamp' });
  if (granted.error) throw granted.error;
  const signedIn = await createClient(url, ANON_KEY, options).auth.signInWithPassword({
    email,
    password: 'bench-pass-1',
  });
  if (signedIn.error || !signedIn.data.session) throw signedIn.error ?? new Error('no session');
  return { admin, token: signedIn.data.session.access_token };
}

/**
 * Each file through the real function, twice; a file over the stand-in's upload limit is left
 * out (its reason kept).
 * @param {string} dir
 */
async function throughTheFunction(dir) {
  const server = await startServer({ port: 0, quiet: true, dataDir: null, seedSampleFiles: false });
  try {
    const { admin, token } = await member(server.url);
    /** @type {Record<string, { firstMs: number, cachedMs: number, servedBytes: number } | { skipped: string }>} */
    const results = {};
    for (const { file, type } of FILES) {
      const size = (await stat(path.join(dir, file))).size;
      if (size > GLOBAL_FILE_SIZE_LIMIT) {
        results[file] = {
          skipped: `${mb(size)} MB is over the stand-in's upload limit (${mb(GLOBAL_FILE_SIZE_LIMIT)} MB, storage-api's global cap)`,
        };
        continue;
      }
      const name = `complete/bench-stamp/${file}`;
      const bytes = await readFile(path.join(dir, file));
      const uploaded = await admin.storage.from('resources').upload(name, bytes, { contentType: type, upsert: true });
      if (uploaded.error) {
        results[file] = { skipped: `the stand-in refused the upload: ${uploaded.error.message}` };
        continue;
      }
      const first = await download(server.url, token, name);
      const cached = [];
      for (let i = 0; i < CACHED_RUNS; i += 1) cached.push(await download(server.url, token, name));
      results[file] = { firstMs: first.ms, cachedMs: median(cached.map((run) => run.ms)), servedBytes: first.bytes };
    }
    return results;
  } finally {
    await server.close();
  }
}

/** @param {number} bytes */
const mb = (bytes) => (bytes / MB).toFixed(1);

/**
 * @typedef {{ file: string, label: string, type: string, inBytes: number, outBytes: number, cpuMs: number,
 *   wallMs: number, processCpuMs: number, peakBytes: number }} Stamped
 */

/**
 * What is over the limits, in words.
 * @param {Stamped[]} stamped @param {{ peakBytes: number }} base
 * @param {Record<string, { cachedMs: number } | { skipped: string }>} served
 */
function overLimits(stamped, base, served) {
  const problems = [];
  for (const row of stamped.filter((r) => r.type === PDF)) {
    if (row.cpuMs > LIMITS.stampCpuMs) problems.push(`${row.file}: the stamp took ${Math.round(row.cpuMs)} ms of CPU`);
    const growth = row.peakBytes - base.peakBytes;
    if (growth > row.inBytes + LIMITS.overSizeBytes) {
      problems.push(
        `${row.file}: peak − baseline ${mb(growth)} MB is over its size + 64 MB (${mb(row.inBytes + LIMITS.overSizeBytes)} MB)`,
      );
    }
    if (row.inBytes <= LIMITS.hostedUpToBytes) {
      if (row.peakBytes > LIMITS.hostedPeakBytes)
        problems.push(`${row.file}: the process peaked at ${mb(row.peakBytes)} MB`);
      if (row.processCpuMs > LIMITS.hostedCpuMs)
        problems.push(`${row.file}: the process used ${Math.round(row.processCpuMs)} ms of CPU`);
    }
  }
  for (const [file, result] of Object.entries(served)) {
    if ('cachedMs' in result && !(result.cachedMs <= LIMITS.cachedMs)) {
      problems.push(`${file}: cached download took ${result.cachedMs} ms`);
    }
  }
  return problems;
}

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-stamp-'));
  try {
    await runWorker(['make', dir]);
    const base = /** @type {{ peakBytes: number, processCpuMs: number }} */ (
      JSON.parse(String(await runWorker(['baseline'])))
    );
    /** @type {Stamped[]} */
    const stamped = [];
    for (const entry of FILES) {
      stamped.push({ ...entry, ...JSON.parse(String(await runWorker(['stamp', path.join(dir, entry.file)]))) });
    }
    const served = await throughTheFunction(dir);
    console.log(
      `Deno baseline (a fresh process that loads the stamping code, reads nothing): peak ${mb(base.peakBytes)} MB, ` +
        `CPU ${Math.round(base.processCpuMs)} ms`,
    );
    const rows = stamped.map((row) => {
      const result = served[row.file];
      const through = result && 'firstMs' in result ? result : undefined;
      return {
        file: row.label,
        'input MB': mb(row.inBytes),
        'stamp CPU ms': Math.round(row.cpuMs),
        'wall ms': Math.round(row.wallMs),
        'process CPU ms': Math.round(row.processCpuMs),
        'peak MB': mb(row.peakBytes),
        'peak − baseline MB': mb(row.peakBytes - base.peakBytes),
        'output MB': mb(row.outBytes),
        'first download ms': through ? Math.round(through.firstMs) : '–',
        'cached download ms': through ? Math.round(through.cachedMs) : '–',
      };
    });
    console.table(rows);
    for (const [file, result] of Object.entries(served)) {
      if ('skipped' in result) console.log(`${file}: not downloaded through the function: ${result.skipped}`);
    }
    const problems = overLimits(stamped, base, served);
    for (const problem of problems) console.error(`over the limit: ${problem}`);
    if (problems.length === 0) console.log('Every limit held.');
    process.exitCode = problems.length > 0 ? 1 : 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
