// Hostile inputs: what a curious or malicious signed-in user would try with the anon key and
// their own JWT. Every attempt must be refused with nothing changed (superuser snapshot
// before and after); a few boundary cases next to them must still work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiers } from '../../src/content/tiers';
import type { Claims } from '../../packages/supabase-stand-in/db.mjs';
import { anonClaims, attempt, demo, objectMetadata, putObject, serviceClaims, snapshot, userClaims } from './helpers';
import { createServerDatabase, type Database } from './server-database';

const me = demo.ebook;
const other = demo.foundation;
const asMe = userClaims(me, 'ebook@example.com');
const asStaff = userClaims(demo.staff, 'staff@example.com');

const insertObject = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
                      values ($1, $2, $3::text::uuid, $3::text, $4) returning name`;
const upsertObject = `${insertObject.replace(' returning name', '')}
                      on conflict (bucket_id, name) do update set metadata = excluded.metadata returning name`;
const meta = (mimetype: string, size = 1024) => JSON.stringify(objectMetadata(mimetype, size));

type Attempt = { name: string; claims: Claims | null; sql: string; params?: unknown[] };

const refused: Attempt[] = [
  // Self-grant of a tier, every way the API allows a write.
  {
    name: 'self-grant a tier by insert',
    claims: userClaims(demo.notier),
    sql: `insert into public.user_tiers (user_id, tier) values ($1, 'complete')`,
    params: [demo.notier],
  },
  {
    name: 'self-upgrade a tier by update',
    claims: asMe,
    sql: `update public.user_tiers set tier = 'complete' where user_id = $1`,
    params: [me],
  },
  {
    name: 'self-upgrade by update without a where clause',
    claims: asMe,
    sql: `update public.user_tiers set tier = 'complete'`,
  },
  {
    name: 'self-grant a tier by upsert',
    claims: asMe,
    sql: `insert into public.user_tiers (user_id, tier) values ($1, 'complete') on conflict (user_id) do update set tier = 'complete'`,
    params: [me],
  },
  {
    name: 'self-grant by upsert that ignores duplicates',
    claims: userClaims(demo.notier),
    sql: `insert into public.user_tiers (user_id, tier) values ($1, 'complete') on conflict do nothing`,
    params: [demo.notier],
  },
  {
    name: 'self-grant through grant_tier',
    claims: asMe,
    sql: `select public.grant_tier($1, 'complete', 'I paid, honest')`,
    params: [me],
  },
  {
    name: 'anon calls grant_tier',
    claims: anonClaims,
    sql: `select public.grant_tier($1, 'complete', 'anonymous')`,
    params: [me],
  },
  {
    name: 'move own tier row to another user',
    claims: asMe,
    sql: `update public.user_tiers set user_id = $2 where user_id = $1`,
    params: [me, demo.notier],
  },
  { name: 'truncate user_tiers', claims: asMe, sql: `truncate public.user_tiers` },
  // Self-grant of staff.
  { name: 'make oneself staff', claims: asMe, sql: `insert into public.staff (user_id) values ($1)`, params: [me] },
  { name: 'read the staff list', claims: asMe, sql: `select user_id from public.staff` },
  { name: 'anon reads the staff list', claims: anonClaims, sql: `select user_id from public.staff` },
  {
    name: 'write user_metadata to claim staff',
    claims: asMe,
    sql: `update auth.users set raw_user_meta_data = '{"role":"staff"}' where id = $1`,
    params: [me],
  },
  {
    name: 'write app_metadata to claim staff',
    claims: asMe,
    sql: `update auth.users set raw_app_meta_data = '{"role":"staff"}' where id = $1`,
    params: [me],
  },
  { name: 'read the tier audit log', claims: asStaff, sql: `select * from public.tier_audit` },
  {
    name: 'forge an audit row',
    claims: asStaff,
    sql: `insert into public.tier_audit (target_user, new_tier, changed_by_role) values ($1, 'complete', 'x')`,
    params: [me],
  },
  { name: 'erase the audit log', claims: asStaff, sql: `delete from public.tier_audit` },
  // Rewriting user_id / id, writing someone else's profile.
  {
    name: 'rewrite own profile user_id to another user',
    claims: asMe,
    sql: `update public.profiles set user_id = $2 where user_id = $1`,
    params: [me, other],
  },
  {
    name: 'rewrite own profile id',
    claims: asMe,
    sql: `update public.profiles set id = $2 where user_id = $1`,
    params: [me, other],
  },
  {
    name: 'rewrite own profile id and user_id together',
    claims: asMe,
    sql: `update public.profiles set id = $2, user_id = $2 where user_id = $1`,
    params: [me, demo.notier],
  },
  {
    name: 'supabase-js style upsert that rewrites id and user_id',
    claims: asMe,
    sql: `insert into public.profiles (id, user_id, display_name) values ($1, $1, 'x') on conflict (id) do update set id = excluded.id, user_id = excluded.user_id, display_name = excluded.display_name`,
    params: [me],
  },
  {
    name: 'backdate created_at',
    claims: asMe,
    sql: `update public.profiles set created_at = '2000-01-01' where user_id = $1`,
    params: [me],
  },
  {
    name: 'insert a profile for another user',
    claims: asMe,
    sql: `insert into public.profiles (id, user_id, display_name) values ($1, $1, 'Hijack')`,
    params: [demo.notier],
  },
  {
    name: 'insert a profile whose id is mine but user_id is another',
    claims: userClaims(demo.notier),
    sql: `insert into public.profiles (id, user_id, display_name) values ($1, $2, 'x')`,
    params: [demo.notier, other],
  },
  {
    name: 'insert a profile whose user_id is mine but id is another',
    claims: userClaims(demo.notier),
    sql: `insert into public.profiles (id, user_id, display_name) values ($2, $1, 'x')`,
    params: [demo.notier, other],
  },
  {
    name: 'update another user profile',
    claims: asMe,
    sql: `update public.profiles set display_name = 'Hijack' where user_id = $1`,
    params: [other],
  },
  {
    name: 'update every profile',
    claims: asMe,
    sql: `update public.profiles set avatar_url = 'https://evil.example/x.png' where user_id <> $1`,
    params: [me],
  },
  { name: 'delete own profile', claims: asMe, sql: `delete from public.profiles where user_id = $1`, params: [me] },
  {
    name: 'display name over 80 characters',
    claims: asMe,
    sql: `update public.profiles set display_name = $2 where user_id = $1`,
    params: [me, 'x'.repeat(81)],
  },
  {
    name: 'javascript: avatar URL',
    claims: asMe,
    sql: `update public.profiles set avatar_url = 'javascript:alert(1)' where user_id = $1`,
    params: [me],
  },
  {
    name: 'data: avatar URL',
    claims: asMe,
    sql: `update public.profiles set avatar_url = 'data:image/svg+xml,<svg onload=alert(1)>' where user_id = $1`,
    params: [me],
  },
  {
    name: 'anon inserts a profile',
    claims: anonClaims,
    sql: `insert into public.profiles (id, user_id) values ($1, $1)`,
    params: [demo.notier],
  },
  { name: 'read auth.users', claims: asMe, sql: `select email, encrypted_password from auth.users` },
  // Another user's avatar folder.
  {
    name: 'upload into another user avatar folder',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${other}/avatar.jpg`, me, meta('image/jpeg')],
  },
  {
    name: 'upload into another user folder, owned by them',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${other}/avatar.jpg`, other, meta('image/jpeg')],
  },
  {
    name: 'overwrite another user avatar by upsert',
    claims: asMe,
    sql: upsertObject,
    params: ['avatars', `${other}/avatar.png`, me, meta('image/png')],
  },
  {
    name: 'rename own avatar into another user folder',
    claims: asMe,
    sql: `update storage.objects set name = $2 where bucket_id = 'avatars' and name = $1`,
    params: [`${me}/avatar.png`, `${other}/avatar.gif`],
  },
  {
    name: 'move own avatar into the resources bucket',
    claims: asMe,
    sql: `update storage.objects set bucket_id = 'resources', name = 'complete/sample/x.pdf' where bucket_id = 'avatars' and name = $1`,
    params: [`${me}/avatar.png`],
  },
  {
    name: 'delete another user avatar',
    claims: asMe,
    sql: `delete from storage.objects where bucket_id = 'avatars' and name = $1`,
    params: [`${other}/avatar.png`],
  },
  {
    name: 'anon uploads an avatar',
    claims: anonClaims,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.png`, me, meta('image/png')],
  },
  // SVG or HTML posing as an avatar; oversized avatars.
  {
    name: 'SVG avatar by name',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.svg`, me, meta('image/svg+xml')],
  },
  {
    name: 'SVG avatar with a png name',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.gif`, me, meta('image/svg+xml')],
  },
  {
    name: 'SVG avatar with a png name, mimetype with parameters',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.gif`, me, meta('IMAGE/SVG+XML; charset=utf-8')],
  },
  {
    name: 'SVG avatar, name with a second extension',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.svg.png`, me, meta('image/png')],
  },
  {
    name: 'HTML avatar by name',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.html`, me, meta('text/html')],
  },
  {
    name: 'HTML avatar with an image name',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.webp`, me, meta('text/html')],
  },
  {
    name: 'overwrite own avatar with SVG content',
    claims: asMe,
    sql: `update storage.objects set metadata = $2 where bucket_id = 'avatars' and name = $1`,
    params: [`${me}/avatar.png`, meta('image/svg+xml')],
  },
  {
    name: 'upsert own avatar with SVG content',
    claims: asMe,
    sql: upsertObject,
    params: ['avatars', `${me}/avatar.png`, me, meta('image/svg+xml')],
  },
  {
    name: 'avatar one byte over 2 MB',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.jpg`, me, meta('image/jpeg', 2 * 1024 * 1024 + 1)],
  },
  {
    name: 'avatar of 50 MB',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.jpg`, me, meta('image/jpeg', 50 * 1024 * 1024)],
  },
  {
    name: 'avatar with a non-numeric size',
    claims: asMe,
    sql: insertObject,
    params: ['avatars', `${me}/avatar.jpg`, me, JSON.stringify({ mimetype: 'image/jpeg', size: '99999999999' })],
  },
  {
    name: 'grow own avatar over 2 MB by update',
    claims: asMe,
    sql: `update storage.objects set metadata = $2 where bucket_id = 'avatars' and name = $1`,
    params: [`${me}/avatar.png`, meta('image/png', 3 * 1024 * 1024)],
  },
  // Path tricks in avatar names.
  ...[
    `${me}/../${other}/avatar.png`,
    `../${other}/avatar.png`,
    `${other}/../${me}/avatar.png`,
    `${me}/./avatar.png`,
    `${me}//avatar.png`,
    `/${me}/avatar.png`,
    `${me}/avatar.png/`,
    `${me}/sub/avatar.png`,
    `${me}/../${me}/avatar.png`,
    `${other}/avatar.png`,
    `${me}\\avatar.png`,
    `${me} /avatar.png`,
    `${me}/avatar.png\u0000.svg`.replace('\u0000', '%00'),
    `${me}/avatar.php`,
    `${me}/evil.png`,
    `${me}`,
  ].map((name) => ({
    name: `avatar path trick ${JSON.stringify(name.replaceAll(me, '{me}').replaceAll(other, '{other}'))}`,
    claims: asMe,
    sql: insertObject,
    params: ['avatars', name, me, meta('image/png')],
  })),
  // Resources: non-staff writes and path tricks, even for staff.
  {
    name: 'complete-tier user uploads a resource',
    claims: userClaims(demo.complete),
    sql: insertObject,
    params: ['resources', 'complete/sample/mine.pdf', demo.complete, meta('application/pdf')],
  },
  {
    name: 'user uploads to their own tier folder',
    claims: asMe,
    sql: insertObject,
    params: ['resources', 'ebook/sample/mine.pdf', me, meta('application/pdf')],
  },
  {
    name: 'user renames a locked file into their tier',
    claims: asMe,
    sql: `update storage.objects set name = 'ebook/sample/stolen.pdf' where bucket_id = 'resources' and name = 'complete/sample/complete-guide.pdf'`,
  },
  {
    name: 'user deletes a resource',
    claims: userClaims(demo.complete),
    sql: `delete from storage.objects where bucket_id = 'resources'`,
  },
  ...[
    'complete/../ebook/x.pdf',
    '../complete/sample/x.pdf',
    'ebook/../../x.pdf',
    'ebook/sample/../x.pdf',
    'ebook/./x.pdf',
    'ebook//x.pdf',
    '/ebook/sample/x.pdf',
    'ebook/sample/',
    'ebook/x.pdf',
    'ebook/sample/deeper/x.pdf',
    'Ebook/sample/x.pdf',
    'platinum/sample/x.pdf',
    'ebook/Sample/x.pdf',
    'ebook/sample/.hidden.pdf',
    'ebook/sample/x.html',
    'ebook/sample/x.svg',
    'ebook/sample/x.pdf.exe',
    'ebook/sample/a\\..\\x.pdf',
    `ebook/sample/${'a'.repeat(200)}.pdf`,
    'x.pdf',
  ].map((name) => ({
    name: `staff upload path trick ${JSON.stringify(name.length > 60 ? `${name.slice(0, 20)}...` : name)}`,
    claims: asStaff,
    sql: insertObject,
    params: ['resources', name, demo.staff, meta('application/pdf')],
  })),
  {
    name: 'staff uploads HTML posing as a PDF',
    claims: asStaff,
    sql: insertObject,
    params: ['resources', 'ebook/sample/x.pdf', demo.staff, meta('text/html')],
  },
  {
    name: 'staff uploads an SVG posing as a PDF',
    claims: asStaff,
    sql: insertObject,
    params: ['resources', 'ebook/sample/x.pdf', demo.staff, meta('image/svg+xml')],
  },
  {
    name: 'staff uploads a file over 1 GiB',
    claims: asStaff,
    sql: insertObject,
    params: ['resources', 'ebook/sample/x.pdf', demo.staff, meta('application/pdf', 1024 * 1024 * 1024 + 1)],
  },
  {
    name: 'staff renames a resource out of the tier layout',
    claims: asStaff,
    sql: `update storage.objects set name = '../x.pdf' where bucket_id = 'resources' and name = 'ebook/sample/ebook-guide.pdf'`,
  },
  {
    name: 'staff writes into another user avatar folder',
    claims: asStaff,
    sql: insertObject,
    params: ['avatars', `${other}/avatar.png`, demo.staff, meta('image/png')],
  },
];

