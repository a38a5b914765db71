// @ts-check
// One Deno process per Edge Function, as the Supabase CLI's edge runtime keeps a worker per
// function (github.com/supabase/edge-runtime): started on the function's first request, stopped
// with the stand-in, and killed with it should the stand-in's process end without closing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..', '..');
const HOST_SCRIPT = path.join(here, 'host.mjs');
/** How long a Deno process may take to boot (it loads supabase-js); a bound, not a wait. */
const BOOT_LIMIT_MS = 60_000;
/** What host.mjs prints, with the port, once the function serves. */
const READY_MARKER = '__local_function_ready__';

/** The `deno` binary of the pinned npm package (installed by its postinstall), never one on PATH. */
export function denoExecutable() {
  const require = createRequire(import.meta.url);
  return /** @type {{ runInstall(): string }} */ (require('deno/install_api.cjs')).runInstall();
}

/**
 * The running workers and what starting one needs.
 * @typedef {{
 *   functionsDir: string,
 *   env: () => Record<string, string>,
 *   log: (m: string) => void,
 *   workers: Map<string, { child: import('node:child_process').ChildProcessWithoutNullStreams, ready: Promise<number> }>,
 *   killAll: () => void,
 *   exitHooked: boolean,
 * }} WorkerPool
 */

/**
 * @param {{ functionsDir: string, env: () => Record<string, string>, log: (m: string) => void }} options
 * @returns {WorkerPool}
 */
export function createWorkerPool({ functionsDir, env, log }) {
  /** @type {WorkerPool['workers']} */
  const workers = new Map();
  const killAll = () => {
    for (const { child } of workers.values()) child.kill('SIGKILL');
  };
  return { functionsDir, env, log, workers, killAll, exitHooked: false };
}

/**
 * Calls `onLine` with each whole line the stream sends.
 * @param {import('node:stream').Readable} stream
 * @param {(line: string) => void} onLine
 */
function lines(stream, onLine) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (/** @type {string} */ chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      onLine(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  });
}

/**
 * Resolves with the port once host.mjs says the function serves; rejects when the
 * process fails, exits first, or takes longer than BOOT_LIMIT_MS. Its output goes to the log.
 * @param {WorkerPool} pool
 * @param {string} name
 * @param {import('node:child_process').ChildProcessWithoutNullStreams} child
 * @returns {Promise<number>}
 */
function whenReady(pool, name, child) {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let settled = false;
    /** @param {() => void} settle */
    const once = (settle) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle();
    };
    const timer = setTimeout(() => {
      once(() => reject(new Error(`${name} did not start within ${BOOT_LIMIT_MS / 1000} s`)));
      child.kill('SIGKILL');
    }, BOOT_LIMIT_MS);
    lines(child.stdout, (line) => {
      const match = line.startsWith(READY_MARKER) ? /(\d+)\s*$/.exec(line) : null;
      if (match && !settled) once(() => resolve(Number(match[1])));
      else pool.log(`[functions/${name}] ${line}`);
    });
    lines(child.stderr, (line) => {
      stderr = `${stderr}${line}\n`.slice(-4000);
      pool.log(`[functions/${name}] ${line}`);
    });
    child.on('error', (err) => once(() => reject(err)));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (pool.workers.get(name)?.child === child) pool.workers.delete(name);
      once(() => reject(new Error(`${name} exited (${signal ?? code}) before serving:\n${stderr}`)));
    });
  });
}

/**
 * Starts (once) the Deno process serving `name`; resolves with its port.
 * @param {WorkerPool} pool
 * @param {string} name
 * @returns {Promise<number>}
 */
export function worker(pool, name) {
  const running = pool.workers.get(name);
  if (running) return running.ready;
  const dir = path.join(pool.functionsDir, name);
  const denoJson = path.join(dir, 'deno.json');
  const args = [
    'run',
    '--no-prompt',
    '--allow-net',
    '--allow-env',
    '--allow-read',
    // npm: imports resolve from node_modules (the lock file's versions), no download.
    '--node-modules-dir=manual',
    ...(existsSync(denoJson) ? ['--config', denoJson] : []),
    HOST_SCRIPT,
    pathToFileURL(path.join(dir, 'index.ts')).href,
    READY_MARKER,
  ];
  const child = spawn(denoExecutable(), args, {
    cwd: repoRoot,
    env: pool.env(),
    // stdin stays open for the child's lifetime: its end tells host.mjs the stand-in is gone.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const ready = whenReady(pool, name, child);
  // Handled here so an unawaited failure is never unhandled; callers await `ready` themselves.
  ready.catch(() => {});
  if (!pool.exitHooked) {
    pool.exitHooked = true;
    process.on('exit', pool.killAll);
  }
  pool.workers.set(name, { child, ready });
  return ready;
}

/**
 * Stops every Deno process and waits until each has exited.
 * @param {WorkerPool} pool
 */
export async function closeWorkers(pool) {
  process.off('exit', pool.killAll);
  const exits = [...pool.workers.values()].map(
    ({ child }) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
        child.once('exit', () => resolve(undefined));
        child.kill('SIGTERM');
      }),
  );
  pool.workers.clear();
  await Promise.all(exits);
}

/**
 * Process ids of the running Deno children (tests check none outlives close()).
 * @param {WorkerPool} pool
 */
export const workerPids = (pool) => [...pool.workers.values()].flatMap(({ child }) => (child.pid ? [child.pid] : []));
