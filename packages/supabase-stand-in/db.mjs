// @ts-check
// PGlite (Postgres in WASM) with the Supabase platform bootstrap, the real migrations and
// the seed, plus one way to run SQL as an API caller: the local stand-in's database. The
// database tests build the same files on PostgreSQL 17 (test-servers/pg-server.mjs); the paths and
// listMigrations() here are shared.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Absolute path of supabase/migrations. */
export const migrationsDir = path.resolve(here, '..', '..', 'supabase', 'migrations');
/** Absolute path of supabase/seed.sql. */
export const seedFile = path.resolve(here, '..', '..', 'supabase', 'seed.sql');
/** Absolute path of the stand-in's bootstrap.sql (platform schemas, roles, publication). */
export const bootstrapFile = path.resolve(here, 'bootstrap.sql');

/** The API roles a caller may act as, as PostgREST would switch to them. */
export const apiRoles = /** @type {const} */ (['anon', 'authenticated', 'service_role']);

/**
 * Migration files in apply order, as the Supabase CLI names them: `<version>_<name>.sql`.
 * @returns {{ version: string, name: string, file: string }[]}
 */
export function listMigrations() {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const [, version = '', name = ''] = /^(\d+)_(.+)\.sql$/.exec(file) ?? [];
      return {
        version,
        name,
        file: path.join(migrationsDir, file),
      };
    });
}

/**
 * Runs one SQL file inside the given transaction; a failure names the file.
 * @param {import('@electric-sql/pglite').Transaction} tx
 * @param {string} file
 */
async function runFile(tx, file) {
  try {
    await tx.exec(readFileSync(file, 'utf8'));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${path.relative(path.resolve(here, '..', '..'), file)}: ${message}`, { cause: error });
  }
}

/**
 * Applies migrations not yet recorded in supabase_migrations.schema_migrations. A database
 * that recorded a version with no file in supabase/migrations (built before the migrations
 * were squashed into the baseline, or on another branch) is refused, as the Supabase CLI
 * refuses it (ErrMissingLocal in pkg/migration/list.go, "Remote migration versions not found
 * in local migrations directory", suggested by internal/migration/up/up.go); here the fix
 * is rebuilding the local data folder.
 * @param {import('@electric-sql/pglite').Transaction} tx
 */
async function applyPendingMigrations(tx) {
  const applied = new Set(
    (await tx.query(`select version from supabase_migrations.schema_migrations`)).rows.map(
      (row) => /** @type {{ version: string }} */ (row).version,
    ),
  );
  const files = new Set(listMigrations().map((m) => m.version));
  const missing = [...applied].filter((version) => !files.has(version)).sort();
  if (missing.length > 0)
    throw new Error(
      `Remote migration versions not found in local migrations directory: ${missing.join(', ')}. ` +
        'This local database was built from migrations that are no longer in supabase/migrations ' +
        '(squashed into the baseline, or from another branch): rebuild it with npm run supabase:reset.',
    );
  for (const migration of listMigrations()) {
    if (applied.has(migration.version)) continue;
    await runFile(tx, migration.file);
    await tx.query(`insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)`, [
      migration.version,
      migration.name,
    ]);
  }
}

/**
 * Creates a PGlite database with bootstrap + migrations (+ seed unless seed:false).
 * dataDir undefined => in-memory. If dataDir already holds a database, it is opened without
 * re-applying anything; only migration files added since (not yet recorded in
 * supabase_migrations.schema_migrations) are applied, never the seed.
 * Setup runs in one transaction, so a failing migration leaves no half-built database.
 *
 * New databases (in memory, or in an empty dataDir) start from a template: the first build
 * for a given content of bootstrap.sql, the migrations, seed.sql and PGlite version is
 * dumped (gzip) to the OS temp directory, and later calls load that dump instead of running
 * initdb and every SQL file again (seconds per test file). Any change to those files makes a
 * new template. cache:false, or PGLITE_TEMPLATE_CACHE=off in the environment, always builds
 * from scratch.
 * @param {{ dataDir?: string, seed?: boolean, cache?: boolean }} [options]
 * @returns {Promise<PGlite>}
 */
export async function createDatabase({
  dataDir,
  seed = true,
  cache = process.env.PGLITE_TEMPLATE_CACHE !== 'off',
} = {}) {
  const existing = Boolean(dataDir && existsSync(path.join(dataDir, 'PG_VERSION')));
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  /** @param {Blob} [loadDataDir] */
  const open = (loadDataDir) =>
    PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      ...(loadDataDir ? { loadDataDir } : {}),
      extensions: { pgcrypto },
    });
  if (existing || !cache) return setUp(await open(), seed);

  const template = templateFile(seed);
  if (existsSync(template)) {
    try {
      const db = await open(new Blob([readFileSync(template)]));
      await db.query(`select 1 from supabase_migrations.schema_migrations limit 1`);
      return db;
    } catch {
      // Unreadable or stale template: forget it and build from scratch below.
      rmSync(template, { force: true });
      if (dataDir)
        for (const entry of readdirSync(dataDir)) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    }
  }
  const db = await setUp(await open(), seed);
  try {
    const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
    // Write then rename, so a parallel test worker never loads a half-written template.
    const partial = `${template}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(partial, dump);
    renameSync(partial, template);
  } catch {
    // A template is only a speed-up; the database itself is ready.
  }
  return db;
}