/** Reads that must come back empty: objects that exist but the caller may not see. */
const hiddenReads: Attempt[] = [
  {
    name: 'ebook user reads a malformed object under their tier folder',
    claims: asMe,
    sql: `select name from storage.objects where bucket_id = 'resources' and name like 'ebook/%' and name <> 'ebook/sample/ebook-guide.pdf'`,
  },
  {
    name: 'ebook user reads complete/../ebook style names',
    claims: asMe,
    sql: `select name from storage.objects where bucket_id = 'resources' and name like '%..%'`,
  },
  {
    name: 'no-tier user reads anything in resources',
    claims: userClaims(demo.notier),
    sql: `select name from storage.objects where bucket_id = 'resources'`,
  },
  {
    name: 'anon reads anything in resources',
    claims: anonClaims,
    sql: `select name from storage.objects where bucket_id = 'resources'`,
  },
  { name: 'anon reads storage.buckets', claims: anonClaims, sql: `select id from storage.buckets` },
  {
    name: 'user lists the whole avatars bucket',
    claims: asMe,
    sql: `select name from storage.objects where bucket_id = 'avatars' and name not like $1 || '/%'`,
    params: [me],
  },
  {
    name: 'forged claims: app_metadata role staff does not make staff',
    claims: { ...asMe, app_metadata: { role: 'staff' }, user_metadata: { role: 'staff' } },
    sql: `select 1 where public.is_staff()`,
  },
];

