// The database owns the profile row (the baseline migration, section 5): every new auth user
// gets one from the on_auth_user_created trigger, users who signed up before the baseline ran
// (a hosted project's auth works before its first `db push`) get one from its backfill, and a
// signed-in user can update theirs but never insert one.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations } from '../../packages/supabase-stand-in/db.mjs';
import { attempt, userClaims } from './helpers';
import { createServerDatabase, type Database } from './server-database';

const baselineVersion = '20261125000000';

type Profile = { id: string; user_id: string; display_name: string | null; avatar_url: string | null };

async function profileOf(db: Database, id: string): Promise<Profile[]> {
  const { rows } = await db.query<Profile>(
    `select id, user_id, display_name, avatar_url from public.profiles where id = $1`,
    [id],
  );
  return rows;
}

async function createUser(db: Database, id: string, email: string) {
  await db.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [
    id,
    email,
  ]);
}

describe('on a migrated database', () => {
  let db: Database;

  beforeAll(async () => {
    db = await createServerDatabase({ seed: false });
  });

  afterAll(async () => {
    await db?.close();
  });

  it('a new auth user gets an empty profile row with id = user_id = their id', async () => {
    const id = '20000000-0000-4000-8000-000000000001';
    expect(await profileOf(db, id)).toEqual([]);
    await createUser(db, id, 'new@example.com');
    expect(await profileOf(db, id)).toEqual([{ id, user_id: id, display_name: null, avatar_url: null }]);
  });

  it('the row is created when the auth server, which has no privilege on public tables, adds the user', async () => {
    const id = '20000000-0000-4000-8000-000000000002';
    await db.transaction(async (tx) => {
      // As on the platform: the auth server's role may write auth.users, nothing in public.
      await tx.exec(`
        grant usage on schema auth to supabase_auth_admin;
        grant insert on auth.users to supabase_auth_admin;
        set local role supabase_auth_admin;`);
      const { rows } = await tx.query<{ can: boolean }>(
        `select has_table_privilege('public.profiles', 'INSERT') as can`,
      );
      expect(rows).toEqual([{ can: false }]);
      await tx.query(
        `insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`,
        [id, 'via-auth@example.com'],
      );
    });
    expect(await profileOf(db, id)).toEqual([{ id, user_id: id, display_name: null, avatar_url: null }]);
  });

  it('a signed-in user cannot insert a profile row, even when they have none', async () => {
    const id = '20000000-0000-4000-8000-000000000003';
    await createUser(db, id, 'rowless@example.com');
    await db.query(`delete from public.profiles where id = $1`, [id]);
    const outcome = await attempt(
      db,
      userClaims(id),
      `insert into public.profiles (id, user_id, display_name) values ($1, $1, 'Mine') returning id`,
      [id],
      { rollback: false },
    );
    expect(outcome).toMatchObject({ ok: false, code: '42501' });
    expect(await profileOf(db, id)).toEqual([]);
  });

  it('a signed-in user updates their own row', async () => {
    const id = '20000000-0000-4000-8000-000000000004';
    await createUser(db, id, 'updater@example.com');
    const outcome = await attempt(
      db,
      userClaims(id),
      `update public.profiles set display_name = 'Named' where user_id = $1 returning id`,
      [id],
      { rollback: false },
    );
    expect(outcome).toMatchObject({ ok: true, rows: [{ id }] });
    expect(await profileOf(db, id)).toEqual([{ id, user_id: id, display_name: 'Named', avatar_url: null }]);
  });

  it('the API roles cannot call handle_new_user', async () => {
    const { rows } = await db.query<{ role: string; can: boolean }>(
      `select r as role, has_function_privilege(r, 'public.handle_new_user()', 'EXECUTE') as can
       from unnest(array['anon', 'authenticated', 'service_role']) r order by r`,
    );
    expect(rows).toEqual([
      { role: 'anon', can: false },
      { role: 'authenticated', can: false },
      { role: 'service_role', can: false },
    ]);
  });
});

describe('the baseline migration', () => {
  let db: Database;
  const baseline = listMigrations().find((m) => m.version === baselineVersion);
  const early = '30000000-0000-4000-8000-000000000001';
  const later = '30000000-0000-4000-8000-000000000002';

  beforeAll(async () => {
    // The platform alone, with users who signed up before the first migration ran.
    db = await createServerDatabase({ migrations: false });
    await createUser(db, early, 'early@example.com');
    await createUser(db, later, 'later@example.com');
  });

  afterAll(async () => {
    await db?.close();
  });

  it('is the first migration', () => {
    expect(listMigrations()[0]?.version).toBe(baselineVersion);
  });

  it('backfills a row for every user who existed before it', async () => {
    expect(baseline).toBeDefined();
    expect(await db.query(`select to_regclass('public.profiles') as t`)).toMatchObject({ rows: [{ t: null }] });
    await db.exec(readFileSync(baseline!.file, 'utf8'));
    expect(await profileOf(db, early)).toEqual([{ id: early, user_id: early, display_name: null, avatar_url: null }]);
    expect(await profileOf(db, later)).toEqual([{ id: later, user_id: later, display_name: null, avatar_url: null }]);
    const { rows } = await db.query<{ missing: number }>(
      `select count(*)::int as missing from auth.users u where not exists (select 1 from public.profiles p where p.id = u.id)`,
    );
    expect(rows).toEqual([{ missing: 0 }]);
  });
});
