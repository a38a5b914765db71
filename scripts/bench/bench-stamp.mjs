#!/usr/bin/env node
// @ts-check
// `npm run bench:stamp`: what stamping a paid file costs, against the hosted Edge Function
// limits (2 s of CPU per request, 256 MB of memory).
//
// 1. Fixtures made at run time in a temporary folder (scripts/bench/stamp-worker.ts make):
//    PDFs of 1 MB, 20 MB (300 pages) and 50 MB, and an EPUB. Nothing big is committed.
// 2. Each is stamped by the download function's own code in a fresh Deno process (the
//    function's runtime), which reports CPU time, wall time, peak resident memory (the whole
//    process, Deno itself included) and the output's size.
// 3. A stand-in of its own runs the real download function: one member downloads each file
//    once (it is stamped) and then five times more (the cached copy; the median is shown).
//    Each download's server time is the function's own Server-Timing header.
//
// Exits 1 when the 20 MB PDF takes 1 s of CPU or more, or 150 MB of memory or more, or a
// cached download takes more than 100 ms of server time.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../../packages/supabase-stand-in/keys.mjs';
import { startServer } from '../../packages/supabase-stand-in/server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const worker = path.join(root, 'scripts/bench/stamp-worker.ts');
const deno = /** @type {{ runInstall(): string }} */ (
  createRequire(import.meta.url)('deno/install_api.cjs')
).runInstall();

export const LIMITS = { cpuMs: 1000, peakMb: 150, cachedMs: 100 };
const FILES = [
  { file: 'pdf-1mb.pdf', label: 'PDF 1 MB', type: 'application/pdf' },
  { file: 'pdf-20mb.pdf', label: 'PDF 20 MB, 300 pages', type: 'application/pdf', checked: true },
  { file: 'pdf-50mb.pdf', label: 'PDF 50 MB', type: 'application/pdf' },
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

/** Each file through the real function, twice. @param {string} dir */
async function throughTheFunction(dir) {
  const server = await startServer({ port: 0, quiet: true, dataDir: null, seedSampleFiles: false });
  try {
    const { admin, token } = await member(server.url);
    /** @type {Record<string, { firstMs: number, cachedMs: number, servedBytes: number }>} */
    const results = {};
    for (const { file, type } of FILES) {
      const name = `complete/bench-stamp/${file}`;
      const bytes = await readFile(path.join(dir, file));
      const uploaded = await admin.storage.from('resources').upload(name, bytes, { contentType: type, upsert: true });
      if (uploaded.error) throw uploaded.error;
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
const mb = (bytes) => (bytes / 1_000_000).toFixed(1);

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-stamp-'));
  try {
    await runWorker(['make', dir]);
    const stamped = [];
    for (const entry of FILES) {
      stamped.push({ ...entry, ...JSON.parse(String(await runWorker(['stamp', path.join(dir, entry.file)]))) });
    }
    const served = await throughTheFunction(dir);
    const rows = stamped.map((row) => ({
      file: row.label,
      'input MB': mb(row.inBytes),
      'CPU ms': Math.round(row.cpuMs),
      'wall ms': Math.round(row.wallMs),
      'peak MB': mb(row.peakBytes),
      'output MB': mb(row.outBytes),
      'first download ms': Math.round(served[row.file]?.firstMs ?? NaN),
      'cached download ms': Math.round(served[row.file]?.cachedMs ?? NaN),
    }));
    console.table(rows);
    const checked = stamped.find((row) => row.checked);
    const problems = [
      ...(checked.cpuMs >= LIMITS.cpuMs ? [`20 MB PDF: ${Math.round(checked.cpuMs)} ms of CPU`] : []),
      ...(checked.peakBytes >= LIMITS.peakMb * 1_000_000 ? [`20 MB PDF: ${mb(checked.peakBytes)} MB`] : []),
      ...Object.entries(served)
        .filter(([, result]) => !(result.cachedMs <= LIMITS.cachedMs))
        .map(([file, result]) => `${file}: cached download took ${result.cachedMs} ms`),
    ];
    for (const problem of problems) console.error(`over the limit: ${problem}`);
    process.exitCode = problems.length > 0 ? 1 : 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
