import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY } from '../keys.mjs';
import {
  anonClient,
  serviceClient,
  signedIn,
  signedUpAndConfirmed,
  startStandIn,
  uniqueEmail,
  type StandIn,
} from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';
const FOUNDATION_ID = '00000000-0000-4000-8000-000000000002';
const NOTIER_ID = '00000000-0000-4000-8000-000000000005';

let server: StandIn;
let ebook: SupabaseClient;
let foundation: SupabaseClient;
let staff: SupabaseClient;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  [ebook, foundation, staff] = await Promise.all([
    signedIn(server.url, 'ebook@example.com'),
    signedIn(server.url, 'foundation@example.com'),
    signedIn(server.url, 'staff@example.com'),
  ]);
});
afterAll(async () => {
  await server?.close();
});

describe('select', () => {
  it('returns only the caller’s own profile (RLS), with column lists and aliases', async () => {
    const { data, error } = await ebook.from('profiles').select('id, name:display_name');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: EBOOK_ID, name: 'Eve Ebook' }]);
    const other = await ebook.from('profiles').select('*').eq('id', FOUNDATION_ID);
    expect(other.data).toEqual([]);
  });

  it('gives anon nothing it has no grant for (401 as PostgREST)', async () => {
    const { data, error, status } = await anonClient(server.url).from('profiles').select('*');
    expect(data).toBeNull();
    expect(status).toBe(401);
    expect(error).toMatchObject({ code: '42501' });
  });

  it('applies filters, order, limit and offset (service role sees all rows)', async () => {
    const admin = serviceClient(server.url);
    const all = await admin
      .from('user_tiers')
      .select('user_id, tier')
      .order('tier', { ascending: false })
      .order('user_id');
    expect(all.error).toBeNull();
    expect(all.data!.map((r) => r.tier)).toEqual(['complete', 'complete', 'accelerated', 'foundation', 'ebook']);
    const inList = await admin.from('user_tiers').select('tier').in('tier', ['ebook', 'foundation']).order('tier');
    expect(inList.data).toEqual([{ tier: 'ebook' }, { tier: 'foundation' }]);
    expect((await admin.from('user_tiers').select('tier').neq('tier', 'complete')).data).toHaveLength(3);
    expect((await admin.from('user_tiers').select('tier').gte('tier', 'accelerated')).data).toHaveLength(3);
    expect((await admin.from('user_tiers').select('tier').lt('tier', 'foundation')).data).toEqual([{ tier: 'ebook' }]);
    expect((await admin.from('profiles').select('display_name').ilike('display_name', '%EBOOK%')).data).toEqual([
      { display_name: 'Eve Ebook' },
    ]);
    expect((await admin.from('profiles').select('display_name').like('display_name', 'Sam%')).data).toEqual([
      { display_name: 'Sam Staff' },
    ]);
    // notier@ has the profile row the database made for every user, with no name.
    expect((await admin.from('profiles').select('id').is('display_name', null)).data).toEqual([{ id: NOTIER_ID }]);
    expect((await admin.from('profiles').select('id').is('avatar_url', null)).data).toHaveLength(6);
    expect((await admin.from('profiles').select('id').not('display_name', 'is', null)).data).toHaveLength(5);
    expect(
      (await admin.from('profiles').select('id').or(`id.eq.${EBOOK_ID},id.eq.${FOUNDATION_ID}`)).data,
    ).toHaveLength(2);
    const page = await admin.from('profiles').select('id', { count: 'exact' }).order('id').range(1, 2);
    expect(page.data).toEqual([{ id: FOUNDATION_ID }, { id: '00000000-0000-4000-8000-000000000003' }]);
    expect(page.count).toBe(6);
  });

  it('single and maybeSingle follow PostgREST (PGRST116 / null)', async () => {
    const one = await ebook.from('user_tiers').select('tier').single();
    expect(one.data).toEqual({ tier: 'ebook' });
    const none = await anonClient(server.url).auth.signInWithPassword({
      email: 'notier@example.com',
      password: 'password123',
    });
    const notier = await signedIn(server.url, 'notier@example.com');
    expect(none.error).toBeNull();
    const missing = await notier.from('user_tiers').select('tier').maybeSingle();
    expect(missing).toMatchObject({ data: null, error: null });
    const refused = await notier.from('user_tiers').select('tier').single();
    expect(refused.status).toBe(406);
    expect(refused.error).toMatchObject({ code: 'PGRST116' });
    const many = await serviceClient(server.url).from('user_tiers').select('tier').maybeSingle();
    expect(many.error).toMatchObject({ code: 'PGRST116' });
  });

  it('answers unknown tables and columns as PostgREST', async () => {
    const table = await ebook.from('nope').select('*');
    expect(table.status).toBe(404);
    expect(table.error).toMatchObject({ code: 'PGRST205' });
    const column = await ebook.from('profiles').select('nope');
    expect(column.status).toBe(400);
    expect(column.error).toMatchObject({ code: '42703' });
  });

  it('keeps identifiers and values out of the SQL text', async () => {
    const evil = await ebook.from('profiles').select('id').eq('display_name', "x'); drop table public.profiles; --");
    expect(evil.error).toBeNull();
    expect(evil.data).toEqual([]);
    const evilColumn = await ebook.from('profiles').select('"id"" from auth.users; --"');
    expect(evilColumn.error?.code).toBe('42703');
    const evilTable = await ebook.from('profiles"; drop table public.profiles; --').select('*');
    expect(evilTable.status).toBe(404);
    expect((await serviceClient(server.url).from('profiles').select('id')).data).toHaveLength(6);
  });
});

