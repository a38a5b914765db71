// What hosted Storage would let through that the earlier policies did not see: a copy or move
// into the public avatars bucket (Storage skips bucket limits on those routes), the row shape
// hosted Storage tests before an upload ({mimetype, contentLength}, no size), and the default
// privileges every future table, function and sequence would get.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attempt,
  COPY,
  demo,
  MOVE,
  objectMetadata,
  putObject,
  snapshot,
  UPLOAD,
  UPLOAD_UPDATE,
  uploadCheckMetadata,
  userClaims,
} from './helpers';
import { createServerDatabase, type Database } from './server-database';

const me = demo.ebook;
const asMe = userClaims(me, 'ebook@example.com');
const asStaff = userClaims(demo.staff, 'staff@example.com');
const insertObject = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
                      values ($1, $2, $3::text::uuid, $3::text, $4) returning name`;
const upsertObject = `${insertObject.replace(' returning name', '')}
                      on conflict (bucket_id, name) do update set metadata = excluded.metadata returning name`;
const png = JSON.stringify(objectMetadata('image/png', 1024));

let db: Database;

beforeAll(async () => {
  db = await createServerDatabase();
  await putObject(db, 'avatars', `${me}/avatar.png`, me, objectMetadata('image/png', 1024));
  await putObject(db, 'resources', 'ebook/sample/ebook-guide.pdf', null, objectMetadata('application/pdf', 4096));
});

afterAll(async () => {
  await db?.close();
});

/** Runs a statement that must be refused, and proves nothing changed. */
async function expectRefused(...args: Parameters<typeof attempt>) {
  const before = await snapshot(db);
  const outcome = await attempt(...args);
  if (outcome.ok) expect(outcome.affected).toBe(0);
  else expect(outcome.code, outcome.error).toBe('42501');
  expect(await snapshot(db)).toBe(before);
}

describe('avatars are written only through the upload routes', () => {
  it('refuses a copy into avatars, even of a small image to the caller’s own path', async () => {
    await expectRefused(db, asMe, insertObject, ['avatars', `${me}/avatar.gif`, me, png], {
      rollback: false,
      operation: COPY,
    });
    await expectRefused(db, asMe, upsertObject, ['avatars', `${me}/avatar.png`, me, png], {
      rollback: false,
      operation: COPY,
    });
  });

  it('refuses a copy of a paid PDF relabelled as an image', async () => {
    const relabelled = JSON.stringify({ ...objectMetadata('application/pdf', 4096), mimetype: 'image/png' });
    await expectRefused(db, asMe, insertObject, ['avatars', `${me}/avatar.jpg`, me, relabelled], {
      rollback: false,
      operation: COPY,
    });
  });

  it('refuses a move (rename) within avatars and a move out of resources into avatars', async () => {
    await expectRefused(
      db,
      asMe,
      `update storage.objects set name = $2 where bucket_id = 'avatars' and name = $1`,
      [`${me}/avatar.png`, `${me}/avatar.webp`],
      { rollback: false, operation: MOVE },
    );
    await expectRefused(
      db,
      asStaff,
      `update storage.objects set bucket_id = 'avatars', name = $1 where bucket_id = 'resources' and name = 'ebook/sample/ebook-guide.pdf'`,
      [`${demo.staff}/avatar.png`],
      { rollback: false, operation: MOVE },
    );
  });

  it('refuses a write that does not come through Storage at all', async () => {
    await expectRefused(db, asMe, insertObject, ['avatars', `${me}/avatar.gif`, me, png], {
      rollback: false,
      operation: null,
    });
  });

  it('still allows an upload, an upsert and an overwrite of the caller’s own avatar', async () => {
    const check = JSON.stringify(uploadCheckMetadata('image/gif', 1024));
    expect(
      await attempt(db, asMe, insertObject, ['avatars', `${me}/avatar.gif`, me, check], {
        rollback: true,
        operation: UPLOAD,
      }),
    ).toMatchObject({ ok: true, rows: [{ name: `${me}/avatar.gif` }] });
    expect(
      await attempt(db, asMe, upsertObject, ['avatars', `${me}/avatar.png`, me, check], {
        rollback: true,
        operation: UPLOAD,
      }),
    ).toMatchObject({ ok: true, rows: [{ name: `${me}/avatar.png` }] });
    expect(
      await attempt(
        db,
        asMe,
        `update storage.objects set metadata = $2 where bucket_id = 'avatars' and name = $1 returning name`,
        [`${me}/avatar.png`, check],
        { rollback: true, operation: UPLOAD_UPDATE },
      ),
    ).toMatchObject({ ok: true, rows: [{ name: `${me}/avatar.png` }] });
  });

  it('leaves the other buckets alone: staff may still copy within resources', async () => {
    expect(
      await attempt(
        db,
        asStaff,
        insertObject,
        ['resources', 'ebook/sample/copy.pdf', demo.staff, JSON.stringify(objectMetadata('application/pdf', 4096))],
        { rollback: true, operation: COPY },
      ),
    ).toMatchObject({ ok: true, rows: [{ name: 'ebook/sample/copy.pdf' }] });
  });
});

describe('the policies read the metadata hosted Storage tests ({mimetype, contentLength})', () => {
  it('refuses a 3 MB avatar described as hosted Storage describes an upload', async () => {
    await expectRefused(
      db,
      asMe,
      insertObject,
      ['avatars', `${me}/avatar.jpg`, me, JSON.stringify(uploadCheckMetadata('image/jpeg', 3 * 1024 * 1024))],
      { rollback: false },
    );
    await expectRefused(
      db,
      asMe,
      upsertObject,
      ['avatars', `${me}/avatar.png`, me, JSON.stringify(uploadCheckMetadata('image/png', 2 * 1024 * 1024 + 1))],
      { rollback: false },
    );
  });

  it('refuses a contentLength that is not a number', async () => {
    await expectRefused(
      db,
      asMe,
      insertObject,
      ['avatars', `${me}/avatar.jpg`, me, JSON.stringify({ mimetype: 'image/jpeg', contentLength: '99999999999' })],
      { rollback: false },
    );
  });

  it('accepts an avatar of exactly 2 MB', async () => {
    expect(
      await attempt(
        db,
        asMe,
        insertObject,
        ['avatars', `${me}/avatar.jpg`, me, JSON.stringify(uploadCheckMetadata('image/jpeg', 2 * 1024 * 1024))],
        { rollback: true },
      ),
    ).toMatchObject({ ok: true });
  });

  it('object_fits_bucket reads contentLength and size', async () => {
    const { rows } = await db.query<{ fits: boolean }>(
      `select private.object_fits_bucket('avatars', m) as fits from unnest($1::jsonb[]) with ordinality as t(m, i) order by i`,
      [
        [
          { mimetype: 'image/png', contentLength: 100 },
          { mimetype: 'image/png', contentLength: 3 * 1024 * 1024 },
          { mimetype: 'image/png', size: 3 * 1024 * 1024 },
          { mimetype: 'image/png', size: 100, contentLength: 3 * 1024 * 1024 },
          { mimetype: 'image/svg+xml', contentLength: 100 },
          {},
        ].map((m) => JSON.stringify(m)),
      ],
    );
    expect(rows.map((r) => r.fits)).toEqual([true, false, false, false, false, true]);
  });
});

describe('default privileges', () => {
  it('a table, sequence and function a later migration creates in public give anon and authenticated no grant of their own', async () => {
    await db.transaction(async (tx) => {
      await tx.exec(`
        create table public.probe_table (id int);
        create sequence public.probe_sequence;
        create function public.probe_function() returns int language sql as 'select 1';`);
      const { rows } = await tx.query<{ role: string; privileges: string[] }>(`
        select r.role, array_remove(array[
          case when has_table_privilege(r.role, 'public.probe_table', 'select, insert, update, delete, truncate, references, trigger') then 'table' end,
          case when has_sequence_privilege(r.role, 'public.probe_sequence', 'usage, select, update') then 'sequence' end,
          case when exists (select 1 from aclexplode((select proacl from pg_proc where oid = 'public.probe_function()'::regprocedure)) a
                            where a.grantee = r.role::regrole) then 'function' end
        ], null) as privileges
        from unnest(array['anon', 'authenticated', 'service_role']) as r(role)
        order by r.role`);
      expect(rows).toEqual([
        { role: 'anon', privileges: [] },
        { role: 'authenticated', privileges: [] },
        { role: 'service_role', privileges: ['table', 'sequence', 'function'] },
      ]);
      await tx.rollback();
    });
  });

  // A global `revoke execute on functions from public` would also close every function that
  // enabling an extension (or pgTAP) creates later. PUBLIC keeps PostgreSQL's default;
  // our own functions are closed one by one, and schema-guards' allow-list test catches a
  // forgotten one (a public function like the probe above would show up there).
  it('a function postgres creates in extensions after the migrations, as enabling an extension does, is callable by anon and authenticated', async () => {
    const called = await db.transaction(async (tx) => {
      await tx.exec(`create function extensions.probe_later() returns int language sql as 'select 42';`);
      const values: Record<string, unknown> = {};
      for (const role of ['anon', 'authenticated']) {
        await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
          role,
          JSON.stringify(role === 'anon' ? { role } : userClaims(me)),
        ]);
        values[role] = (await tx.query<{ v: number }>(`select extensions.probe_later() as v`)).rows[0]?.v;
        await tx.exec(`reset role`);
      }
      await tx.rollback();
      return values;
    });
    expect(called).toEqual({ anon: 42, authenticated: 42 });
  });
});
