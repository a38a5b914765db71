// The RLS matrix: every actor (anon, a user without a tier, each tier, staff, service_role)
// against every table and bucket and command, on the real migrations. Each allowed case
// checks the rows that came back (and is rolled back, so the fixtures stay put); each refused
// case commits whatever it managed and then proves, from a superuser snapshot, that nothing
// changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claims } from '../../packages/supabase-stand-in/db.mjs';
import {
  anonClaims,
  attempt,
  demo,
  objectMetadata,
  putObject,
  serviceClaims,
  snapshot,
  userClaims,
  type DemoName,
  type Row,
} from './helpers';
import { tierRank, tiers as tierList, type Tier } from '../../src/content/tiers';
import { createServerDatabase, type Database } from './server-database';

/** What seed.sql gives each demo account. */
const seeded: Record<DemoName, { tier: Tier | null; displayName: string | null }> = {
  ebook: { tier: 'ebook', displayName: 'Eve Ebook' },
  foundation: { tier: 'foundation', displayName: 'Fran Foundation' },
  accelerated: { tier: 'accelerated', displayName: 'Alex Accelerated' },
  complete: { tier: 'complete', displayName: 'Casey Complete' },
  notier: { tier: null, displayName: null },
  staff: { tier: 'complete', displayName: 'Sam Staff' },
};

/**
 * A user with no tier or avatar yet, and (removed in the fixtures, as if it predated the
 * profile trigger) no profile row: inserting one for them is refused for want of a policy and
 * grant, not because the row exists.
 */
const stranger = '00000000-0000-4000-8000-0000000000aa';

const resourceFile = (tier: Tier) => `${tier}/sample/${tier}-guide.pdf`;
const avatarFile = (id: string) => `${id}/avatar.png`;

type Case = {
  name: string;
  claims: Claims | null;
  sql: string;
  params?: unknown[];
  allow: boolean;
  /** Allowed cases: the rows the statement returns. */
  rows?: Row[];
  /** Allowed cases: a superuser query run in the same transaction, and its expected rows. */
  verify?: { sql: string; params?: unknown[]; rows: Row[] };
  /** Refused cases that must fail with exactly this error code (not merely return nothing). */
  code?: string;
  /** The storage.operation Storage sets for the route (default: an upload). */
  operation?: string;
};

const cases: Case[] = [];
const add = (c: Case) => cases.push(c);

type Actor = { label: string; claims: Claims | null; id: string | null; demoName: DemoName | null };
const actors: Actor[] = [
  { label: 'anon', claims: anonClaims, id: null, demoName: null },
  ...(Object.keys(demo) as DemoName[]).map((name) => ({
    label: name === 'notier' ? 'no tier' : name,
    claims: userClaims(demo[name], `${name}@example.com`),
    id: demo[name],
    demoName: name,
  })),
];

