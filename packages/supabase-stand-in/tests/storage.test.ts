import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY } from '../keys.mjs';
import { anonClient, signedIn, startStandIn, type StandIn } from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';
const FOUNDATION_ID = '00000000-0000-4000-8000-000000000002';
// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: StandIn;
let ebook: SupabaseClient;
let foundation: SupabaseClient;
let staff: SupabaseClient;
beforeAll(async () => {
  server = await startStandIn();
  [ebook, foundation, staff] = await Promise.all([
    signedIn(server.url, 'ebook@example.com'),
    signedIn(server.url, 'foundation@example.com'),
    signedIn(server.url, 'staff@example.com'),
  ]);
});
afterAll(async () => {
  await server?.close();
});

describe('avatars (public bucket)', () => {
  it('uploads a Blob (multipart), serves it at the public URL, and upserts', async () => {
    const path = `${EBOOK_ID}/avatar.png`;
    const up = await ebook.storage
      .from('avatars')
      .upload(path, new Blob([PNG], { type: 'image/png' }), { upsert: true });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path, fullPath: `avatars/${path}` });
    const { publicUrl } = ebook.storage.from('avatars').getPublicUrl(path).data;
    const res = await fetch(publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);

    const again = await ebook.storage.from('avatars').upload(path, PNG, { contentType: 'image/png' });
    expect(again.error).toMatchObject({ statusCode: '409' });
    const replaced = await ebook.storage
      .from('avatars')
      .upload(path, Buffer.concat([PNG, Buffer.from([0])]), { contentType: 'image/png', upsert: true });
    expect(replaced.error).toBeNull();
    expect((await (await fetch(publicUrl)).arrayBuffer()).byteLength).toBe(PNG.length + 1);
  });

  it('enforces the bucket size and type limits and the own-folder policy', async () => {
    // A multipart upload's permission test sees the request's Content-Length (framing included),
    // as on hosted: the avatar policy refuses it before the bucket limit is reached.
    const big = await ebook.storage
      .from('avatars')
      .upload(`${EBOOK_ID}/avatar.jpg`, new Blob([Buffer.alloc(2 * 1024 * 1024 + 1)], { type: 'image/jpeg' }));
    expect(big.error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    const rawBig = await ebook.storage
      .from('avatars')
      .upload(`${EBOOK_ID}/avatar.jpg`, Buffer.alloc(2 * 1024 * 1024 + 1), { contentType: 'image/jpeg' });
    expect(rawBig.error).toMatchObject({ statusCode: '413' });
    const svg = await ebook.storage
      .from('avatars')
      .upload(`${EBOOK_ID}/avatar.svg`, new Blob(['<svg/>'], { type: 'image/svg+xml' }));
    expect(svg.error).toMatchObject({ statusCode: '415', message: 'mime type image/svg+xml is not supported' });
    const other = await ebook.storage
      .from('avatars')
      .upload(`${FOUNDATION_ID}/avatar.png`, new Blob([PNG], { type: 'image/png' }));
    expect(other.error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    const anon = await anonClient(server.url)
      .storage.from('avatars')
      .upload(`${EBOOK_ID}/avatar.gif`, new Blob([PNG], { type: 'image/gif' }));
    expect(anon.error?.statusCode).toBe('403');
  });

  it('lists only the caller’s folder and removes the caller’s own files', async () => {
    await foundation.storage
      .from('avatars')
      .upload(`${FOUNDATION_ID}/avatar.webp`, new Blob([PNG], { type: 'image/webp' }), { upsert: true });
    const mine = await foundation.storage.from('avatars').list(FOUNDATION_ID);
    expect(mine.data?.map((o) => o.name)).toEqual(['avatar.webp']);
    expect(mine.data?.[0]?.metadata).toMatchObject({ mimetype: 'image/webp', size: PNG.length });
    expect((await ebook.storage.from('avatars').list(FOUNDATION_ID)).data).toEqual([]);
    const notMine = await ebook.storage.from('avatars').remove([`${FOUNDATION_ID}/avatar.webp`]);
    expect(notMine.data).toEqual([]);
    const removed = await foundation.storage.from('avatars').remove([`${FOUNDATION_ID}/avatar.webp`]);
    expect(removed.data?.map((o) => o.name)).toEqual([`${FOUNDATION_ID}/avatar.webp`]);
    const gone = await fetch(
      foundation.storage.from('avatars').getPublicUrl(`${FOUNDATION_ID}/avatar.webp`).data.publicUrl,
    );
    expect(gone.status).toBe(400);
  });
});

