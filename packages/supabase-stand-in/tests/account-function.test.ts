// The account function end to end: the stand-in, the function in real Deno, GoTrue's
// admin delete, the Storage API and the database's triggers and policies. A member exports and
// deletes their own account; staff erase a member; nobody else can do either; and a deleted
// member's unexpired access token reads and signs nothing while its refresh token fails.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFunctionsConfig } from '../functions/service.mjs';
import { ANON_KEY, DEMO_PASSWORD, signJwt } from '../keys.mjs';
import { anonClient, serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
let service: SupabaseClient;
const FILE = 'ebook/erasure-test/guide.pdf';

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  service = serviceClient(server.url);
  const uploaded = await service.storage
    .from('resources')
    .upload(FILE, new Blob(['%PDF-1.4 test'], { type: 'application/pdf' }), { contentType: 'application/pdf' });
  if (uploaded.error) throw uploaded.error;
});
afterAll(async () => {
  await server?.close();
});

/** A confirmed member who bought the ebook (recorded as the webhook records a sale). */
async function buyer(prefix: string, password = 'secret-pass-1') {
  const email = uniqueEmail(prefix);
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error('no user');
  const order = `ord-${email}`;
  const sale = await service.rpc('record_purchase', {
    p_provider: 'stripe',
    p_event_id: `evt-${email}`,
    p_order_id: order,
    p_email: email,
    p_product: 'ebook',
    p_tier: 'ebook',
    p_amount_cents: 1999,
    p_currency: 'EUR',
    p_occurred_at: new Date().toISOString(),
  });
  if (sale.error) throw sale.error;
  const client = await signedIn(server.url, email, password);
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return { id: created.data.user.id, email, password, order, client, session: data.session };
}

function call(path: string, token: string | null, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${server.url}/functions/v1/account/${path}`, {
    method: init.method ?? 'POST',
    headers: {
      apikey: ANON_KEY,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** A client that sends only this access token (no refresh), as a tab still holding it would. */
function withToken(token: string): SupabaseClient {
  return createClient(server.url, ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: WebSocket as never },
  });
}

type ExportFile = {
  account: { id: string; email: string; signed_up_at: string; last_sign_in_at: string };
  profile: Record<string, unknown> | null;
  tier: { tier: string | null; source: string | null };
  purchases: Record<string, unknown>[];
  downloads: Record<string, unknown>[];
  listening_and_watching: Record<string, unknown>[];
  player: Record<string, unknown> | null;
};

describe('config', () => {
  it('keeps the gateway’s JWT check on for the account function', () => {
    expect(readFunctionsConfig(readFileSync('supabase/config.toml', 'utf8')).get('account')).toEqual({
      verifyJwt: true,
    });
  });
});

describe('export', () => {
  it('hands a member their own data as one uncached JSON file', async () => {
    const member = await buyer('export');
    const other = await buyer('export-other');
    // A download each, as the download function logs them.
    for (const [who, ip] of [
      [member, '203.0.113.5'],
      [other, '203.0.113.6'],
    ] as const) {
      const logged = await service.from('download_log').insert({
        user_id: who.id,
        object_id: randomUUID(),
        file_name: FILE,
        file_version: 'v1',
        ip,
        user_agent: 'test',
      });
      expect(logged.error).toBeNull();
    }
    // A place in an audio file and a speed, as the member's player saves them.
    for (const [rpc, args] of [
      ['save_media_progress', { p_file_name: 'ebook/ebook/welcome.mp3', p_position: 30, p_duration: 60 }],
      ['set_playback_rate', { p_rate: 1.25 }],
    ] as const) {
      const saved = await fetch(`${server.url}/rest/v1/rpc/${rpc}`, {
        method: 'POST',
        headers: {
          apikey: ANON_KEY,
          Authorization: `Bearer ${member.session.access_token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(args),
      });
      expect(saved.status, await saved.text()).toBe(200);
    }
    const res = await call('export', member.session.access_token, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="yes-you-can-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const body = (await res.json()) as ExportFile;
    expect(body.account).toMatchObject({ id: member.id, email: member.email });
    expect(Date.parse(body.account.signed_up_at)).not.toBeNaN();
    expect(Date.parse(body.account.last_sign_in_at)).not.toBeNaN();
    expect(body.profile).toMatchObject({ display_name: null, avatar_url: null });
    expect(body.tier).toMatchObject({ tier: 'ebook', source: 'purchase' });
    expect(body.purchases).toEqual([
      expect.objectContaining({ order_id: member.order, product: 'ebook', amount_cents: 1999, status: 'paid' }),
    ]);
    expect(body.downloads).toEqual([
      { file_name: FILE, file_version: 'v1', downloaded_at: expect.any(String), ip: '203.0.113.5', user_agent: 'test' },
    ]);
    expect(body.listening_and_watching).toEqual([
      {
        file_name: 'ebook/ebook/welcome.mp3',
        position_seconds: 30,
        duration_seconds: 60,
        finished_at: null,
        updated_at: expect.any(String),
      },
    ]);
    expect(body.player).toEqual({ playback_rate: 1.25, updated_at: expect.any(String) });
    expect(JSON.stringify(body)).not.toContain(other.email);
  });

  it("keeps a staff member's export to their own rows (staff may read every purchase)", async () => {
    const staff = await signedIn(server.url, 'staff@example.com');
    const { data } = await staff.auth.getSession();
    const res = await call('export', data.session!.access_token, { method: 'GET' });
    const body = (await res.json()) as ExportFile;
    expect(res.status).toBe(200);
    expect(body.account.email).toBe('staff@example.com');
    expect(body.tier).toMatchObject({ tier: 'complete', source: 'staff_grant' });
    expect(body.purchases).toEqual([]);
  });

  it('refuses no token, the anon key, a forged token and a signed-out session', async () => {
    const member = await buyer('export-refused');
    expect((await call('export', null, { method: 'GET' })).status).toBe(401);
    expect((await call('export', ANON_KEY, { method: 'GET' })).status).toBe(401);
    const forged = await signJwt(
      { sub: member.id, role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 600 },
      'x'.repeat(40),
    );
    expect((await call('export', forged, { method: 'GET' })).status).toBe(401);
    await member.client.auth.signOut();
    const ended = await call('export', member.session.access_token, { method: 'GET' });
    expect(ended.status).toBe(401);
    expect(await ended.json()).toMatchObject({ error: 'not_signed_in' });
  });
});

