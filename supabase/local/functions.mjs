// Edge Functions for the local stand-in: `/functions/v1/<name>` runs
// supabase/functions/<name>/index.ts in real Deno (the pinned npm `deno` package), as the
// Supabase CLI's edge runtime would: 404 "Function not found" for a name with no index.ts, the
// JWT check unless `[functions.<name>] verify_jwt = false` in supabase/config.toml (401 with the
// runtime's `{ msg }` bodies), and the function's environment limited to the Supabase keys and
// the local development secrets (function-secrets.mjs). Each function gets one Deno process, started on its first
// request and stopped with the stand-in.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LOCAL_FUNCTION_SECRETS } from './function-secrets.mjs';
import { keysOf, parseToml, tableAt } from './config/toml.mjs';
import { ANON_KEY, SERVICE_ROLE_KEY, verifyJwt } from './keys.mjs';

export { LOCAL_FUNCTION_SECRETS };

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
export const FUNCTIONS_DIR = path.join(repoRoot, 'supabase', 'functions');
const CONFIG_TOML = path.join(repoRoot, 'supabase', 'config.toml');
const HOST_SCRIPT = path.join(here, 'function-host.mjs');
/** How long a Deno process may take to boot (it loads supabase-js); a bound, not a wait. */
const BOOT_LIMIT_MS = 60_000;
/** What function-host.mjs prints, with the port, once the function serves. */
const READY_MARKER = '__local_function_ready__';

/** The `deno` binary of the pinned npm package (installed by its postinstall), never one on PATH. */
export function denoExecutable() {
  const require = createRequire(import.meta.url);
  return /** @type {{ runInstall(): string }} */ (require('deno/install_api.cjs')).runInstall();
}

/**
 * `verify_jwt` of each `[functions.<name>]` table in config.toml (the only key read here).
 * @param {string} toml
 * @returns {Map<string, { verifyJwt: boolean }>}
 */
export function readFunctionsConfig(toml) {
  const functions = tableAt(parseToml(toml), 'functions');
  /** @type {Map<string, { verifyJwt: boolean }>} */
  const out = new Map();
  for (const name of Object.keys(functions))
    out.set(name, { verifyJwt: keysOf(functions, name).boolean('verify_jwt', true) });
  return out;
}

/** The edge runtime's own answers: JSON, or plain text for a string. */
function answer(status, body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, {
    status,
    headers: {
      'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
    },
  });
}

/**
 * @param {{ baseUrl: () => string, siteUrl: string, log: (m: string) => void,
 *   functionsDir?: string, configToml?: string, env?: Record<string, string> }} options
 *   env: extra variables for every function (tests); functionsDir / configToml: tests only.
 */