/**
 * Applies bootstrap, pending migrations and (on a fresh database) the seed.
 * @param {PGlite} db
 * @param {boolean} seed
 */
async function setUp(db, seed) {
  try {
    const { rows } = await db.query(`select to_regclass('supabase_migrations.schema_migrations') is not null as ready`);
    const ready = /** @type {{ ready: boolean }} */ (rows[0]).ready;
    await db.transaction(async (tx) => {
      if (!ready) await runFile(tx, bootstrapFile);
      await applyPendingMigrations(tx);
      if (!ready && seed && existsSync(seedFile)) await runFile(tx, seedFile);
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** The installed PGlite version (its package.json is not in the package's exports). */
function pgliteVersion() {
  try {
    let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    return String(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version);
  } catch {
    return 'unknown';
  }
}

/**
 * Where the template for the current SQL files lives: named by a hash of everything that
 * shapes the database, so an edited migration can never load an old template.
 * @param {boolean} seed
 */
function templateFile(seed) {
  const hash = createHash('sha256');
  hash.update(`pglite ${pgliteVersion()}\0seed ${seed}\0`);
  hash.update(readFileSync(bootstrapFile));
  for (const migration of listMigrations())
    hash.update(`\0${migration.version}_${migration.name}\0`).update(readFileSync(migration.file));
  if (seed && existsSync(seedFile)) hash.update('\0seed\0').update(readFileSync(seedFile));
  return path.join(tmpdir(), `yes-you-can-pglite-${hash.digest('hex').slice(0, 24)}.tar.gz`);
}

/**
 * @typedef {{ role?: 'anon' | 'authenticated' | 'service_role', sub?: string, email?: string } & Record<string, unknown>} Claims
 */

/**
 * Runs fn(tx) in one transaction as the given caller: claims null/undefined => role anon with
 * claims {"role":"anon"}; otherwise the role is claims.role ('anon'|'authenticated'|
 * 'service_role', default 'anon'), and request.jwt.claims is the claims as JSON (plus the
 * legacy request.jwt.claim.sub / .role / .email). Everything is transaction-local
 * (`set_config(..., true)`), so nothing outlives the call; PGlite serializes transactions and
 * plain queries, so concurrent callers never see each other's identity. Rolls back if fn
 * throws. Inside fn, a failed statement aborts the transaction: throw (or let it throw)
 * rather than carrying on.
 * @template T
 * @param {PGlite} db
 * @param {Claims | null | undefined} claims
 * @param {(tx: import('@electric-sql/pglite').Transaction) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withClaims(db, claims, fn) {
  const jwt = claims ?? { role: 'anon' };
  const role = jwt.role ?? 'anon';
  if (!apiRoles.includes(role)) throw new Error(`withClaims: unknown role ${JSON.stringify(role)}`);
  const text = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : '');
  return db.transaction(async (tx) => {
    await tx.query(
      `select set_config('role', $1, true),
              set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true),
              set_config('request.jwt.claim.role', $1, true),
              set_config('request.jwt.claim.email', $4, true)`,
      [role, JSON.stringify(jwt), text(jwt.sub), text(jwt.email)],
    );
    return fn(tx);
  });
}
