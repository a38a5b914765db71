#!/usr/bin/env node
// @ts-check
// The local stand-in for Supabase: one Node HTTP server on PGlite that serves the Auth,
// REST, Storage and Realtime APIs the app uses, at the same URL, keys and JWT secret as
// `supabase start`. Not a mock: every data request runs in Postgres as the caller's role
// with the caller's JWT claims (db.mjs withClaims), so the migrations' RLS decides.
//
//   node packages/supabase-stand-in/server.mjs [--port N] [--host H] [--data DIR] [--reset] [--reset-only]
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.mjs';
import { createAuthContext } from './auth/context.mjs';
import { SITE_URL } from './auth/redirects.mjs';
import { startLocalCron } from './cron.mjs';
import { repoAuthConfig } from './config/auth.mjs';
import { createDatabase, withClaims } from './db.mjs';
import { createFunctionsService } from './functions/service.mjs';
import { jsonResponse } from './http.mjs';
import { ANON_KEY, DEMO_ACCOUNTS, DEMO_PASSWORD, SERVICE_ROLE_KEY } from './keys.mjs';
import { createRealtimeService } from './realtime/service.mjs';
import { createRestContext } from './rest/context.mjs';
import { SchemaCache } from './rest/schema-cache.mjs';
import { makeSampleFile, MIME_BY_EXTENSION, sampleResourceFiles } from './sample-files.mjs';
import { createStorageContext } from './storage/context.mjs';
import { objectFile } from './storage/names.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Default data folder (git-ignored): PGlite files in db/, object bytes in storage/. */
export const DEFAULT_DATA_DIR = path.resolve(here, '.data');
/** The data folder of older checkouts (inside supabase/): moved to the default on first start. */
export const OLD_DATA_DIR = path.resolve(here, '..', '..', 'supabase', '.local-data');

/**
 * Moves a developer's data from the old folder to the default one, once, so the accounts and
 * files they had are still there. Nothing moves when the new folder exists already.
 * @param {string} from
 * @param {string} to
 * @returns {Promise<boolean>} whether it moved
 */
export async function adoptOldDataDir(from, to) {
  if (!existsSync(from) || existsSync(to)) return false;
  await mkdir(path.dirname(to), { recursive: true });
  await rename(from, to);
  return true;
}
const standInSql = path.join(here, 'stand-in.sql');

/**
 * Uploads the sample files of every resource card (service_role, like a seed script would).
 * @param {import('@electric-sql/pglite').PGlite} db
 * @param {string} storageRoot
 * @returns {Promise<number>} how many objects were written
 */
async function seedSampleFiles(db, storageRoot) {
  let count = 0;
  await withClaims(db, { role: 'service_role', iss: 'supabase-demo' }, async (tx) => {
    for (const card of sampleResourceFiles) {
      for (const file of card.sampleFiles) {
        const name = `${card.tier}/${card.slug}/${file}`;
        const bytes = makeSampleFile(file, card);
        const mimetype = MIME_BY_EXTENSION[/** @type {keyof typeof MIME_BY_EXTENSION} */ (file.split('.').pop())];
        const metadata = {
          eTag: `"${createHash('md5').update(bytes).digest('hex')}"`,
          size: bytes.length,
          mimetype,
          cacheControl: 'max-age=3600',
          lastModified: new Date().toISOString(),
          contentLength: bytes.length,
          httpStatusCode: 200,
        };
        const r = await tx.query(
          `insert into storage.objects (bucket_id, name, metadata, version) values ('resources', $1, $2::jsonb, 'sample')
           on conflict (bucket_id, name) do nothing returning id`,
          [name, JSON.stringify(metadata)],
        );
        if (r.rows.length === 0) continue;
        const dest = objectFile(storageRoot, 'resources', name);
        await mkdir(path.dirname(dest), { recursive: true });
        await writeFile(dest, bytes);
        count++;
      }
    }
  });
  return count;
}

/**
 * The database and the folder of object bytes: in `dataDir` (emptied first with `reset`; the
 * default one first adopts the old default folder's data), else in memory and a temporary
 * folder; the stand-in's own tables, and the sample files on a fresh start.
 * @param {{ dataDir: string | null | undefined, reset: boolean, seedSamples: boolean, log: (m: string) => void }} options
 */
