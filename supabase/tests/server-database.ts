// The database tests' database on the real PostgreSQL server of the db project's global setup
// (supabase/tests/global-setup.ts): a fresh clone of the template (bootstrap, migrations,
// seed) per test file, reached through one connection, with the small part of PGlite's API the
// tests use (query, exec, transaction with rollback, close), so the same tests read the same
// on either engine. Like PGlite, it runs one thing at a time: a transaction holds the
// connection until it ends, so concurrent callers never see each other's role or claims.
import pg from 'pg';
import { inject } from 'vitest';
import { apiRoles, type Claims } from '../../packages/supabase-stand-in/db.mjs';
import { cloneDatabase, serverAt, TEMPLATES } from '../../packages/supabase-stand-in/test-servers/pg-server.mjs';

export type Row = Record<string, unknown>;
export type Results<T = Row> = { rows: T[]; affectedRows?: number; fields: { name: string }[] };

export interface Queryable {
  query<T = Row>(sql: string, params?: unknown[]): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

export interface Transaction extends Queryable {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export interface Database extends Queryable {
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Values as PGlite (and PostgREST's JSON) give them: bigint as a number (a BigInt beyond 2^53)
 * rather than node-postgres's string.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (text: string) => {
          const value = BigInt(text);
          return Number.isSafeInteger(Number(value)) ? Number(value) : value;
        }
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Rows changed, as PGlite counts them: a select changes none. */
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COPY']);

function results<T>(result: pg.QueryResult): Results<T> {
  return {
    rows: (result.rows ?? []) as T[],
    affectedRows: WRITES.has(result.command) ? (result.rowCount ?? 0) : 0,
    fields: (result.fields ?? []).map((f) => ({ name: f.name })),
  };
}

class ServerDatabase implements Database {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: pg.Client,
    readonly name: string,
  ) {}

  /** Runs fn when everything queued before it is done. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #query<T>(sql: string, params: unknown[] = []): Promise<Results<T>> {
    return results<T>(await this.client.query(sql, params));
  }

  async #exec(sql: string): Promise<Results[]> {
    const out = (await this.client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
    return (Array.isArray(out) ? out : [out]).map((r) => results<Row>(r));
  }

  query<T = Row>(sql: string, params?: unknown[]) {
    return this.#exclusive(() => this.#query<T>(sql, params));
  }

  exec(sql: string) {
    return this.#exclusive(() => this.#exec(sql));
  }

  /** BEGIN; fn; COMMIT, unless fn rolled back (tx.rollback()) or threw (then ROLLBACK). */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#exclusive(async () => {
      await this.client.query('begin');
      let closed = false;
      const open = () => {
        if (closed) throw new Error('Transaction is closed');
      };
      const tx: Transaction = {
        query: async <R = Row>(sql: string, params?: unknown[]) => (open(), this.#query<R>(sql, params)),
        exec: async (sql: string) => (open(), this.#exec(sql)),
        rollback: async () => {
          open();
          await this.client.query('rollback');
          closed = true;
        },
        get closed() {
          return closed;
        },
      };
      try {
        const value = await fn(tx);
        if (!closed) {
          closed = true;
          await this.client.query('commit');
        }
        return value;
      } catch (error) {
        if (!closed) {
          closed = true;
          await this.client.query('rollback');
        }
        throw error;
      }
    });
  }

  close() {
    return this.#exclusive(() => this.client.end());
  }
}

/**
 * A new database for one test file on the db project's PostgreSQL server, connected as
 * `postgres`: a clone of the bootstrap, every migration and the seed; with `seed: false`
 * without the seed; with `migrations: false` the bootstrap alone (apply what you need).
 */
export async function createServerDatabase({
  seed = true,
  migrations = true,
}: { seed?: boolean; migrations?: boolean } = {}): Promise<Database> {
  const server = serverAt(inject('postgres'));
  const template = !migrations ? TEMPLATES.platform : seed ? TEMPLATES.app : TEMPLATES.schema;
  const name = await cloneDatabase(server, { template });
  const client = new pg.Client({ ...server.connection(name), types });
  await client.connect();
  return new ServerDatabase(client, name);
}

/**
 * Runs fn(tx) in one transaction as the given caller, as PostgREST does for each request:
 * `set_config('role', <the JWT's role>, true)` (SET LOCAL ROLE) and
 * `set_config('request.jwt.claims', <the JWT's claims>, true)`, nothing else. claims null or
 * undefined => anon. Rolls back if fn throws.
 */
export async function withClaims<T>(
  db: Database,
  claims: Claims | null | undefined,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const jwt = claims ?? { role: 'anon' };
  const role = jwt.role ?? 'anon';
  if (!apiRoles.includes(role)) throw new Error(`withClaims: unknown role ${JSON.stringify(role)}`);
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
      role,
      JSON.stringify(jwt),
    ]);
    return fn(tx);
  });
}