describe('writes', () => {
  it('gives a new user a profile row they may update but not insert or upsert', async () => {
    const client = await signedUpAndConfirmed(server.url, uniqueEmail('rest'));
    const id = (await client.auth.getUser()).data.user!.id;
    // Sign-up inserted into auth.users; the on_auth_user_created trigger made the row.
    const mine = await client.from('profiles').select('id, user_id, display_name, avatar_url').single();
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual({ id, user_id: id, display_name: null, avatar_url: null });
    const ins = await client.from('profiles').insert({ id, user_id: id, display_name: 'New' });
    expect(ins.status).toBe(403);
    expect(ins.error).toMatchObject({ code: '42501' });
    // Users hold no insert privilege, and an upsert also sets id / user_id, which the column
    // grants (display_name, avatar_url only) refuse; the service role may.
    const ups = await client
      .from('profiles')
      .upsert({ id, user_id: id, display_name: 'Upserted' }, { onConflict: 'id' });
    expect(ups.status).toBe(403);
    const adminUps = await serviceClient(server.url)
      .from('profiles')
      .upsert({ id, user_id: id, display_name: 'Upserted' })
      .select('display_name');
    expect(adminUps.error).toBeNull();
    expect(adminUps.data).toEqual([{ display_name: 'Upserted' }]);
    const ignored = await serviceClient(server.url)
      .from('profiles')
      .upsert({ id, user_id: id, display_name: 'Ignored' }, { ignoreDuplicates: true })
      .select();
    expect(ignored.data).toEqual([]);
    const upd = await client
      .from('profiles')
      .update({ display_name: 'Updated' })
      .eq('id', id)
      .select('display_name')
      .single();
    expect(upd.data).toEqual({ display_name: 'Updated' });
    const minimal = await client.from('profiles').update({ display_name: 'Minimal' }).eq('id', id);
    expect(minimal.status).toBe(204);
    expect(minimal.data).toBeNull();

    // Someone else's row: inserting is refused (no insert privilege); updates match no row.
    const forged = await client.from('profiles').insert({ id: EBOOK_ID, user_id: EBOOK_ID, display_name: 'Hacked' });
    expect(forged.status).toBe(403);
    expect(forged.error).toMatchObject({ code: '42501' });
    const other = await client.from('profiles').update({ display_name: 'Hacked' }).eq('id', EBOOK_ID).select();
    expect(other.data).toEqual([]);
    const check = await client
      .from('profiles')
      .update({ display_name: 'x'.repeat(81) })
      .eq('id', id);
    expect(check.status).toBe(400);
    expect(check.error).toMatchObject({ code: '23514' });
    expect((await ebook.from('profiles').select('display_name').single()).data).toEqual({ display_name: 'Eve Ebook' });
  });

  it('refuses a self-granted tier and deletes nothing it may not', async () => {
    const grant = await ebook.from('user_tiers').upsert({ user_id: EBOOK_ID, tier: 'complete' });
    expect(grant.status).toBe(403);
    expect(grant.error?.code).toBe('42501');
    const del = await ebook.from('profiles').delete().eq('id', EBOOK_ID);
    expect(del.status).toBe(403);
    expect((await ebook.from('user_tiers').select('tier').single()).data).toEqual({ tier: 'ebook' });
  });

  it('service role deletes with return=representation', async () => {
    const admin = serviceClient(server.url);
    const created = await admin.auth.admin.createUser({
      email: uniqueEmail('del'),
      password: 'secret123',
      email_confirm: true,
    });
    const id = created.data.user!.id;
    await admin.from('profiles').update({ display_name: 'Temp' }).eq('id', id);
    const del = await admin.from('profiles').delete().eq('id', id).select('display_name');
    expect(del.data).toEqual([{ display_name: 'Temp' }]);
  });
});