async function openData({ dataDir, reset, seedSamples, log }) {
  if (dataDir === DEFAULT_DATA_DIR && (await adoptOldDataDir(OLD_DATA_DIR, DEFAULT_DATA_DIR))) {
    log(`Moved the local data from ${OLD_DATA_DIR} to ${DEFAULT_DATA_DIR}.`);
  }
  if (reset && dataDir) await rm(dataDir, { recursive: true, force: true });
  const dbDir = dataDir ? path.join(dataDir, 'db') : undefined;
  const fresh = !dbDir || !existsSync(path.join(dbDir, 'PG_VERSION'));
  const storageRoot = dataDir
    ? path.join(dataDir, 'storage')
    : await mkdtemp(path.join(os.tmpdir(), 'local-supabase-storage-'));

  const db = await createDatabase({ dataDir: dbDir });
  try {
    await db.exec(readFileSync(standInSql, 'utf8'));
    if (fresh && seedSamples) {
      const n = await seedSampleFiles(db, storageRoot);
      log(`[local supabase] uploaded ${n} sample files to the resources bucket`);
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  return { db, storageRoot };
}

/**
 * The Node server: hono serves its requests, realtime its websocket upgrades.
 * @param {ReturnType<typeof import('./app.mjs').createApp>} app
 * @param {{ upgrade: (req: import('node:http').IncomingMessage, socket: import('node:stream').Duplex, head: Buffer, url: URL) => Promise<void> }} realtime
 */
function createNodeServer(app, realtime) {
  const server = createServer(
    getRequestListener(app.fetch, {
      // Services read and drain request bodies themselves (size caps, draining on error).
      autoCleanupIncoming: false,
      // The process's Request and Response stay Node's own (tests share it).
      overrideGlobalObjects: false,
      hostname: 'local',
      // A request target @hono/node-server cannot make a URL of.
      errorHandler: () => jsonResponse(400, { message: 'Bad request URL' }),
    }),
  );
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  server.on('upgrade', (req, socket, head) => {
    let url;
    try {
      url = new URL(req.url ?? '/', 'http://local');
    } catch {
      socket.destroy();
      return;
    }
    socket.on('error', () => socket.destroy());
    if (url.pathname === '/realtime/v1/websocket' || url.pathname === '/realtime/v1/websocket/')
      realtime.upgrade(req, socket, head, url).catch(() => socket.destroy());
    else {
      socket.write('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      socket.destroy();
    }
  });
  return server;
}

/**
 * Starts the stand-in.
 * @param {{ port?: number, host?: string, dataDir?: string | null, reset?: boolean, quiet?: boolean,
 *   seedSampleFiles?: boolean, jwtExpiry?: number, siteUrl?: string, functionEnv?: Record<string, string>,
 *   functionsDir?: string, functionsConfigToml?: string,
 *   authConfig?: Partial<import('./config/auth.mjs').AuthConfig>, clock?: () => number,
 *   mailApi?: { dailyQuota?: number }, fileSizeLimit?: number }} [options]
 *   dataDir: folder for the database and object bytes; null/undefined => in memory (a temp folder
 *   for bytes, removed on close). jwtExpiry: access-token lifetime in seconds (default env
 *   LOCAL_SUPABASE_JWT_EXPIRY or 3600). port 0 picks a free port. functionEnv, functionsDir,
 *   functionsConfigToml: extra environment for the Edge Functions, and another functions folder
 *   and config.toml text than supabase/'s (tests). authConfig: auth settings over supabase/config.toml's
 *   (tests of the other posture; `emailSent` a small e-mail budget). clock: the e-mail budget's
 *   clock, epoch ms (tests move it on to free the budget). mailApi: the transactional mail API's
 *   daily quota (tests of its 429). fileSizeLimit: the global upload limit in bytes over
 *   config.toml's `[storage] file_size_limit` (tests of a limit below a bucket's).
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void>, db: import('@electric-sql/pglite').PGlite,
 *   functionPids: () => number[] }>}
 */
export async function startServer({
  port = 54321,
  host = '127.0.0.1',
  dataDir,
  reset = false,
  quiet = false,
  seedSampleFiles: seedSamples = true,
  jwtExpiry = Number(process.env.LOCAL_SUPABASE_JWT_EXPIRY) || 3600,
  siteUrl = process.env.LOCAL_SUPABASE_SITE_URL || SITE_URL,
  functionEnv = {},
  functionsDir,
  functionsConfigToml,
  authConfig = {},
  clock,
  mailApi = {},
  fileSizeLimit,
} = {}) {
  const log = quiet ? () => {} : (/** @type {string} */ m) => console.log(m);
  const { db, storageRoot } = await openData({ dataDir, reset, seedSamples, log });

  let baseUrl = '';
  const schema = new SchemaCache(db);
  const auth = createAuthContext({
    db,
    baseUrl: () => baseUrl,
    jwtExpiry,
    siteUrl,
    log,
    config: { ...repoAuthConfig(), ...authConfig },
    ...(clock ? { clock } : {}),
  });
  const rest = createRestContext({ db, withClaims, schema });
  const storage = createStorageContext({ db, withClaims, root: storageRoot, fileSizeLimit });
  const realtime = createRealtimeService({ db, withClaims, schema, log });
  await realtime.start();
  // Deno starts on a function's first request, so the stand-in's own start stays fast.
  const functions = createFunctionsService({
    baseUrl: () => baseUrl,
    siteUrl,
    log,
    env: functionEnv,
    ...(functionsDir ? { functionsDir } : {}),
    ...(functionsConfigToml !== undefined ? { configToml: functionsConfigToml } : {}),
  });

  const app = createApp({ auth, rest, storage, functions, log, mailApi });
  // The Node server stays ours: hono serves its requests, realtime its websocket upgrades.
  const server = createNodeServer(app, realtime);

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  /** @type {Promise<void> | null} */
  let closing = null;
  async function close() {
    if (!closing) {
      closing = (async () => {
        await realtime.close();
        await functions.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(() => resolve(undefined)));
        await db.close();
        if (!dataDir) await rm(storageRoot, { recursive: true, force: true });
      })();
    }
    return closing;
  }

  // db: the superuser connection, for tests that set up what no API may (e.g. a probe policy).
  return { url: baseUrl, port: address.port, close, db, functionPids: functions.pids };
}

/**
 * The banner printed by the CLI and by `npm run dev`.
 * @param {string} url
 */
export function describeStandIn(url) {
  const rows = DEMO_ACCOUNTS.map((a) => `  ${a.email.padEnd(26)} ${(a.tier ?? '-').padEnd(12)} ${a.note}`);
  return [
    `Local Supabase stand-in: ${url}`,
    `  anon key:         ${ANON_KEY}`,
    `  service_role key: ${SERVICE_ROLE_KEY}  (never give it to a browser)`,
    `  mail inbox:       ${url}/inbox?email=…  (send header apikey: <anon key>)`,
    `  edge functions:   ${url}/functions/v1/<name>  (run in Deno on first request)`,
    '',
    `Demo accounts (password ${DEMO_PASSWORD}):`,
    `  ${'e-mail'.padEnd(26)} ${'tier'.padEnd(12)} note`,
    ...rows,
  ].join('\n');
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ port: number, host: string, dataDir: string, reset: boolean, resetOnly: boolean, cron: boolean }} */
  const opts = {
    port: Number(process.env.LOCAL_SUPABASE_PORT) || 54321,
    host: '127.0.0.1',
    dataDir: DEFAULT_DATA_DIR,
    reset: false,
    resetOnly: false,
    cron: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--port') opts.port = Number(value());
    else if (arg === '--host') opts.host = value();
    else if (arg === '--data') opts.dataDir = path.resolve(value());
    else if (arg === '--reset') opts.reset = true;
    else if (arg === '--reset-only') opts.resetOnly = true;
    else if (arg === '--cron') opts.cron = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(
        'usage: node packages/supabase-stand-in/server.mjs [--port N] [--host H] [--data DIR] [--reset] [--reset-only] [--cron]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error('--port must be 0..65535');
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.resetOnly) {
    await rm(opts.dataDir, { recursive: true, force: true });
    const srv = await startServer({ port: 0, host: opts.host, dataDir: opts.dataDir });
    await srv.close();
    console.log(
      `Reset ${path.relative(process.cwd(), opts.dataDir) || opts.dataDir}: fresh database, seed and sample files.`,
    );
    return;
  }
  const srv = await startServer({ port: opts.port, host: opts.host, dataDir: opts.dataDir, reset: opts.reset });
  // --cron (npm run supabase:local): Supabase Cron's invitation schedule (cron.mjs). Tests and the
  // e2e stand-in run without it and make the call themselves when they mean to.
  const stopCron = opts.cron ? startLocalCron({ baseUrl: srv.url, db: srv.db, log: (m) => console.log(m) }) : () => {};
  console.log(describeStandIn(srv.url));
  console.log(
    `\nData in ${path.relative(process.cwd(), opts.dataDir) || opts.dataDir} (npm run supabase:reset starts over). Ctrl-C stops.`,
  );
  let stopping = false;
  /** @param {NodeJS.Signals} signal */
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[local supabase] ${signal}: stopping`);
    stopCron();
    srv.close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`[local supabase] ${err?.message ?? err}`);
    if (err?.code === 'EADDRINUSE')
      console.error('Port in use: is another stand-in or `supabase start` running? Try --port.');
    process.exit(1);
  });
}
