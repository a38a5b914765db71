// Shared helpers for the database tests: the demo accounts from seed.sql, a way to attempt
// one statement as an API caller, and a superuser snapshot of everything a caller could
// change, so a refused case can prove that nothing changed.
import type { Claims } from '../../packages/supabase-stand-in/db.mjs';
import { withClaims, type Database, type Transaction } from './server-database';

export type Row = Record<string, unknown>;

/** Demo accounts of supabase/seed.sql (fixed ids). */
export const demo = {
  ebook: '00000000-0000-4000-8000-000000000001',
  foundation: '00000000-0000-4000-8000-000000000002',
  accelerated: '00000000-0000-4000-8000-000000000003',
  complete: '00000000-0000-4000-8000-000000000004',
  notier: '00000000-0000-4000-8000-000000000005',
  staff: '00000000-0000-4000-8000-000000000006',
} as const;

export type DemoName = keyof typeof demo;

/** The JWT claims the auth server would issue to a signed-in demo user. */
export function userClaims(id: string, email = `${id}@example.com`): Claims {
  return { role: 'authenticated', sub: id, email, aud: 'authenticated', app_metadata: { provider: 'email' } };
}

export const anonClaims: Claims = { role: 'anon' };
export const serviceClaims: Claims = { role: 'service_role' };

export type Outcome =
  { ok: true; rows: Row[]; affected: number } | { ok: false; error: string; code: string | undefined };

class Rollback extends Error {
  constructor(
    readonly rows: Row[],
    readonly affected: number,
  ) {
    super('rollback');
  }
}

/**
 * Runs one statement as `claims`. With rollback, a successful statement is undone after its
 * result is captured (allowed cases leave the fixtures as they were); without, it commits
 * (refused cases: if a policy wrongly let it through, the snapshot shows the change).
 * `afterwards` runs in the same transaction after the statement (e.g. `reset role` and read
 * back as the superuser what the statement did, before it is rolled back).
 * `operation` is the storage.operation the storage server sets for the route it serves
 * (default: an upload, which is how storage writes its rows); null leaves it unset, as a
 * write that does not come through Storage.
 */
export async function attempt(
  db: Database,
  claims: Claims | null,
  sql: string,
  params: unknown[] = [],
  {
    rollback,
    afterwards,
    operation = UPLOAD,
  }: { rollback: boolean; afterwards?: (tx: Transaction) => Promise<void>; operation?: string | null },
): Promise<Outcome> {
  try {
    const result = await withClaims(db, claims, async (tx) => {
      if (operation !== null) await tx.query(`select set_config('storage.operation', $1, true)`, [operation]);
      const res = await tx.query<Row>(sql, params);
      const affected = res.affectedRows ?? 0;
      if (afterwards) await afterwards(tx);
      if (rollback) throw new Rollback(res.rows, affected);
      return { rows: res.rows, affected };
    });
    return { ok: true, ...result };
  } catch (error) {
    if (error instanceof Rollback) return { ok: true, rows: error.rows, affected: error.affected };
    const e = error as { message?: string; code?: string };
    return { ok: false, error: e.message ?? String(error), code: e.code };
  }
}

/** Everything an API caller could change, read as the superuser, as one comparable string. */
export async function snapshot(db: Database): Promise<string> {
  const { rows } = await db.query<{ s: unknown }>(`
    select jsonb_build_object(
      'profiles', (select coalesce(jsonb_agg(to_jsonb(p) order by p.id), '[]') from public.profiles p),
      'user_tiers', (select coalesce(jsonb_agg(to_jsonb(t) order by t.user_id), '[]') from public.user_tiers t),
      'staff', (select coalesce(jsonb_agg(to_jsonb(s) order by s.user_id), '[]') from public.staff s),
      'tier_audit', (select coalesce(jsonb_agg(to_jsonb(a) order by a.id), '[]') from public.tier_audit a),
      'objects', (select coalesce(jsonb_agg(to_jsonb(o) order by o.bucket_id, o.name), '[]') from storage.objects o),
      'buckets', (select coalesce(jsonb_agg(to_jsonb(b) order by b.id), '[]') from storage.buckets b),
      'users', (select coalesce(jsonb_agg(to_jsonb(u) order by u.id), '[]') from auth.users u)
    ) as s`);
  return JSON.stringify(rows[0]?.s);
}

/** storage.operation of hosted Storage's routes (src/http/routes/operations.ts there). */
export const UPLOAD = 'storage.object.upload';
export const UPLOAD_UPDATE = 'storage.object.upload_update';
export const COPY = 'storage.object.copy';
export const MOVE = 'storage.object.move';

/** Storage metadata of a saved object, as the storage server writes it (also the row a copy tests). */
export function objectMetadata(mimetype: string, size: number): Row {
  return {
    mimetype,
    size,
    contentLength: size,
    eTag: '"test"',
    cacheControl: 'max-age=3600',
    lastModified: new Date(0).toISOString(),
  };
}

/** The metadata of the row hosted Storage tests against RLS before an upload. */
export function uploadCheckMetadata(mimetype: string, contentLength: number): Row {
  return { mimetype, contentLength };
}

/** Inserts a storage object as the superuser (fixtures: what earlier uploads left). */
export async function putObject(db: Database, bucket: string, name: string, owner: string | null, metadata: Row) {
  await db.query(
    `insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ($1, $2, $3::text::uuid, $3::text, $4)`,
    [bucket, name, owner, JSON.stringify(metadata)],
  );
}
