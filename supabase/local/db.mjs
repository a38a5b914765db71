// PGlite (Postgres in WASM) with the Supabase platform bootstrap, the real migrations and
// the seed, plus one way to run SQL as an API caller. Shared by the database tests and the
// local stand-in server, so both exercise exactly the same database.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Absolute path of supabase/migrations. */
export const migrationsDir = path.resolve(here, '..', 'migrations');
/** Absolute path of supabase/seed.sql. */
export const seedFile = path.resolve(here, '..', 'seed.sql');
/** Absolute path of supabase/local/bootstrap.sql (platform schemas, roles, publication). */
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
      const match = /^(\d+)_(.+)\.sql$/.exec(file);
      return {
        version: /** @type {RegExpExecArray} */ (match)[1],
        name: /** @type {RegExpExecArray} */ (match)[2],
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
 * Applies migrations not yet recorded in supabase_migrations.schema_migrations.
 * @param {import('@electric-sql/pglite').Transaction} tx
 */
async function applyPendingMigrations(tx) {
  const applied = new Set(
    (await tx.query(`select version from supabase_migrations.schema_migrations`)).rows.map(
      (row) => /** @type {{ version: string }} */ (row).version,
    ),
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
 * @param {{ dataDir?: string, seed?: boolean }} [options]
 * @returns {Promise<PGlite>}
 */
export async function createDatabase({ dataDir, seed = true } = {}) {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pgcrypto } });
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
