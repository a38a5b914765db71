// Stamped copies expire, end to end: the stand-in, the download function in real Deno, the
// Storage API and the database. The scheduled call (…/download/expire, as Supabase Cron and the
// stand-in's timer make it) removes the copies not downloaded for 90 days and keeps the rest;
// the member's next download makes the copy again; only the service role may call it. Time is
// moved by dating the rows back (the download log and the copy's object), not by waiting.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEpub, makePdf } from '../../../supabase/functions/download/fixtures';
import { pdfPageText } from '../../../supabase/functions/download/test-support';
import { EXPIRY_SCHEDULE_PATH, runExpirySchedule } from '../cron.mjs';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../keys.mjs';
import { serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
let service: SupabaseClient;
const PDF = 'ebook/expire-test/guide.pdf';
const EPUB = 'ebook/expire-test/guide.epub';

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  service = serviceClient(server.url);
  const files: [string, Uint8Array, string][] = [
    [PDF, await makePdf({ pages: 3, bytes: 20_000, title: 'The Guide' }), 'application/pdf'],
    [EPUB, makeEpub(2), 'application/epub+zip'],
  ];
  for (const [name, bytes, type] of files) {
    const { error } = await service.storage
      .from('resources')
      .upload(name, new Blob([new Uint8Array(bytes)], { type }), { contentType: type, upsert: true });
    if (error) throw error;
  }
});
afterAll(async () => {
  await server?.close();
});

async function member(prefix: string) {
  const email = uniqueEmail(prefix);
  const created = await service.auth.admin.createUser({ email, password: 'secret-pass-1', email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error('no user');
  const granted = await service
    .from('tier_grants')
    .insert({ user_id: created.data.user.id, tier: 'ebook', reason: 'test', granted_by: null });
  if (granted.error) throw granted.error;
  const { data } = await (await signedIn(server.url, email, 'secret-pass-1')).auth.getSession();
  if (!data.session) throw new Error('no session');
  return { id: created.data.user.id, email, token: data.session.access_token };
}

/** Downloads `path` as `token` through the function and follows the link: the file's bytes. */
async function download(path: string, token: string): Promise<Uint8Array> {
  const answer = await fetch(`${server.url}/functions/v1/download?path=${encodeURIComponent(path)}`, {
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  expect(answer.status).toBe(200);
  const { url } = (await answer.json()) as { url: string };
  return new Uint8Array(await (await fetch(url)).arrayBuffer());
}

/** The member's stamped copies, by extension, with their object's age in whole days. */
async function copies(memberId: string): Promise<Record<string, number>> {
  const { rows } = await server.db.query<{ ext: string; days: number }>(
    `select split_part(name, '.', 2) as ext, floor(extract(epoch from now() - created_at) / 86400)::int as days
     from storage.objects where bucket_id = 'stamped-downloads' and name like $1 || '/%'`,
    [memberId],
  );
  return Object.fromEntries(rows.map((row) => [row.ext, row.days]));
}

/** As if the member made their copies 200 days ago and last downloaded `file` `days` ago. */
async function lastDownloaded(memberId: string, file: string, days: number) {
  // Storage's trigger stamps updated_at on every update; as the superuser, past it.
  await server.db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `update storage.objects set created_at = now() - interval '200 days', updated_at = now() - interval '200 days'
       where bucket_id = 'stamped-downloads' and name like $1 || '/%'`,
      [memberId],
    );
  });
  await server.db.query(
    `update public.download_log set downloaded_at = now() - make_interval(days => $3::int)
     where user_id = $1 and file_name = $2`,
    [memberId, file, days],
  );
}

function expire(headers: Record<string, string>, method = 'POST') {
  return fetch(`${server.url}${EXPIRY_SCHEDULE_PATH}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
}

describe('the scheduled expiry', () => {
  it('removes a copy last downloaded 91 days ago, keeps one downloaded 89 days ago', async () => {
    const me = await member('expire');
    await download(PDF, me.token);
    await download(EPUB, me.token);
    await lastDownloaded(me.id, PDF, 91);
    await lastDownloaded(me.id, EPUB, 89);
    expect(await copies(me.id)).toEqual({ pdf: 200, epub: 200 });

    const { status, body } = await runExpirySchedule(server.url);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, removed: 1, more: false });
    expect(await copies(me.id)).toEqual({ epub: 200 });

    // The next download makes the copy again, stamped with the member's address.
    const bytes = await download(PDF, me.token);
    expect(await pdfPageText(bytes, 0)).toContain(`Licensed to ${me.email} on `);
    expect(await copies(me.id)).toEqual({ pdf: 0, epub: 200 });

    // Nothing else is due: the next run removes nothing.
    expect((await runExpirySchedule(server.url)).body).toMatchObject({ ok: true, removed: 0 });
    expect(await copies(me.id)).toEqual({ pdf: 0, epub: 200 });
  });
});

describe('only the service role may call it', () => {
  it.each([
    ['no key', null, 401],
    ['the anon key', ANON_KEY, 401],
    ['a member’s session', 'member', 401],
  ])('%s is refused and removes nothing', async (_, key, status) => {
    const me = await member('expire-refused');
    await download(PDF, me.token);
    await lastDownloaded(me.id, PDF, 365);
    const bearer = key === 'member' ? me.token : key;
    const answer = await expire({ apikey: ANON_KEY, ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) });
    expect(answer.status).toBe(status);
    expect(await copies(me.id)).toEqual({ pdf: 200 });
  });

  it('with the service role key, only POST', async () => {
    const answer = await expire({ apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` }, 'GET');
    expect(answer.status).toBe(405);
  });
});