export function createFunctionsService({
  baseUrl,
  siteUrl,
  log,
  functionsDir = FUNCTIONS_DIR,
  configToml = existsSync(CONFIG_TOML) ? readFileSync(CONFIG_TOML, 'utf8') : '',
  env = {},
}) {
  const config = readFunctionsConfig(configToml);
  /** @type {Map<string, { child: import('node:child_process').ChildProcess, ready: Promise<number> }>} */
  const workers = new Map();
  let closed = false;
  // Should the stand-in's process end without close() (a crash), its Deno children end with it.
  let exitHooked = false;
  const killAll = () => {
    for (const { child } of workers.values()) child.kill('SIGKILL');
  };

  function functionEnv() {
    return {
      // What Deno itself needs to find its cache; the rest is what hosted functions get.
      ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
      ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
      NO_COLOR: '1',
      DENO_NO_UPDATE_CHECK: '1',
      SUPABASE_URL: baseUrl(),
      SUPABASE_ANON_KEY: ANON_KEY,
      SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
      SITE_URL: siteUrl,
      ...LOCAL_FUNCTION_SECRETS,
      ...env,
    };
  }

  /** Starts (once) the Deno process serving `name`; resolves with its port. */
  function worker(name) {
    const running = workers.get(name);
    if (running) return running.ready;
    const dir = path.join(functionsDir, name);
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
      env: functionEnv(),
      // stdin stays open for the child's lifetime: its end tells function-host.mjs the stand-in is gone.
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const ready = new Promise((resolve, reject) => {
      let stderr = '';
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(new Error(`${name} did not start within ${BOOT_LIMIT_MS / 1000} s`));
        child.kill('SIGKILL');
      }, BOOT_LIMIT_MS);
      const lines = (stream, onLine) => {
        let buffered = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => {
          buffered += chunk;
          let nl;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            onLine(buffered.slice(0, nl));
            buffered = buffered.slice(nl + 1);
          }
        });
      };
      lines(child.stdout, (line) => {
        const match = line.startsWith(READY_MARKER) ? /(\d+)\s*$/.exec(line) : null;
        if (match && !settled) {
          settled = true;
          clearTimeout(timer);
          resolve(Number(match[1]));
        } else log(`[functions/${name}] ${line}`);
      });
      lines(child.stderr, (line) => {
        stderr = `${stderr}${line}\n`.slice(-4000);
        log(`[functions/${name}] ${line}`);
      });
      child.on('error', (err) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          reject(err);
        }
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (workers.get(name)?.child === child) workers.delete(name);
        if (!settled) {
          settled = true;
          reject(new Error(`${name} exited (${signal ?? code}) before serving:\n${stderr}`));
        }
      });
    });
    // Handled here so an unawaited failure is never unhandled; callers await `ready` themselves.
    ready.catch(() => {});
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', killAll);
    }
    workers.set(name, { child, ready });
    return ready;
  }

  /** The edge runtime's JWT check: the Authorization bearer must be signed with the project secret. */
  async function jwtError(req) {
    const header = req.headers.authorization;
    if (!header) return 'Error: Missing authorization header';
    const [scheme, token] = header.split(' ');
    if (scheme !== 'Bearer') return "Error: Auth header is not 'Bearer {token}'";
    try {
      await verifyJwt(token);
      return null;
    } catch {
      return 'Invalid JWT';
    }
  }

  /**
   * Serves `/functions/v1/<name>[/…]`: the runtime's own refusals come back as a Response;
   * otherwise the request is proxied to the function's Deno process, which answers on `res`
   * directly (streamed both ways), and null comes back.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {string} sub  the path after /functions/v1/
   * @param {URL} url
   * @returns {Promise<Response | null>}
   */
  async function serve(req, res, sub, url) {
    const name = sub.split('/')[0] ?? '';
    const known = /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name) && existsSync(path.join(functionsDir, name, 'index.ts'));
    if (!known || closed) {
      req.resume();
      return answer(404, 'Function not found');
    }
    // No preflight reaches here: the gateway (routes/cors.mjs) answers every OPTIONS first, as
    // Kong does, so the runtime's "no JWT check on OPTIONS" exception has nothing to do.
    if (config.get(name)?.verifyJwt ?? true) {
      const error = await jwtError(req);
      if (error) {
        req.resume();
        return answer(401, { msg: error });
      }
    }
    let port;
    try {
      port = await worker(name);
    } catch (err) {
      log(`[functions/${name}] ${err instanceof Error ? err.message : err}`);
      req.resume();
      return answer(503, { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' });
    }
    await new Promise((resolve) => {
      const headers = { ...req.headers, host: `127.0.0.1:${port}` };
      const upstream = httpRequest(
        { host: '127.0.0.1', port, method: req.method, path: `/${sub}${url.search}`, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => resolve(undefined));
          answer.on('error', () => resolve(undefined));
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) {
          const text = JSON.stringify({
            code: 'WORKER_ERROR',
            message: 'Function exited due to an error (please check logs)',
          });
          res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
          res.end(text);
        } else res.destroy();
        resolve(undefined);
      });
      req.pipe(upstream);
    });
    return null;
  }

  /** Stops every Deno process and waits until each has exited. */
  async function close() {
    closed = true;
    process.off('exit', killAll);
    const exits = [...workers.values()].map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
          child.once('exit', () => resolve(undefined));
          child.kill('SIGTERM');
        }),
    );
    workers.clear();
    await Promise.all(exits);
  }

  /** Process ids of the running Deno children (tests check none outlives close()). */
  const pids = () => [...workers.values()].flatMap(({ child }) => (child.pid ? [child.pid] : []));

  return { serve, close, pids };
}
