// The download function end to end: the stand-in, the function in real Deno, GoTrue, the
// Storage API and the database. A member gets their own stamped copy through a 60-second link,
// once stamped per file version; every download is logged; every refusal says why and logs
// nothing; and the member can no longer sign a paid file themselves.
import type { SupabaseClient } from '@supabase/supabase-js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chapterTitles, makeEpub, makePdf } from '../../../supabase/functions/download/fixtures';
import { epubFacts, pdfFacts, pdfPageText } from '../../../supabase/functions/download/test-support';
import { readFunctionsConfig } from '../functions/service.mjs';
import { ANON_KEY } from '../keys.mjs';
import { serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
let service: SupabaseClient;
const PDF = 'ebook/download-test/guide.pdf';
const EPUB = 'ebook/download-test/guide.epub';
const MP3 = 'ebook/download-test/talk.mp3';
const ABOVE = 'complete/download-test/bonus.pdf';

async function put(name: string, bytes: Uint8Array, type: string) {
  const { error } = await service.storage
    .from('resources')
    .upload(name, new Blob([new Uint8Array(bytes)], { type }), { contentType: type, upsert: true });
  if (error) throw error;
}

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  service = serviceClient(server.url);
  const pdf = await makePdf({ pages: 5, bytes: 50_000, title: 'The Guide', author: 'Jo Author', chapters: 3 });
  await put(PDF, pdf, 'application/pdf');
  await put(ABOVE, pdf, 'application/pdf');
  await put(EPUB, makeEpub(2), 'application/epub+zip');
  await put(MP3, new Uint8Array([0xff, 0xfb, 0x90, 0x00, 1, 2, 3]), 'audio/mpeg');
});
afterAll(async () => {
  await server?.close();
});

/** A confirmed member holding `tier` (granted as the seed and e2e fixtures grant it). */
async function member(prefix: string, tier: string | null = 'ebook') {
  const email = uniqueEmail(prefix);
  const password = 'secret-pass-1';
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error('no user');
  const id = created.data.user.id;
  if (tier) {
    const { error } = await service.from('tier_grants').insert({ user_id: id, tier, reason: 'test', granted_by: null });
    if (error) throw error;
  }
  const client = await signedIn(server.url, email, password);
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return { id, email, client, token: data.session.access_token };
}