for (const actor of actors) {
  const me = actor.id;
  const mine = actor.demoName ? seeded[actor.demoName] : null;
  const isStaff = actor.demoName === 'staff';
  const myRank = mine?.tier ? tierRank(mine.tier) : null;
  // "Another user": someone with a profile, tier and avatar.
  const other = actor.demoName === 'foundation' ? demo.ebook : demo.foundation;
  const n = (table: string, command: string, target: string) => `${actor.label} | ${table} | ${command} | ${target}`;
  const claims = actor.claims;

  // ---------------------------------------------------------------- profiles
  if (me && mine) {
    // Every user has a profile row (the on_auth_user_created trigger made it); a user
    // without a name has display_name null.
    const ownProfile = [{ id: me, user_id: me, display_name: mine.displayName }];
    add({
      name: n('profiles', 'select', 'own'),
      claims,
      sql: `select id, user_id, display_name from public.profiles where user_id = $1`,
      params: [me],
      allow: true,
      rows: ownProfile,
    });
    add({
      name: n('profiles', 'select', 'all rows'),
      claims,
      sql: `select id, user_id, display_name from public.profiles order by id`,
      allow: true,
      rows: ownProfile,
    });
    // The database creates profile rows; the client only updates its own.
    add({
      name: n('profiles', 'insert', 'own'),
      claims,
      sql: `insert into public.profiles (id, user_id, display_name) values ($1, $1, 'Second') returning id`,
      params: [me],
      allow: false,
      code: '42501',
    });
    add({
      name: n('profiles', 'update', 'own display_name'),
      claims,
      allow: true,
      sql: `update public.profiles set display_name = 'Renamed' where user_id = $1 returning user_id, display_name`,
      params: [me],
      rows: [{ user_id: me, display_name: 'Renamed' }],
      verify: {
        sql: `select display_name from public.profiles where id = $1`,
        params: [me],
        rows: [{ display_name: 'Renamed' }],
      },
    });
    add({
      name: n('profiles', 'update', 'own avatar_url'),
      claims,
      allow: true,
      sql: `update public.profiles set avatar_url = $2 where user_id = $1 returning user_id, avatar_url`,
      params: [me, `http://127.0.0.1:54321/storage/v1/object/public/avatars/${me}/avatar.png`],
      rows: [{ user_id: me, avatar_url: `http://127.0.0.1:54321/storage/v1/object/public/avatars/${me}/avatar.png` }],
    });
    add({
      name: n('profiles', 'upsert', 'own (content columns)'),
      claims,
      allow: false,
      sql: `insert into public.profiles (id, user_id, display_name) values ($1, $1, 'Upserted')
            on conflict (id) do update set display_name = excluded.display_name returning id, user_id, display_name`,
      params: [me],
      code: '42501',
    });
    add({
      name: n('profiles', 'delete', 'own'),
      claims,
      sql: `delete from public.profiles where user_id = $1 returning id`,
      params: [me],
      allow: false,
    });
  } else {
    add({ name: n('profiles', 'select', 'all rows'), claims, sql: `select id from public.profiles`, allow: false });
  }
  add({
    name: n('profiles', 'select', 'another user'),
    claims,
    sql: `select id, display_name from public.profiles where user_id = $1`,
    params: [other],
    allow: false,
  });
  add({
    name: n('profiles', 'insert', 'another user'),
    claims,
    sql: `insert into public.profiles (id, user_id, display_name) values ($1, $1, 'Hijack') returning id`,
    params: [stranger],
    allow: false,
  });
  add({
    name: n('profiles', 'update', 'another user'),
    claims,
    sql: `update public.profiles set display_name = 'Hijack' where user_id = $1 returning id`,
    params: [other],
    allow: false,
  });
  add({
    name: n('profiles', 'upsert', 'another user'),
    claims,
    allow: false,
    sql: `insert into public.profiles (id, user_id, display_name) values ($1, $1, 'Hijack')
          on conflict (id) do update set display_name = excluded.display_name returning id`,
    params: [other],
  });
  add({
    name: n('profiles', 'delete', 'another user'),
    claims,
    sql: `delete from public.profiles where user_id = $1 returning id`,
    params: [other],
    allow: false,
  });

  // ---------------------------------------------------------------- user_tiers
  if (me && mine) {
    const ownTier = mine.tier ? [{ user_id: me, tier: mine.tier }] : [];
    add({
      name: n('user_tiers', 'select', 'own'),
      claims,
      sql: `select user_id, tier from public.user_tiers where user_id = $1`,
      params: [me],
      allow: true,
      rows: ownTier,
    });
    add({
      name: n('user_tiers', 'select', 'all rows'),
      claims,
      sql: `select user_id, tier from public.user_tiers order by user_id`,
      allow: true,
      rows: ownTier,
    });
    add({
      name: n('user_tiers', 'insert', 'own (self-grant)'),
      claims,
      sql: `insert into public.user_tiers (user_id, tier) values ($1, 'complete') returning tier`,
      params: [me],
      allow: false,
    });
    add({
      name: n('user_tiers', 'update', 'own (self-upgrade)'),
      claims,
      sql: `update public.user_tiers set tier = 'complete' where user_id = $1 returning tier`,
      params: [me],
      allow: false,
    });
    add({
      name: n('user_tiers', 'upsert', 'own (self-grant)'),
      claims,
      allow: false,
      sql: `insert into public.user_tiers (user_id, tier) values ($1, 'complete') on conflict (user_id) do update set tier = excluded.tier returning tier`,
      params: [me],
    });
    add({
      name: n('user_tiers', 'delete', 'own'),
      claims,
      sql: `delete from public.user_tiers where user_id = $1 returning tier`,
      params: [me],
      allow: false,
    });
    add({
      name: n('rpc', 'is_staff', 'self'),
      claims,
      sql: `select public.is_staff() as is_staff`,
      allow: true,
      rows: [{ is_staff: isStaff }],
    });
    add({
      name: n('rpc', 'current_tier_rank', 'self'),
      claims,
      sql: `select public.current_tier_rank() as rank`,
      allow: true,
      rows: [{ rank: myRank }],
    });
  } else {
    add({
      name: n('user_tiers', 'select', 'all rows'),
      claims,
      sql: `select user_id from public.user_tiers`,
      allow: false,
    });
    add({
      name: n('rpc', 'is_staff', 'self'),
      claims,
      sql: `select public.is_staff() as is_staff`,
      allow: true,
      rows: [{ is_staff: false }],
    });
  }
  add({
    name: n('user_tiers', 'select', 'another user'),
    claims,
    sql: `select tier from public.user_tiers where user_id = $1`,
    params: [other],
    allow: false,
  });
  add({
    name: n('user_tiers', 'insert', 'another user'),
    claims,
    sql: `insert into public.user_tiers (user_id, tier) values ($1, 'complete') returning tier`,
    params: [stranger],
    allow: false,
  });
  add({
    name: n('user_tiers', 'update', 'another user'),
    claims,
    sql: `update public.user_tiers set tier = 'complete' where user_id = $1 returning tier`,
    params: [other],
    allow: false,
  });
  add({
    name: n('user_tiers', 'upsert', 'another user'),
    claims,
    allow: false,
    sql: `insert into public.user_tiers (user_id, tier) values ($1, 'complete') on conflict (user_id) do update set tier = excluded.tier returning tier`,
    params: [other],
  });
  add({
    name: n('user_tiers', 'delete', 'another user'),
    claims,
    sql: `delete from public.user_tiers where user_id = $1 returning tier`,
    params: [other],
    allow: false,
  });
  if (isStaff) {
    add({
      name: n('rpc', 'grant_tier', 'another user'),
      claims,
      allow: true,
      sql: `select public.grant_tier($1, 'accelerated', 'matrix: staff grant') as result`,
      params: [other],
      rows: [{ result: '' }],
      verify: {
        sql: `select t.tier, a.old_tier, a.new_tier, a.changed_by, a.source, a.reason from public.user_tiers t
              join public.tier_audit a on a.target_user = t.user_id where t.user_id = $1 order by a.id desc limit 1`,
        params: [other],
        rows: [
          {
            tier: 'accelerated',
            old_tier: 'foundation',
            new_tier: 'accelerated',
            changed_by: demo.staff,
            source: 'staff_grant',
            reason: 'matrix: staff grant',
          },
        ],
      },
    });
  } else {
    for (const [rpc, sql] of [
      ['grant_tier', `select public.grant_tier($1, 'complete', 'self-service')`],
      ['revoke_tier', `select public.revoke_tier($1, 'self-service')`],
    ] as const) {
      add({ name: n('rpc', rpc, 'another user'), claims, sql, params: [other], allow: false, code: '42501' });
      if (me) add({ name: n('rpc', rpc, 'own (self-grant)'), claims, sql, params: [me], allow: false, code: '42501' });
    }
  }

  // ---------------------------------------------------------------- avatars bucket
  const png = JSON.stringify(objectMetadata('image/png', 4096));
  const webp = JSON.stringify(objectMetadata('image/webp', 4096));
  const upsertObject = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
                        values ($1, $2, $3::text::uuid, $3::text, $4)
                        on conflict (bucket_id, name) do update set metadata = excluded.metadata, owner = excluded.owner, owner_id = excluded.owner_id
                        returning name, metadata ->> 'mimetype' as mimetype`;
  const insertObject = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata) values ($1, $2, $3::text::uuid, $3::text, $4) returning name, owner_id`;
  const updateObject = `update storage.objects set metadata = $3 where bucket_id = $1 and name = $2 returning name, metadata ->> 'mimetype' as mimetype`;
  const readObject = `select name, metadata ->> 'mimetype' as mimetype from storage.objects where bucket_id = $1 and name = $2`;
  // createSignedUrl is a select of the one object, as the caller, before signing.
  const signObject = `select id is not null as signable, name from storage.objects where bucket_id = $1 and name = $2`;
  const listPrefix = `select name from storage.objects where bucket_id = $1 and name like $2 || '%' order by name`;
  const deleteObject = `delete from storage.objects where bucket_id = $1 and name = $2 returning name`;

  if (me) {
    const own = avatarFile(me);
    add({
      name: n('avatars', 'upload', 'own new file'),
      claims,
      sql: insertObject,
      params: ['avatars', `${me}/avatar.webp`, me, webp],
      allow: true,
      rows: [{ name: `${me}/avatar.webp`, owner_id: me }],
    });
    add({
      name: n('avatars', 'overwrite (update)', 'own'),
      claims,
      sql: updateObject,
      params: ['avatars', own, webp],
      allow: true,
      rows: [{ name: own, mimetype: 'image/webp' }],
    });
    add({
      name: n('avatars', 'overwrite (upsert)', 'own'),
      claims,
      sql: upsertObject,
      params: ['avatars', own, me, webp],
      allow: true,
      rows: [{ name: own, mimetype: 'image/webp' }],
    });
    add({
      name: n('avatars', 'read', 'own'),
      claims,
      sql: readObject,
      params: ['avatars', own],
      allow: true,
      rows: [{ name: own, mimetype: 'image/png' }],
    });
    add({
      name: n('avatars', 'sign', 'own'),
      claims,
      sql: signObject,
      params: ['avatars', own],
      allow: true,
      rows: [{ signable: true, name: own }],
    });
    add({
      name: n('avatars', 'list', 'own folder'),
      claims,
      sql: listPrefix,
      params: ['avatars', `${me}/`],
      allow: true,
      rows: [{ name: own }],
    });
    add({
      name: n('avatars', 'list', 'whole bucket'),
      claims,
      sql: listPrefix,
      params: ['avatars', ''],
      allow: true,
      rows: [{ name: own }],
    });
    add({
      name: n('avatars', 'delete', 'own'),
      claims,
      sql: deleteObject,
      params: ['avatars', own],
      allow: true,
      rows: [{ name: own }],
    });
  } else {
    add({ name: n('avatars', 'list', 'whole bucket'), claims, sql: listPrefix, params: ['avatars', ''], allow: false });
  }
  const theirs = avatarFile(other);
  add({
    name: n('avatars', 'upload', 'another user'),
    claims,
    sql: insertObject,
    params: ['avatars', `${other}/avatar.webp`, me ?? other, webp],
    allow: false,
  });
  add({
    name: n('avatars', 'overwrite (update)', 'another user'),
    claims,
    sql: updateObject,
    params: ['avatars', theirs, webp],
    allow: false,
  });
  add({
    name: n('avatars', 'overwrite (upsert)', 'another user'),
    claims,
    sql: upsertObject,
    params: ['avatars', theirs, me ?? other, png],
    allow: false,
  });
  add({
    name: n('avatars', 'read', 'another user'),
    claims,
    sql: readObject,
    params: ['avatars', theirs],
    allow: false,
  });
  add({
    name: n('avatars', 'sign', 'another user'),
    claims,
    sql: signObject,
    params: ['avatars', theirs],
    allow: false,
  });
  add({
    name: n('avatars', 'list', 'another user folder'),
    claims,
    sql: listPrefix,
    params: ['avatars', `${other}/`],
    allow: false,
  });
  add({
    name: n('avatars', 'delete', 'another user'),
    claims,
    sql: deleteObject,
    params: ['avatars', theirs],
    allow: false,
  });

  // ---------------------------------------------------------------- resources bucket
  // Members list their tier's folders; only staff download or sign (members download through
  // the download function, which reads with the service role).
  const canRead = (tier: Tier) => isStaff || (myRank !== null && myRank >= tierRank(tier));
  for (const tier of tierList) {
    const file = resourceFile(tier);
    const ok = canRead(tier);
    add({
      name: n('resources', 'read', `${tier} file`),
      claims,
      sql: readObject,
      params: ['resources', file],
      allow: isStaff,
      rows: [{ name: file, mimetype: 'application/pdf' }],
      operation: 'storage.object.get_authenticated',
    });
    add({
      name: n('resources', 'sign', `${tier} file`),
      claims,
      sql: signObject,
      params: ['resources', file],
      allow: isStaff,
      rows: [{ signable: true, name: file }],
      operation: 'storage.object.sign',
    });
    add({
      name: n('resources', 'list', `${tier}/sample/ folder`),
      claims,
      sql: listPrefix,
      params: ['resources', `${tier}/sample/`],
      allow: ok,
      rows: [{ name: file }],
      operation: 'storage.object.list',
    });
  }
  const readable = tierList
    .filter(canRead)
    .map(resourceFile)
    .sort()
    .map((name) => ({ name }));
  add({
    name: n('resources', 'list', 'whole bucket'),
    claims,
    sql: listPrefix,
    params: ['resources', ''],
    allow: readable.length > 0,
    rows: readable,
    operation: 'storage.object.list',
  });
  const pdf = JSON.stringify(objectMetadata('application/pdf', 123_456));
  const epub = JSON.stringify(objectMetadata('application/epub+zip', 123_456));
  const target = resourceFile('ebook');
  add({
    name: n('resources', 'upload', 'ebook/sample/new.pdf'),
    claims,
    sql: insertObject,
    params: ['resources', 'ebook/sample/new.pdf', me ?? demo.staff, pdf],
    allow: isStaff,
    rows: [{ name: 'ebook/sample/new.pdf', owner_id: me }],
  });
  add({
    name: n('resources', 'upload', 'complete/sample/new.epub'),
    claims,
    sql: insertObject,
    params: ['resources', 'complete/sample/new.epub', me ?? demo.staff, epub],
    allow: isStaff,
    rows: [{ name: 'complete/sample/new.epub', owner_id: me }],
  });
  add({
    name: n('resources', 'overwrite (update)', target),
    claims,
    sql: updateObject,
    params: ['resources', target, epub],
    allow: isStaff,
    rows: [{ name: target, mimetype: 'application/epub+zip' }],
  });
  add({
    name: n('resources', 'overwrite (upsert)', target),
    claims,
    sql: upsertObject,
    params: ['resources', target, me ?? demo.staff, epub],
    allow: isStaff,
    rows: [{ name: target, mimetype: 'application/epub+zip' }],
  });
  add({
    name: n('resources', 'delete', target),
    claims,
    sql: deleteObject,
    params: ['resources', target],
    allow: isStaff,
    rows: [{ name: target }],
  });
}