describe('a member deletes their account', () => {
  it('refuses a wrong or missing password and changes nothing', async () => {
    const member = await buyer('delete-wrong');
    const wrong = await call('delete', member.session.access_token, { body: { password: 'not-it' } });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ error: 'wrong_password' });
    expect((await call('delete', member.session.access_token, { body: {} })).status).toBe(400);
    expect((await service.auth.admin.getUserById(member.id)).data.user?.id).toBe(member.id);
  });

  it('removes the account; the purchase stays unattached; the old session reads and signs nothing', async () => {
    const member = await buyer('delete');
    const avatar = await member.client.storage
      .from('avatars')
      .upload(`${member.id}/avatar.png`, new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), {
        contentType: 'image/png',
      });
    expect(avatar.error).toBeNull();
    // A stamped copy the download function made for them (it carries their address).
    const copy = `${member.id}/${randomUUID()}/v1.pdf`;
    const stamped = await service.storage
      .from('stamped-downloads')
      .upload(copy, new Blob(['%PDF-1.4 stamped'], { type: 'application/pdf' }), { contentType: 'application/pdf' });
    expect(stamped.error).toBeNull();
    // While the account lives, the same token lists the file (so the refusal below means something);
    // members never sign paid files themselves (the download function does).
    const listed = await member.client.storage.from('resources').list('ebook/erasure-test');
    expect(listed.data?.map((entry) => entry.name)).toEqual(['guide.pdf']);

    const res = await call('delete', member.session.access_token, { body: { password: member.password } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ deleted: true, purchases_kept: 1 });

    // Gone: the user, the avatar file (bytes too: the public URL answers 400 / not found).
    expect((await service.auth.admin.getUserById(member.id)).error?.status).toBe(404);
    expect((await service.storage.from('avatars').list(member.id)).data).toEqual([]);
    expect((await service.storage.from('stamped-downloads').download(copy)).error).not.toBeNull();
    expect((await service.storage.from('stamped-downloads').list(member.id)).data).toEqual([]);
    expect((await fetch(`${server.url}/storage/v1/object/public/avatars/${member.id}/avatar.png`)).ok).toBe(false);

    // Kept: the purchase, detached for good; the erasure log row.
    const kept = await service
      .from('purchases')
      .select('user_id, account_removed_at, status')
      .eq('order_id', member.order);
    expect(kept.data).toEqual([{ user_id: null, account_removed_at: expect.any(String), status: 'paid' }]);
    const logged = await service
      .from('account_erasures')
      .select('kind, requested_by, reason, completed_at')
      .eq('erased_user', member.id);
    expect(logged.data).toEqual([
      { kind: 'self', requested_by: member.id, reason: null, completed_at: expect.any(String) },
    ]);

    // Sign-in fails; the refresh token fails; the auth server no longer knows the token.
    const again = await anonClient(server.url).auth.signInWithPassword({
      email: member.email,
      password: member.password,
    });
    expect(again.error?.code).toBe('invalid_credentials');
    const refreshed = await anonClient(server.url).auth.refreshSession({ refresh_token: member.session.refresh_token });
    expect(refreshed.error).not.toBeNull();
    expect((await anonClient(server.url).auth.getUser(member.session.access_token)).error).not.toBeNull();

    // The unexpired access token, straight to PostgREST and Storage: nothing.
    const old = withToken(member.session.access_token);
    for (const table of ['profiles', 'user_tiers', 'purchases'] as const) {
      const read = await old.from(table).select('*');
      expect(read.error, table).toBeNull();
      expect(read.data, table).toEqual([]);
    }
    const oldStorage = old.storage;
    expect((await oldStorage.from('resources').list('ebook/erasure-test')).data ?? []).toEqual([]);
    expect((await oldStorage.from('resources').createSignedUrl(FILE, 60)).error).not.toBeNull();
    expect((await oldStorage.from('resources').download(FILE)).error).not.toBeNull();
    const reupload = await oldStorage
      .from('avatars')
      .upload(`${member.id}/avatar.png`, new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), {
        contentType: 'image/png',
      });
    expect(reupload.error).not.toBeNull();
    // And the function itself refuses it.
    expect((await call('export', member.session.access_token, { method: 'GET' })).status).toBe(401);
  });

  it('a new account with the same address does not get the old purchase back', async () => {
    const member = await buyer('delete-readd');
    expect((await call('delete', member.session.access_token, { body: { password: member.password } })).status).toBe(
      200,
    );
    const again = await service.auth.admin.createUser({
      email: member.email,
      password: 'another-pass',
      email_confirm: true,
    });
    expect(again.error).toBeNull();
    const row = await service.from('purchases').select('user_id').eq('order_id', member.order).single();
    expect(row.data).toEqual({ user_id: null });
    const tier = await service.from('user_tiers').select('tier').eq('user_id', again.data.user!.id).maybeSingle();
    expect(tier.data?.tier ?? null).toBeNull();
    // A refund that arrives now still records.
    const refund = await service.rpc('record_refund', {
      p_provider: 'stripe',
      p_event_id: `evt-refund-${member.email}`,
      p_order_id: member.order,
      p_occurred_at: new Date().toISOString(),
    });
    expect(refund.data).toMatchObject({ found: true, user_id: null });
  });
});