describe('rpc', () => {
  it('is_staff answers per caller', async () => {
    expect((await staff.rpc('is_staff')).data).toBe(true);
    expect((await ebook.rpc('is_staff')).data).toBe(false);
    expect((await anonClient(server.url).rpc('is_staff')).data).toBe(false);
  });

  it('grant_tier / revoke_tier are staff-only', async () => {
    const refused = await ebook.rpc('grant_tier', { target_user: EBOOK_ID, new_tier: 'complete', reason: 'me' });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: '42501', message: 'only staff can grant tiers' });
    const ok = await staff.rpc('grant_tier', { target_user: NOTIER_ID, new_tier: 'foundation', reason: 'comp copy' });
    expect(ok.error).toBeNull();
    const notier = await signedIn(server.url, 'notier@example.com');
    expect((await notier.from('user_tiers').select('tier').single()).data).toEqual({ tier: 'foundation' });
    expect((await staff.rpc('revoke_tier', { target_user: NOTIER_ID, reason: 'comp ended' })).error).toBeNull();
    expect((await notier.from('user_tiers').select('tier').single()).data).toEqual({ tier: null });
    const bad = await staff.rpc('grant_tier', { target_user: NOTIER_ID, new_tier: 'platinum', reason: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.error?.code).toBe('22P02');
    const unknown = await staff.rpc('no_such_function');
    expect(unknown.status).toBe(404);
    expect(unknown.error?.code).toBe('PGRST202');
  });
});

describe('isolation under concurrency', () => {
  it('many interleaved requests from different users each see only their own data', async () => {
    const users = [
      { client: ebook, id: EBOOK_ID, tier: 'ebook' },
      { client: foundation, id: FOUNDATION_ID, tier: 'foundation' },
      { client: staff, id: '00000000-0000-4000-8000-000000000006', tier: 'complete' },
    ];
    const anon = anonClient(server.url);
    const jobs = Array.from({ length: 60 }, (_, i) => {
      const u = users[i % users.length]!;
      if (i % 4 === 3) return anon.rpc('is_staff').then((r) => expect(r.data).toBe(false));
      if (i % 2 === 0) {
        return u.client
          .from('profiles')
          .select('id')
          .then((r) => expect(r.data).toEqual([{ id: u.id }]));
      }
      return u.client
        .from('user_tiers')
        .select('user_id, tier')
        .then((r) => expect(r.data).toEqual([{ user_id: u.id, tier: u.tier }]));
    });
    await Promise.all(jobs);
  });

  it('a raw request with only the anon key is anon', async () => {
    const res = await fetch(`${server.url}/rest/v1/rpc/is_staff`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe(false);
  });
});

describe('nothing from the query string reaches SQL unchecked', () => {
  async function get(query: string, token?: string) {
    const headers: Record<string, string> = { apikey: ANON_KEY };
    if (token) headers.Authorization = `Bearer ${token}`;
    return fetch(`${server.url}/rest/v1/${query}`, { headers });
  }

  it('accepts only plain allowed type names as select casts (PGRST100 otherwise)', async () => {
    const token = (await ebook.auth.getSession()).data.session!.access_token;
    const injected = 'user_id::text as x from user_tiers as _t union all select session_user';
    const res = await get(`user_tiers?select=${encodeURIComponent(injected)}`, token);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'PGRST100' });
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    for (const cast of ['te xt', 'pg_catalog.text', 'text)', 'varchar(1)', 'regclass', 'text--', 'TEXT x', 'int[][]']) {
      const r = await get(`profiles?select=${encodeURIComponent(`id::${cast}`)}`, token);
      expect(r.status, cast).toBe(400);
      expect(await r.json(), cast).toMatchObject({ code: 'PGRST100' });
    }
    // Plain casts still work.
    const ok = await ebook.from('profiles').select('id::text, name:display_name::text');
    expect(ok.error).toBeNull();
    expect(ok.data).toEqual([{ id: EBOOK_ID, name: 'Eve Ebook' }]);
  });

  it('refuses hostile order, on_conflict and columns values with a 4xx', async () => {
    const token = (await staff.auth.getSession()).data.session!.access_token;
    const headers = {
      apikey: ANON_KEY,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Prefer: 'resolution=merge-duplicates',
    };
    const hostile = ['id; select 1', 'id" desc, (select 1)--', 'id) do nothing; --'];
    for (const h of hostile) {
      const order = await get(`profiles?order=${encodeURIComponent(h)}`, token);
      expect(order.status, h).toBe(400);
      for (const param of ['on_conflict', 'columns']) {
        const res = await fetch(`${server.url}/rest/v1/profiles?${param}=${encodeURIComponent(h)}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ id: EBOOK_ID }),
        });
        expect(res.status, `${param}=${h}`).toBe(400);
      }
    }
    const limit = await get('profiles?limit=99999999999999999999999', token);
    expect(limit.status).toBe(400);
    expect(await limit.json()).toMatchObject({ code: 'PGRST100' });
  });
});