// service_role is the server's key (webhooks, dashboard): it bypasses RLS by design.
add({
  name: 'service_role | user_tiers | upsert | any user',
  claims: serviceClaims,
  allow: true,
  sql: `insert into public.user_tiers (user_id, tier) values ($1, 'foundation') on conflict (user_id) do update set tier = excluded.tier returning user_id, tier`,
  params: [stranger],
  rows: [{ user_id: stranger, tier: 'foundation' }],
  verify: {
    sql: `select new_tier, changed_by, changed_by_role from public.tier_audit where target_user = $1`,
    params: [stranger],
    rows: [{ new_tier: 'foundation', changed_by: null, changed_by_role: 'service_role' }],
  },
});
add({
  name: 'service_role | user_tiers | select | all rows',
  claims: serviceClaims,
  sql: `select count(*)::int as n from public.user_tiers`,
  allow: true,
  rows: [{ n: 5 }],
});
add({
  name: 'service_role | resources | list | whole bucket',
  claims: serviceClaims,
  sql: `select count(*)::int as n from storage.objects where bucket_id = 'resources'`,
  allow: true,
  rows: [{ n: 4 }],
});
add({
  name: 'service_role | rpc | grant_tier | any user',
  claims: serviceClaims,
  sql: `select public.grant_tier($1, 'complete', 'service role')`,
  params: [stranger],
  allow: false,
});