describe('staff erase a member', () => {
  async function staffToken() {
    const staff = await signedIn(server.url, 'staff@example.com', DEMO_PASSWORD);
    const { data } = await staff.auth.getSession();
    return { token: data.session!.access_token, id: data.session!.user.id };
  }

  it('with the typed e-mail and a reason: erased, audited with who and why', async () => {
    const member = await buyer('erase');
    const staff = await staffToken();
    const mismatch = await call('erase', staff.token, {
      body: { user_id: member.id, email: 'someone-else@example.com', reason: 'Asked by e-mail' },
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ error: 'email_mismatch' });
    const noReason = await call('erase', staff.token, {
      body: { user_id: member.id, email: member.email, reason: ' ' },
    });
    expect(noReason.status).toBe(400);
    expect((await service.auth.admin.getUserById(member.id)).data.user?.id).toBe(member.id);

    const res = await call('erase', staff.token, {
      body: { user_id: member.id, email: member.email.toUpperCase(), reason: 'Asked by e-mail on 25 Nov' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ erased: true, purchases_kept: 1 });
    expect((await service.auth.admin.getUserById(member.id)).error?.status).toBe(404);
    const logged = await service
      .from('account_erasures')
      .select('kind, requested_by, reason')
      .eq('erased_user', member.id);
    expect(logged.data).toEqual([{ kind: 'staff', requested_by: staff.id, reason: 'Asked by e-mail on 25 Nov' }]);
  });

  it('refuses a staff target, themselves, and anyone not staff', async () => {
    const member = await buyer('erase-refused');
    const colleague = await buyer('erase-colleague');
    expect((await service.from('staff').insert({ user_id: colleague.id })).error).toBeNull();
    const staff = await staffToken();

    const staffTarget = await call('erase', staff.token, {
      body: { user_id: colleague.id, email: colleague.email, reason: 'test' },
    });
    expect(staffTarget.status).toBe(403);
    expect(await staffTarget.json()).toMatchObject({ error: 'target_is_staff' });
    const self = await call('erase', staff.token, {
      body: { user_id: staff.id, email: 'staff@example.com', reason: 'test' },
    });
    expect(self.status).toBe(403);
    expect(await self.json()).toMatchObject({ error: 'cannot_erase_self' });
    const byMember = await call('erase', member.session.access_token, {
      body: { user_id: colleague.id, email: colleague.email, reason: 'test' },
    });
    expect(byMember.status).toBe(403);
    expect(await byMember.json()).toMatchObject({ error: 'not_staff' });
    expect((await call('erase', null, { body: { user_id: member.id } })).status).toBe(401);
    // A token forged with another secret, and a real one that has expired, for a staff id.
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: staff.id, role: 'authenticated', aud: 'authenticated' };
    const forged = await signJwt({ ...claims, exp: now + 600 }, 'y'.repeat(40));
    const expired = await signJwt({ ...claims, iat: now - 7200, exp: now - 3600 });
    for (const token of [forged, expired]) {
      const refused = await call('erase', token, { body: { user_id: member.id, email: member.email, reason: 'test' } });
      expect(refused.status).toBe(401);
    }

    for (const id of [member.id, colleague.id, staff.id]) {
      expect((await service.auth.admin.getUserById(id)).data.user?.id).toBe(id);
    }
  });
});