let db: Database;

beforeAll(async () => {
  db = await createServerDatabase();
  for (const id of Object.values(demo))
    await putObject(db, 'avatars', `${id}/avatar.png`, id, objectMetadata('image/png', 2048));
  for (const tier of tiers) {
    await putObject(
      db,
      'resources',
      `${tier}/sample/${tier}-guide.pdf`,
      demo.staff,
      objectMetadata('application/pdf', 50_000),
    );
  }
  // Malformed names left by a superuser (e.g. the dashboard): nobody but staff may read them.
  for (const name of ['ebook/../complete/sample/complete-guide.pdf', 'ebook/loose.pdf', 'ebook/sample/deeper/x.pdf']) {
    await putObject(db, 'resources', name, null, objectMetadata('application/pdf', 10));
  }
});

afterAll(async () => {
  await db?.close();
});

describe('hostile inputs are refused with nothing changed', () => {
  it('has unique names', () => {
    expect(new Set(refused.map((a) => a.name)).size).toBe(refused.length);
  });

  for (const a of refused) {
    it(a.name, async () => {
      const before = await snapshot(db);
      const outcome = await attempt(db, a.claims, a.sql, a.params ?? [], { rollback: false });
      if (outcome.ok) {
        expect(outcome.affected, JSON.stringify(outcome.rows)).toBe(0);
        expect(outcome.rows).toEqual([]);
      } else {
        // Privilege / policy (42501), check constraint (23514) or the id guard; never a crash.
        expect(outcome.code, outcome.error).toMatch(/^(42501|23514)$/);
      }
      expect(await snapshot(db)).toBe(before);
    });
  }

  for (const a of hiddenReads) {
    it(a.name, async () => {
      const outcome = await attempt(db, a.claims, a.sql, a.params ?? [], { rollback: true });
      expect(outcome).toMatchObject({ ok: true, rows: [] });
    });
  }
});