// A signed-in user with no profile row still cannot create one.
add({
  name: 'stranger (no profile row) | profiles | insert | own',
  claims: userClaims(stranger, 'stranger@example.com'),
  sql: `insert into public.profiles (id, user_id) values ($1, $1) returning id`,
  params: [stranger],
  allow: false,
  code: '42501',
});

let db: Database;

beforeAll(async () => {
  db = await createServerDatabase();
  await db.query(
    `insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', 'stranger@example.com')`,
    [stranger],
  );
  await db.query(`delete from public.profiles where id = $1`, [stranger]);
  for (const id of Object.values(demo))
    await putObject(db, 'avatars', avatarFile(id), id, objectMetadata('image/png', 2048));
  for (const tier of tierList)
    await putObject(db, 'resources', resourceFile(tier), demo.staff, objectMetadata('application/pdf', 50_000));
  console.log(
    `RLS matrix: ${cases.length} cases (${cases.filter((c) => c.allow).length} allowed, ${cases.filter((c) => !c.allow).length} refused) over ${actors.length + 1} actors`,
  );
});

afterAll(async () => {
  await db?.close();
});

describe('RLS matrix', () => {
  it('has no duplicate case names', () => {
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  for (const c of cases) {
    it(`${c.allow ? 'allows' : 'refuses'} ${c.name}`, async () => {
      if (c.allow) {
        const verify = c.verify;
        let verified: Row[] | undefined;
        const outcome = await attempt(db, c.claims, c.sql, c.params ?? [], {
          rollback: true,
          ...(c.operation ? { operation: c.operation } : {}),
          ...(verify
            ? {
                afterwards: async (tx) => {
                  await tx.query(`reset role`);
                  verified = (await tx.query<Row>(verify.sql, verify.params ?? [])).rows;
                },
              }
            : {}),
        });
        expect(outcome).toMatchObject({ ok: true });
        if (outcome.ok) expect(outcome.rows).toEqual(c.rows);
        if (verify) expect(verified).toEqual(verify.rows);
      } else {
        const before = await snapshot(db);
        const outcome = await attempt(db, c.claims, c.sql, c.params ?? [], {
          rollback: false,
          ...(c.operation ? { operation: c.operation } : {}),
        });
        if (c.code) expect(outcome).toMatchObject({ ok: false, code: c.code });
        if (outcome.ok) {
          expect(outcome.rows).toEqual([]);
          expect(outcome.affected).toBe(0);
        } else {
          // Refusals are privilege (42501) or policy errors, never something unrelated.
          expect(outcome.code, outcome.error).toMatch(/^(42501|23505)$/);
        }
        expect(await snapshot(db)).toBe(before);
      }
    });
  }
});