describe('resources (private bucket)', () => {
  it('has real sample files: PDF, EPUB, MP3, MP4 and WebVTT', async () => {
    const { data, error } = await staff.storage.from('resources').download('ebook/ebook/yes-you-can.pdf');
    expect(error).toBeNull();
    const pdf = Buffer.from(await data!.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('/Count 3');
    const epub = Buffer.from(
      await (await staff.storage.from('resources').download('ebook/ebook/yes-you-can.epub')).data!.arrayBuffer(),
    );
    expect(epub.subarray(30, 38).toString()).toBe('mimetype');
    expect(epub.subarray(38, 58).toString()).toBe('application/epub+zip');
    const mp3 = Buffer.from(
      await (
        await staff.storage.from('resources').download('foundation/scripture-audio/session-1-called-to-write.mp3')
      ).data!.arrayBuffer(),
    );
    expect(mp3.subarray(0, 3).toString()).toBe('ID3');
    expect(mp3.length).toBeGreaterThan(20_000);
    const video = await staff.storage.from('resources').download('accelerated/masterclass/masterclass-welcome.mp4');
    expect(video.data!.type).toBe('video/mp4');
    expect(
      Buffer.from(await video.data!.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');
    const captions = await staff.storage.from('resources').download('accelerated/masterclass/masterclass-welcome.vtt');
    expect(captions.data!.type).toBe('text/vtt');
    expect(await captions.data!.text()).toMatch(/^WEBVTT\n/);
  });

  it('lists folders and files by tier; a lower tier sees nothing above it', async () => {
    const top = await staff.storage.from('resources').list('');
    expect(top.data?.map((o) => [o.name, o.id])).toEqual([
      ['accelerated', null],
      ['ebook', null],
      ['foundation', null],
    ]);
    const audio = await foundation.storage
      .from('resources')
      .list('foundation/scripture-audio', { limit: 2, offset: 1, sortBy: { column: 'name', order: 'asc' } });
    expect(audio.data?.map((o) => o.name)).toEqual(['session-1-called-to-write.mp3', 'session-2-fear-not.mp3']);
    const searched = await foundation.storage
      .from('resources')
      .list('foundation/scripture-audio', { search: 'listening' });
    expect(searched.data?.map((o) => o.name)).toEqual(['listening-guide.pdf']);
    expect((await ebook.storage.from('resources').list('foundation/worksheets')).data).toEqual([]);
    expect((await ebook.storage.from('resources').list('ebook/ebook')).data).toHaveLength(3);
  });

  it('signs URLs for staff only (members download through the function); a forged path or signature is refused', async () => {
    const own = await foundation.storage
      .from('resources')
      .createSignedUrl('foundation/worksheets/book-planning-worksheet.pdf', 60, { download: true });
    expect(own.error).toMatchObject({ statusCode: '404' });
    const signed = await staff.storage
      .from('resources')
      .createSignedUrl('foundation/worksheets/book-planning-worksheet.pdf', 60, { download: true });
    expect(signed.error).toBeNull();
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="book-planning-worksheet.pdf"');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const locked = await ebook.storage
      .from('resources')
      .createSignedUrl('foundation/worksheets/book-planning-worksheet.pdf', 60);
    expect(locked.error).toMatchObject({ statusCode: '404' });
    const direct = await ebook.storage.from('resources').download('foundation/worksheets/book-planning-worksheet.pdf');
    expect(direct.error).not.toBeNull();
    // A signature for the ebook file does not open the foundation file.
    const mine = await staff.storage.from('resources').createSignedUrl('ebook/ebook/yes-you-can.pdf', 60);
    const forged = mine.data!.signedUrl.replace(
      'ebook/ebook/yes-you-can.pdf',
      'foundation/worksheets/book-planning-worksheet.pdf',
    );
    expect((await fetch(forged)).status).toBe(400);
    // Change the signature's first character: it carries six whole bits, so the bytes differ
    // for sure (the last character carries padding bits a decoder may ignore).
    const tampered = mine.data!.signedUrl.replace(/token=([^&]+)/, (_m, t: string) => {
      const dot = t.lastIndexOf('.') + 1;
      return `token=${t.slice(0, dot)}${t[dot] === 'A' ? 'B' : 'A'}${t.slice(dot + 1)}`;
    });
    expect((await fetch(tampered)).status).toBe(400);
    expect((await fetch(`${server.url}/storage/v1/object/public/resources/ebook/ebook/yes-you-can.pdf`)).status).toBe(
      400,
    );

    const batch = await staff.storage
      .from('resources')
      .createSignedUrls(['ebook/ebook/yes-you-can.pdf', 'complete/publishing-roadmap/x.pdf'], 60);
    expect(batch.data?.map((b) => Boolean(b.signedUrl))).toEqual([true, false]);
    const members = await foundation.storage
      .from('resources')
      .createSignedUrls(['ebook/ebook/yes-you-can.pdf', 'foundation/worksheets/book-planning-worksheet.pdf'], 60);
    expect(members.data?.map((b) => Boolean(b.signedUrl))).toEqual([false, false]);
  });

  it('only staff upload (to a well-formed path) and remove', async () => {
    const pdf = new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' });
    const refused = await foundation.storage.from('resources').upload('foundation/worksheets/extra.pdf', pdf);
    expect(refused.error?.statusCode).toBe('403');
    const ok = await staff.storage.from('resources').upload('accelerated/masterclass/templates.pdf', pdf);
    expect(ok.error).toBeNull();
    const wrongType = await staff.storage
      .from('resources')
      .upload('accelerated/masterclass/evil.html', new Blob(['<b>'], { type: 'text/html' }));
    expect(wrongType.error?.statusCode).toBe('415');
    expect((await foundation.storage.from('resources').list('accelerated/masterclass')).data).toEqual([]);
    const accelerated = await signedIn(server.url, 'accelerated@example.com');
    expect(
      (await accelerated.storage.from('resources').list('accelerated/masterclass')).data?.map((o) => o.name),
    ).toEqual(['masterclass-welcome.mp4', 'masterclass-welcome.vtt', 'templates.pdf']);
    expect((await foundation.storage.from('resources').remove(['accelerated/masterclass/templates.pdf'])).data).toEqual(
      [],
    );
    expect((await staff.storage.from('resources').remove(['accelerated/masterclass/templates.pdf'])).data).toHaveLength(
      1,
    );
  });

  it('refuses traversal and junk in object names without touching the disk', async () => {
    const headers = {
      apikey: ANON_KEY,
      Authorization: `Bearer ${(await staff.auth.getSession()).data.session!.access_token}`,
    };
    for (const name of ['ebook/..%2F..%2Fetc%2Fpasswd', 'ebook/x%00.pdf', '%2Fetc%2Fpasswd']) {
      const res = await fetch(`${server.url}/storage/v1/object/authenticated/resources/${name}`, { headers });
      expect(res.status, name).toBe(400);
    }
    const res = await fetch(`${server.url}/storage/v1/object/nope/x.pdf`, { headers });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' });
  });
});

describe('the gateway in front of storage', () => {
  it('needs an apikey or Authorization, except for public downloads and signed-URL fetches', async () => {
    const noKey = { message: 'No API key found in request' };
    const bare: Array<[string, RequestInit]> = [
      ['bucket/resources', {}],
      ['bucket/avatars', {}],
      ['object/list/resources', { method: 'POST', body: '{}' }],
      ['object/authenticated/resources/ebook/ebook/yes-you-can.pdf', {}],
      ['object/resources/ebook/ebook/yes-you-can.pdf', {}],
      ['object/info/resources/ebook/ebook/yes-you-can.pdf', {}],
      ['object/sign/resources/ebook/ebook/yes-you-can.pdf', { method: 'POST', body: '{"expiresIn":60}' }],
      ['object/avatars/x/y.png', { method: 'POST', body: 'x' }],
      ['object/sign/resources/ebook/ebook/yes-you-can.pdf', {}],
      ['object/nope/x', {}],
    ];
    for (const [path, init] of bare) {
      const res = await fetch(`${server.url}/storage/v1/${path}`, init);
      expect(res.status, path).toBe(401);
      expect(await res.json(), path).toEqual(noKey);
    }
    const badKey = await fetch(`${server.url}/storage/v1/bucket/resources`, { headers: { apikey: 'not-a-key' } });
    expect(badKey.status).toBe(401);
    expect(await badKey.json()).toEqual({ message: 'Invalid authentication credentials' });
    // With a key the gateway lets it through; Storage then reads storage.buckets as anon, which
    // (RLS, no policy, as on the platform) sees no bucket.
    const withKey = await fetch(`${server.url}/storage/v1/bucket/avatars`, { headers: { apikey: ANON_KEY } });
    expect(withKey.status).toBe(400);
    expect(await withKey.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' });

    // What a browser fetches bare still works.
    const path = `${EBOOK_ID}/avatar.png`;
    expect(
      (await ebook.storage.from('avatars').upload(path, new Blob([PNG], { type: 'image/png' }), { upsert: true }))
        .error,
    ).toBeNull();
    const pub = await fetch(ebook.storage.from('avatars').getPublicUrl(path).data.publicUrl);
    expect(pub.status).toBe(200);
    expect(Buffer.from(await pub.arrayBuffer()).equals(PNG)).toBe(true);
    const signed = await staff.storage.from('resources').createSignedUrl('ebook/ebook/yes-you-can.pdf', 60);
    const viaSignature = await fetch(signed.data!.signedUrl);
    expect(viaSignature.status).toBe(200);
    expect(
      Buffer.from(await viaSignature.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });
});
