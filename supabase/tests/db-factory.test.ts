// packages/supabase-stand-in/db.mjs, the factory the stand-in server shares with these tests: callers
// never see each other's identity however their calls interleave, nothing outlives a call,
// a throwing caller leaves nothing behind, and a database on disk is reopened as it was.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiers } from '../../src/content/tiers';
import {
  bootstrapFile,
  createDatabase,
  migrationsDir,
  seedFile,
  withClaims,
  type Claims,
} from '../../packages/supabase-stand-in/db.mjs';

type Identity = {
  current_user: string;
  uid: string | null;
  role: string | null;
  email: string | null;
  tier: string | null;
  legacy_sub: string;
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'yyc-db-'));
let db: PGlite;

const people = Array.from({ length: 12 }, (_, i) => ({
  id: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  email: `person${i}@example.com`,
  tier: [...tiers, null][i % (tiers.length + 1)] ?? null,
}));

beforeAll(async () => {
  // seed: false, on disk: the seed is skipped, and the reopen test below uses the same files.
  db = await createDatabase({ dataDir, seed: false });
  for (const p of people) {
    await db.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [
      p.id,
      p.email,
    ]);
    if (p.tier) await db.query(`insert into public.user_tiers (user_id, tier) values ($1, $2)`, [p.id, p.tier]);
  }
});

