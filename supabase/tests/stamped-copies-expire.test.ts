// Which stamped copies expire (migration 20261128020000): stamped_copies_to_expire names the
// copies in the stamped-downloads bucket last used before the cutoff, a copy's last use being
// the latest of its object's times and its member's last download of that file version; and
// only the service role may ask.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClaims, attempt, demo, objectMetadata, serviceClaims, userClaims, type Row } from './helpers';
import { createServerDatabase, type Database } from './server-database';

let db: Database;

beforeAll(async () => {
  db = await createServerDatabase();
});

afterAll(async () => {
  await db?.close();
});

const day = (days: number) => `now() - interval '${days} days'`;

/** A stamped copy of `version` of `objectId` for `member`, its object made `madeDaysAgo`. */
async function copy(
  member: string,
  objectId: string,
  version: string,
  madeDaysAgo: number,
  bucket = 'stamped-downloads',
) {
  const name = `${member}/${objectId}/${version}.pdf`;
  await db.query(
    `insert into storage.objects (bucket_id, name, metadata, created_at, updated_at)
     values ($1, $2, $3, ${day(madeDaysAgo)}, ${day(madeDaysAgo)})`,
    [bucket, name, JSON.stringify(objectMetadata('application/pdf', 1000))],
  );
  return name;
}

/** A download of `fileVersion` of `objectId` by `member`, `daysAgo`. */
async function downloaded(member: string, objectId: string, fileVersion: string, daysAgo: number) {
  await db.query(
    `insert into public.download_log (user_id, object_id, file_name, file_version, downloaded_at)
     values ($1, $2, 'ebook/x/guide.pdf', $3, ${day(daysAgo)})`,
    [member, objectId, fileVersion],
  );
}

async function expired(limit = 1000, before = day(90)): Promise<Row[]> {
  const outcome = await attempt(
    db,
    serviceClaims,
    `select name, last_used_at from public.stamped_copies_to_expire(${before}, $1)`,
    [limit],
    { rollback: true, operation: null },
  );
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.rows;
}

describe('stamped_copies_to_expire', () => {
  const names: Record<string, string> = {};

  beforeAll(async () => {
    const me = demo.ebook;
    const other = demo.foundation;
    const ids = Object.fromEntries(
      ['old', 'recent', 'never', 'remade', 'replaced', 'shared', 'odd', 'resources'].map((k) => [k, randomUUID()]),
    );
    names.old = await copy(me, ids.old!, 'v1', 200);
    await downloaded(me, ids.old!, 'v1', 120);
    await downloaded(me, ids.old!, 'v1', 91);
    names.recent = await copy(me, ids.recent!, 'v1', 200);
    await downloaded(me, ids.recent!, 'v1', 120);
    await downloaded(me, ids.recent!, 'v1', 89);
    names.never = await copy(me, ids.never!, 'v1', 91);
    // Made 10 days ago (the last one expired), though its log says 100 days.
    names.remade = await copy(me, ids.remade!, 'v1', 10);
    await downloaded(me, ids.remade!, 'v1', 100);
    // Version v1's copy; only v2 has been downloaded since.
    names.replaced = await copy(me, ids.replaced!, 'v1', 200);
    await downloaded(me, ids.replaced!, 'v2', 1);
    // Another member's download of the same version keeps their copy, not this one.
    names.shared = await copy(me, ids.shared!, 'v1', 200);
    await downloaded(other, ids.shared!, 'v1', 1);
    // A version with characters a file name leaves out, as copy.ts names it.
    names.odd = await copy(me, ids.odd!, '2026-11-27_10_00_00_00', 200);
    await downloaded(me, ids.odd!, '2026-11-27 10:00:00+00', 1);
    // Not a stamped copy at all.
    await copy(me, ids.resources!, 'v1', 200, 'resources');
    names.junk = `junk-${randomUUID()}.pdf`;
    await db.query(
      `insert into storage.objects (bucket_id, name, metadata, created_at, updated_at)
       values ('stamped-downloads', $1, '{}', ${day(95)}, ${day(95)})`,
      [names.junk],
    );
  });

  it('names the copies last used before the cutoff, oldest first, and keeps the rest', async () => {
    const rows = await expired();
    expect(rows.map((r) => r.name)).toEqual([names.replaced, names.shared, names.junk, names.old, names.never]);
    const ages = await db.query<{ name: string; days: number }>(
      `select name, round(extract(epoch from now() - t) / 86400)::int as days
       from public.stamped_copies_to_expire(${day(90)}, 1000) as e(name, t)`,
    );
    expect(Object.fromEntries(ages.rows.map((r) => [r.name, r.days]))).toEqual({
      [names.replaced!]: 200,
      [names.shared!]: 200,
      [names.junk!]: 95,
      [names.old!]: 91,
      [names.never!]: 91,
    });
  });

  it('takes at most p_limit, the oldest', async () => {
    expect((await expired(2)).map((r) => r.name).sort()).toEqual([names.replaced, names.shared].sort());
  });

  it('a copy downloaded 89 days ago stays until the cutoff passes it', async () => {
    expect((await expired(1000, day(88))).map((r) => r.name)).toContain(names.recent);
  });

  it.each([
    ['p_limit 0', day(90), 0],
    ['p_limit 1001', day(90), 1001],
    ['a cutoff in the future', `now() + interval '1 day'`, 10],
    ['no cutoff', 'null', 10],
  ])('refuses %s (22023)', async (_, before, limit) => {
    const outcome = await attempt(
      db,
      serviceClaims,
      `select * from public.stamped_copies_to_expire(${before}, $1)`,
      [limit],
      { rollback: true, operation: null },
    );
    expect(outcome).toMatchObject({ ok: false, code: '22023' });
  });

  it.each([
    ['anon', anonClaims],
    ['a member', userClaims(demo.ebook)],
    ['staff', userClaims(demo.staff)],
  ])('refuses %s (42501), in public and in private', async (_, claims) => {
    for (const fn of ['public', 'private']) {
      const outcome = await attempt(db, claims, `select * from ${fn}.stamped_copies_to_expire(${day(90)}, 10)`, [], {
        rollback: true,
        operation: null,
      });
      expect(outcome, fn).toMatchObject({ ok: false, code: '42501' });
    }
  });

  it('only service_role may execute either function', async () => {
    const { rows } = await db.query<{ fn: string; anon: boolean; authenticated: boolean; service_role: boolean }>(
      `select p.oid::regprocedure::text as fn,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated,
              has_function_privilege('service_role', p.oid, 'EXECUTE') as service_role
       from pg_proc p where p.proname = 'stamped_copies_to_expire' order by 1`,
    );
    expect(rows).toEqual([
      {
        fn: 'private.stamped_copies_to_expire(timestamp with time zone,integer)',
        anon: false,
        authenticated: false,
        service_role: true,
      },
      {
        fn: 'stamped_copies_to_expire(timestamp with time zone,integer)',
        anon: false,
        authenticated: false,
        service_role: true,
      },
    ]);
  });
});