describe('boundaries next to the refusals still work', () => {
  it('an avatar of exactly 2 MB, upper-case extension, mimetype with parameters', async () => {
    const outcome = await attempt(
      db,
      asMe,
      insertObject,
      ['avatars', `${me}/avatar.JPG`, me, meta('image/jpeg; q=1', 2 * 1024 * 1024)],
      { rollback: true },
    );
    expect(outcome).toMatchObject({ ok: true, rows: [{ name: `${me}/avatar.JPG` }] });
  });

  it('an avatar row before the storage server knows its type (no metadata yet)', async () => {
    const outcome = await attempt(db, asMe, insertObject, ['avatars', `${me}/avatar.gif`, me, null], {
      rollback: true,
    });
    expect(outcome).toMatchObject({ ok: true, rows: [{ name: `${me}/avatar.gif` }] });
  });

  it('a display name of exactly 80 characters, and clearing it', async () => {
    const name = 'n'.repeat(80);
    const set = await attempt(
      db,
      asMe,
      `update public.profiles set display_name = $2 where user_id = $1 returning display_name`,
      [me, name],
      { rollback: true },
    );
    expect(set).toMatchObject({ ok: true, rows: [{ display_name: name }] });
    const cleared = await attempt(
      db,
      asMe,
      `update public.profiles set display_name = null where user_id = $1 returning display_name`,
      [me],
      { rollback: true },
    );
    expect(cleared).toMatchObject({ ok: true, rows: [{ display_name: null }] });
  });

  it('staff upload with spaces and capitals in the file name, every allowed type', async () => {
    const files = [
      ['foundation/scripture-audio/Session 1 - Called to Write.MP3', 'audio/mpeg'],
      ['ebook/ebook/yes-you-can.epub', 'application/epub+zip'],
      ['ebook/ebook/yes-you-can.mobi', 'application/x-mobipocket-ebook'],
      ['complete/publishing-roadmap/roadmap (v2).pdf', 'application/pdf'],
    ] as const;
    for (const [name, type] of files) {
      const outcome = await attempt(
        db,
        asStaff,
        insertObject,
        ['resources', name, demo.staff, meta(type, 150 * 1024 * 1024)],
        { rollback: true },
      );
      expect(outcome, name).toMatchObject({ ok: true, rows: [{ name }] });
    }
  });

  it('staff read malformed objects (to clean them up)', async () => {
    const outcome = await attempt(
      db,
      asStaff,
      `select name from storage.objects where bucket_id = 'resources' and name like '%..%'`,
      [],
      { rollback: true },
    );
    expect(outcome).toMatchObject({ ok: true, rows: [{ name: 'ebook/../complete/sample/complete-guide.pdf' }] });
  });

  it('staff grant and revoke a tier, audited with who did it and why; revoking leaves the row with no tier', async () => {
    const before = (await db.query<{ n: number }>(`select count(*)::int as n from public.tier_audit`)).rows[0]?.n ?? 0;
    const grant = `select public.grant_tier($1, 'foundation', 'comp copy')`;
    const revoke = `select public.revoke_tier($1, 'comp ended')`;
    expect(await attempt(db, asStaff, grant, [demo.notier], { rollback: false })).toMatchObject({ ok: true });
    expect(await attempt(db, asStaff, revoke, [demo.notier], { rollback: false })).toMatchObject({ ok: true });
    const audit = await db.query(
      `select target_user, old_tier, new_tier, changed_by, changed_by_role, source, reason from public.tier_audit order by id offset $1`,
      [before],
    );
    const who = { target_user: demo.notier, changed_by: demo.staff, changed_by_role: 'authenticated' };
    expect(audit.rows).toEqual([
      { ...who, old_tier: null, new_tier: 'foundation', source: 'staff_grant', reason: 'comp copy' },
      { ...who, old_tier: 'foundation', new_tier: null, source: 'staff_revoke', reason: 'comp ended' },
    ]);
    expect((await db.query(`select tier from public.user_tiers where user_id = $1`, [demo.notier])).rows).toEqual([
      { tier: null },
    ]);
  });

  it('the id guard holds even for service_role', async () => {
    const outcome = await attempt(
      db,
      serviceClaims,
      `update public.profiles set id = $2, user_id = $2 where id = $1`,
      [me, demo.notier],
      { rollback: false },
    );
    expect(outcome).toMatchObject({ ok: false, code: '42501' });
  });
});
