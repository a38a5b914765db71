// @ts-check
// Edge Functions for the local stand-in: `/functions/v1/<name>` runs
// supabase/functions/<name>/index.ts in real Deno (the pinned npm `deno` package), as the
// Supabase CLI's edge runtime would: 404 "Function not found" for a name with no index.ts, the
// JWT check unless `[functions.<name>] verify_jwt = false` in supabase/config.toml (401 with the
// runtime's `{ msg }` bodies), and the function's environment limited to the Supabase keys and
// the local development secrets (secrets.mjs). Each function gets one Deno process, started on its first
// request and stopped with the stand-in.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_TOML, keysOf, parseToml, tableAt } from '../config/toml.mjs';
import { LOCAL_FUNCTION_SECRETS, LOCAL_MAIL_API } from './secrets.mjs';
import { answer, jwtError, proxy } from './proxy.mjs';
import { closeWorkers, createWorkerPool, denoExecutable, worker, workerPids } from './workers.mjs';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../keys.mjs';

export { denoExecutable, LOCAL_FUNCTION_SECRETS, LOCAL_MAIL_API };

const here = path.dirname(fileURLToPath(import.meta.url));
export const FUNCTIONS_DIR = path.resolve(here, '..', '..', '..', 'supabase', 'functions');

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

/**
 * What every function's process gets: what Deno itself needs to find its cache, and what hosted
 * functions get (the URL, the keys, SITE_URL, the local development secrets, a test's extras).
 * @param {{ baseUrl: () => string, siteUrl: string, env: Record<string, string> }} options
 * @returns {Record<string, string>}
 */
function functionEnv({ baseUrl, siteUrl, env }) {
  return {
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    SUPABASE_URL: baseUrl(),
    SUPABASE_ANON_KEY: ANON_KEY,
    SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
    SITE_URL: siteUrl,
    ...LOCAL_FUNCTION_SECRETS,
    MAIL_API_URL: `${baseUrl()}${LOCAL_MAIL_API.path}`,
    MAIL_API_KEY: LOCAL_MAIL_API.key,
    MAIL_FROM: LOCAL_MAIL_API.from,
    ...env,
  };
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
  const pool = createWorkerPool({ functionsDir, log, env: () => functionEnv({ baseUrl, siteUrl, env }) });
  const state = { closed: false };

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
    if (!known || state.closed) {
      req.resume();
      return answer(404, 'Function not found');
    }
    // No preflight reaches here: the gateway (gateway/cors.mjs) answers every OPTIONS first, as
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
      port = await worker(pool, name);
    } catch (err) {
      log(`[functions/${name}] ${err instanceof Error ? err.message : err}`);
      req.resume();
      return answer(503, { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' });
    }
    await proxy(req, res, port, `/${sub}${url.search}`);
    return null;
  }

  /** Stops every Deno process and waits until each has exited. */
  async function close() {
    state.closed = true;
    await closeWorkers(pool);
  }

  return { serve, close, pids: () => workerPids(pool) };
}