afterAll(async () => {
  if (db && !db.closed) await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const whoAmI = `select current_user, auth.uid() as uid, auth.role() as role, auth.jwt() ->> 'email' as email,
                       current_setting('request.jwt.claim.sub', true) as legacy_sub`;
// Through the caller's own select policy on user_tiers (anon holds no privilege there).
const myTier = `select tier::text from public.user_tiers`;

describe('withClaims', () => {
  it('exports absolute paths of the SQL it applies', () => {
    for (const p of [migrationsDir, seedFile, bootstrapFile]) expect(path.isAbsolute(p)).toBe(true);
    expect(bootstrapFile.endsWith(path.join('packages', 'supabase-stand-in', 'bootstrap.sql'))).toBe(true);
  });

  it('keeps interleaved concurrent callers apart: each sees only its own identity and tier', async () => {
    const calls: { claims: Claims | null; expected: Identity }[] = [];
    for (let round = 0; round < 10; round++) {
      for (const p of people) {
        calls.push({
          claims: { role: 'authenticated', sub: p.id, email: p.email },
          expected: {
            current_user: 'authenticated',
            uid: p.id,
            role: 'authenticated',
            email: p.email,
            tier: p.tier,
            legacy_sub: p.id,
          },
        });
      }
      calls.push({
        claims: null,
        expected: { current_user: 'anon', uid: null, role: 'anon', email: null, tier: null, legacy_sub: '' },
      });
      calls.push({
        claims: { role: 'service_role' },
        expected: {
          current_user: 'service_role',
          uid: null,
          role: 'service_role',
          email: null,
          tier: null,
          legacy_sub: '',
        },
      });
    }
    // Every call awaits between statements, so the event loop interleaves them all.
    const results = await Promise.all(
      calls.map(({ claims }) =>
        withClaims(db, claims, async (tx) => {
          const identity = (await tx.query<Omit<Identity, 'tier'>>(whoAmI)).rows[0];
          const tiers = claims?.sub ? (await tx.query<{ tier: string }>(myTier)).rows : [];
          const again = (await tx.query<{ uid: string | null }>(`select auth.uid() as uid`)).rows[0];
          return { first: { ...identity, tier: tiers[0]?.tier ?? null }, again, tierRows: tiers.length };
        }),
      ),
    );
    expect(results).toHaveLength(calls.length);
    results.forEach((result, i) => {
      expect(result.first).toEqual(calls[i]?.expected);
      expect(result.again?.uid).toEqual(calls[i]?.expected.uid);
      expect(result.tierRows).toBeLessThanOrEqual(1);
    });
  });

  it('leaves nothing behind: afterwards the connection is the superuser with no claims', async () => {
    await withClaims(db, { role: 'authenticated', sub: people[0]?.id }, async (tx) => tx.query(`select 1`));
    const { rows } = await db.query(
      `select current_user, auth.uid() as uid, auth.role() as role, coalesce(current_setting('request.jwt.claims', true), '') as claims`,
    );
    expect(rows).toEqual([{ current_user: 'postgres', uid: null, role: null, claims: '' }]);
  });

  it('rolls back everything when fn throws', async () => {
    const target = people[4];
    await expect(
      withClaims(db, { role: 'service_role' }, async (tx) => {
        await tx.query(`insert into public.user_tiers (user_id, tier) values ($1, 'complete')`, [target?.id]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await db.query(`select * from public.user_tiers where user_id = $1`, [target?.id])).rows).toEqual([]);
    expect((await db.query(`select * from public.tier_audit where target_user = $1`, [target?.id])).rows).toEqual([]);
  });

  it('rolls back when a statement fails, and the next caller is unaffected', async () => {
    await expect(
      withClaims(db, { role: 'authenticated', sub: people[0]?.id }, (tx) =>
        tx.query(`insert into public.user_tiers (user_id, tier) values ($1, 'complete')`, [people[0]?.id]),
      ),
    ).rejects.toMatchObject({ code: '42501' });
    const tier = await withClaims(
      db,
      { role: 'authenticated', sub: people[0]?.id },
      async (tx) => (await tx.query(`select tier from public.user_tiers`)).rows,
    );
    expect(tier).toEqual([{ tier: people[0]?.tier }]);
  });

  it('treats missing claims as anon and refuses unknown roles', async () => {
    const rows = await withClaims(
      db,
      undefined,
      async (tx) => (await tx.query(`select current_user, auth.jwt() as jwt`)).rows,
    );
    expect(rows).toEqual([{ current_user: 'anon', jwt: { role: 'anon' } }]);
    await expect(withClaims(db, { role: 'postgres' as never }, async () => 1)).rejects.toThrow(/unknown role/);
    await expect(withClaims(db, { role: 'supabase_admin' as never }, async () => 1)).rejects.toThrow(/unknown role/);
  });
});

describe('createDatabase', () => {
  it('skips the seed with seed: false', async () => {
    const { rows } = await db.query(
      `select count(*)::int as n from auth.users where email like '%@example.com' and email not like 'person%'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('reopens a database on disk as it was, without re-applying bootstrap, migrations or seed', async () => {
    const before =
      await db.query(`select (select count(*)::int from auth.users) as users, (select count(*)::int from public.tier_audit) as audit,
                                          (select count(*)::int from supabase_migrations.schema_migrations) as migrations`);
    await db.close();
    db = await createDatabase({ dataDir });
    const after =
      await db.query(`select (select count(*)::int from auth.users) as users, (select count(*)::int from public.tier_audit) as audit,
                                         (select count(*)::int from supabase_migrations.schema_migrations) as migrations`);
    expect(after.rows).toEqual(before.rows);
    expect(before.rows[0]).toMatchObject({ users: people.length });
    const tier = await withClaims(
      db,
      { role: 'authenticated', sub: people[1]?.id },
      async (tx) => (await tx.query(`select tier from public.user_tiers`)).rows,
    );
    expect(tier).toEqual([{ tier: people[1]?.tier }]);
  });

  it('refuses to reopen a database that recorded a migration no longer in supabase/migrations, saying to reset', async () => {
    // As a data folder built before the migrations were squashed into the baseline.
    await db.query(
      `insert into supabase_migrations.schema_migrations (version, name) values ('20261122000100', 'staff')`,
    );
    await db.close();
    await expect(createDatabase({ dataDir })).rejects.toThrow(
      /Remote migration versions not found in local migrations directory: 20261122000100\..*npm run supabase:reset/,
    );
  });
});