function download(path: string, token: string | null, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/functions/v1/download?path=${encodeURIComponent(path)}`, {
    headers: {
      apikey: ANON_KEY,
      Accept: 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    redirect: 'manual',
  });
}

async function fetchCopy(path: string, token: string, headers: Record<string, string> = {}) {
  const answer = await download(path, token, headers);
  expect(answer.status).toBe(200);
  const { url, expires_in } = (await answer.json()) as { url: string; expires_in: number };
  expect(expires_in).toBeLessThanOrEqual(60);
  const file = await fetch(url);
  expect(file.status).toBe(200);
  return { url, file, bytes: new Uint8Array(await file.arrayBuffer()) };
}

async function logRows(userId: string) {
  const { data, error } = await service
    .from('download_log')
    .select('file_name, file_version, ip, user_agent')
    .eq('user_id', userId)
    .order('id');
  if (error) throw error;
  return data;
}

describe('config', () => {
  it('keeps the gateway’s JWT check on for the download function', () => {
    expect(readFunctionsConfig(readFileSync('supabase/config.toml', 'utf8')).get('download')).toEqual({
      verifyJwt: true,
    });
  });
});

describe('a member’s download', () => {
  it('is their own stamped PDF, through a 60-second link, logged with address and browser', async () => {
    const me = await member('dl-pdf');
    const { file, bytes } = await fetchCopy(PDF, me.token, { 'User-Agent': 'test-agent/1' });
    expect(file.headers.get('content-disposition')).toContain('guide.pdf');
    expect(await pdfPageText(bytes, 0)).toContain(`Licensed to ${me.email} on `);
    expect(await pdfFacts(bytes)).toEqual({
      title: 'The Guide',
      author: 'Jo Author',
      pages: 5,
      outline: chapterTitles(3),
    });
    expect(await logRows(me.id)).toEqual([
      {
        file_name: PDF,
        file_version: expect.stringMatching(/^[0-9a-f]{32}$/),
        ip: '127.0.0.1',
        user_agent: 'test-agent/1',
      },
    ]);
  });

  it('is stamped once per file version and stamped again when staff replace the file', async () => {
    const me = await member('dl-cache');
    await fetchCopy(PDF, me.token);
    await fetchCopy(PDF, me.token);
    const listed = async () => {
      const { data: objects } = await service.storage.from('stamped-downloads').list(me.id, { limit: 10 });
      const folder = objects?.[0]?.name ?? '';
      const { data } = await service.storage.from('stamped-downloads').list(`${me.id}/${folder}`, { limit: 10 });
      return (data ?? []).map((entry) => entry.name);
    };
    expect(await listed()).toHaveLength(1);
    await put(PDF, await makePdf({ pages: 7, bytes: 30_000, title: 'The Guide', chapters: 2 }), 'application/pdf');
    const { bytes } = await fetchCopy(PDF, me.token);
    expect((await pdfFacts(bytes)).pages).toBe(7);
    expect(await pdfPageText(bytes, 0)).toContain(me.email);
    expect(await listed()).toHaveLength(2);
    const versions = (await logRows(me.id)).map((row) => row.file_version);
    expect(versions[0]).toBe(versions[1]);
    expect(versions[2]).not.toBe(versions[1]);
  });

  it('of an EPUB starts with a licence page naming them', async () => {
    const me = await member('dl-epub');
    const facts = epubFacts((await fetchCopy(EPUB, me.token)).bytes);
    expect(facts.first).toBe('mimetype');
    expect(facts.spine[0]).toBe('yyc-licence.xhtml');
    expect(facts.pages[0]).toContain(`Licensed to ${me.email}`);
  });

  it('of audio is the file as uploaded, logged', async () => {
    const me = await member('dl-mp3');
    const { bytes } = await fetchCopy(MP3, me.token);
    expect(Array.from(bytes)).toEqual([0xff, 0xfb, 0x90, 0x00, 1, 2, 3]);
    expect((await logRows(me.id)).map((row) => row.file_name)).toEqual([MP3]);
  });

  it('is a redirect to the link for a plain request', async () => {
    const me = await member('dl-302');
    const answer = await download(PDF, me.token, { Accept: 'text/html' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toContain('/storage/v1/object/sign/stamped-downloads/');
  });
});

describe('refusals say why and log nothing', () => {
  it.each([
    ['an unknown file', 'ebook/download-test/missing.pdf', 404, 'not_found'],
    ['a file above the member’s tier', ABOVE, 403, 'above_tier'],
    ['dot segments', 'ebook/download-test/../../complete/download-test/bonus.pdf', 404, 'not_found'],
    ['a path into another folder', 'avatars/x/avatar.png', 404, 'not_found'],
    ['an empty path', '', 404, 'not_found'],
  ])('%s', async (_, path, status, code) => {
    const me = await member('dl-refused');
    const answer = await download(path, me.token);
    expect(answer.status).toBe(status);
    const body = (await answer.json()) as { error: string; message: string };
    expect(body.error).toBe(code);
    expect(body.message.length).toBeGreaterThan(10);
    expect(await logRows(me.id)).toEqual([]);
  });

  it('a member without a tier', async () => {
    const me = await member('dl-notier', null);
    expect((await download(PDF, me.token)).status).toBe(403);
    expect(await logRows(me.id)).toEqual([]);
  });

  it('no session: the gateway’s 401', async () => {
    const answer = await download(PDF, null);
    expect(answer.status).toBe(401);
  });

  it('a signed-out session', async () => {
    const me = await member('dl-signedout');
    await me.client.auth.signOut();
    const answer = await download(PDF, me.token);
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: string }).error).toBe('not_signed_in');
    expect(await logRows(me.id)).toEqual([]);
  });
});

describe('Storage', () => {
  it('lets a member list their folder but not sign or download a paid file', async () => {
    const me = await member('dl-direct');
    const bucket = me.client.storage.from('resources');
    const listed = await bucket.list('ebook/download-test');
    expect(listed.data?.map((entry) => entry.name).sort()).toEqual(['guide.epub', 'guide.pdf', 'talk.mp3']);
    const signed = await bucket.createSignedUrl(PDF, 60);
    expect(signed.data).toBeNull();
    expect(signed.error).not.toBeNull();
    const direct = await bucket.download(PDF);
    expect(direct.data).toBeNull();
    const stamped = await me.client.storage.from('stamped-downloads').list(me.id);
    expect(stamped.data ?? []).toEqual([]);
  });
});
