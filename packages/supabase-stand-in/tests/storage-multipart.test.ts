// Multipart uploads as hosted Storage reads them (supabase/storage src/storage/uploader.ts,
// @fastify/multipart over busboy): first the parser on its own, fed a request as it streams in,
// then uploads through the stand-in.
import type { IncomingMessage } from 'node:http';
import { PassThrough, Writable } from 'node:stream';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY } from '../keys.mjs';
import { MultipartError, readMultipartFile } from '../multipart.mjs';
import { signedIn, startStandIn, type StandIn } from './helpers';

const CT = 'multipart/form-data; boundary=B';
const field = (name: string, value: string) =>
  `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (type = 'image/png', name = '') =>
  `--B\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: ${type}\r\n\r\n`;

/** A request the test writes into as it goes, as a client sends one. */
function streamingRequest(contentType = CT) {
  const req = new PassThrough();
  return { req, asRequest: req as unknown as IncomingMessage, headers: { 'content-type': contentType } };
}

/** Writes `chunk`, waiting while the reader is behind (so a reader that stops reading stops the writer). */
async function write(req: PassThrough, chunk: string | Buffer) {
  if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve));
}

/** A sink that counts bytes and keeps the first few. */
function counter() {
  const kept: Buffer[] = [];
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes <= 1024) kept.push(chunk);
      done();
    },
  });
  return { sink, bytes: () => bytes, text: () => Buffer.concat(kept).toString('utf8') };
}

describe('readMultipartFile (busboy, as @fastify/multipart request.file())', () => {
  it('hands over the first file while the request is still arriving, with the fields sent before it', async () => {
    const { req, asRequest, headers } = streamingRequest();
    const parsed = readMultipartFile(asRequest, headers, { fileSize: 1024 });
    req.write(field('cacheControl', '60') + field('contentType', 'image/webp') + fileHead('Image/PNG; charset=x'));
    req.write('abc');
    // Resolves before the body has ended: nothing waits for (or holds) the whole body.
    const file = await parsed;
    expect(req.writableEnded).toBe(false);
    expect(file).not.toBeNull();
    expect(file!.mimeType).toBe('image/png');
    expect({ ...file!.fields }).toEqual({ cacheControl: '60', contentType: 'image/webp' });
    const out = counter();
    const piped = file!.pipeTo(out.sink);
    req.end(`def\r\n${field('metadata', '{"late":true}')}--B--\r\n`);
    await piped;
    expect(out.text()).toBe('abcdef');
    expect(file!.truncated()).toBe(false);
    // A field after the file is not read, as hosted reads the fields when the file starts.
    expect(file!.fields.metadata).toBeUndefined();
  });

  it('cuts a file over fileSize as it streams and reads the rest of the body without keeping it', async () => {
    const { req, asRequest, headers } = streamingRequest();
    const parsed = readMultipartFile(asRequest, headers, { fileSize: 1000 });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    req.write(fileHead());
    req.write(chunk);
    const file = (await parsed)!;
    const out = counter();
    const piped = file.pipeTo(out.sink);
    // 8 MB in all, written only as fast as it is read: the writer would stall if the parser held it.
    for (let i = 1; i < 128; i++) await write(req, chunk);
    req.end('\r\n--B--\r\n');
    await piped;
    expect(out.bytes()).toBe(1000);
    expect(file.truncated()).toBe(true);
  });

  it('answers null for a body without a file part, or an empty body', async () => {
    const noFile = streamingRequest();
    const none = readMultipartFile(noFile.asRequest, noFile.headers, { fileSize: 1024 });
    noFile.req.end(`${field('cacheControl', '60')}--B--\r\n`);
    expect(await none).toBeNull();
    const empty = streamingRequest();
    const nothing = readMultipartFile(empty.asRequest, empty.headers, { fileSize: 1024 });
    empty.req.end();
    expect(await nothing).toBeNull();
  });

  it('refuses a malformed body with hosted’s words', async () => {
    const noBoundary = streamingRequest('multipart/form-data');
    const a = readMultipartFile(noBoundary.asRequest, noBoundary.headers, { fileSize: 1024 });
    noBoundary.req.end(fileHead() + 'x\r\n--B--\r\n');
    await expect(a).rejects.toEqual(new MultipartError('Multipart: Boundary not found'));

    const junk = streamingRequest();
    const b = readMultipartFile(junk.asRequest, junk.headers, { fileSize: 1024 });
    junk.req.end('this is not multipart');
    await expect(b).rejects.toEqual(new MultipartError('Unexpected end of multipart data'));

    const cut = streamingRequest();
    const c = readMultipartFile(cut.asRequest, cut.headers, { fileSize: 1024 });
    cut.req.end(fileHead() + 'the file never ends');
    const file = (await c)!;
    await expect(file.pipeTo(counter().sink)).rejects.toEqual(
      new MultipartError('Part terminated early due to unexpected end of multipart data'),
    );
  });

  it('applies hosted’s limits and field rules before the file', async () => {
    const many = streamingRequest();
    const tooMany = readMultipartFile(many.asRequest, many.headers, { fileSize: 1024 });
    many.req.end(Array.from({ length: 11 }, (_, i) => field(`f${i}`, 'x')).join('') + fileHead() + 'x\r\n--B--\r\n');
    await expect(tooMany).rejects.toEqual(new MultipartError('reach fields limit'));

    // A repeated field is absent (hosted reads .value of what @fastify/multipart made an array).
    const twice = streamingRequest();
    const repeated = readMultipartFile(twice.asRequest, twice.headers, { fileSize: 1024 });
    twice.req.end(
      field('cacheControl', '1') + field('cacheControl', '2') + field('metadata', '{}') + fileHead() + 'x\r\n--B--\r\n',
    );
    expect({ ...(await repeated)!.fields }).toEqual({ metadata: '{}' });

    // A field named like an Object.prototype property is dropped; with no file it fails the body.
    const proto = streamingRequest();
    const p = readMultipartFile(proto.asRequest, proto.headers, { fileSize: 1024 });
    proto.req.end(`${field('constructor', 'x')}--B--\r\n`);
    await expect(p).rejects.toEqual(new MultipartError('prototype property is not allowed as field name'));
  });
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const EBOOK_ID = '00000000-0000-4000-8000-000000000001';
const AVATAR = `${EBOOK_ID}/avatar.png`;

describe('multipart uploads through the stand-in', () => {
  let server: StandIn;
  let ebook: SupabaseClient;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await startStandIn({ seedSampleFiles: false });
    ebook = await signedIn(server.url, 'ebook@example.com');
    const token = (await ebook.auth.getSession()).data.session!.access_token;
    auth = { apikey: ANON_KEY, Authorization: `Bearer ${token}` };
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (body: BodyInit, contentType = CT, extra: Record<string, string> = {}) =>
    fetch(`${server.url}/storage/v1/object/avatars/${AVATAR}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': contentType, 'x-upsert': 'true', ...extra },
      body,
      duplex: 'half',
    } as RequestInit);
  const stored = async () => {
    const r = await server.db.query<{ metadata: Record<string, unknown>; user_metadata: unknown }>(
      `select metadata, user_metadata from storage.objects where bucket_id = 'avatars' and name = $1`,
      [AVATAR],
    );
    return r.rows[0] ?? null;
  };
  const publicUrl = () => ebook.storage.from('avatars').getPublicUrl(AVATAR).data.publicUrl;

  it('refuses a file over the bucket limit while streaming it (413), also without a Content-Length', async () => {
    await ebook.storage.from('avatars').remove([AVATAR]);
    // Streamed (chunked), so the permission test sees no contentLength and only the limit stops it.
    const chunk = new Uint8Array(64 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(fileHead()));
      },
      pull(controller) {
        if (sent++ < 128) controller.enqueue(chunk);
        else {
          controller.enqueue(new TextEncoder().encode('\r\n--B--\r\n'));
          controller.close();
        }
      },
    });
    const res = await post(body);
    // HTTP 400 with the code in the body, as hosted Storage's error handler sends it.
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: '413',
      error: 'Payload too large',
      message: 'The object exceeded the maximum allowed size',
      code: 'EntityTooLarge',
    });
    expect(sent).toBe(129);
    expect(await stored()).toBeNull();
    expect((await fetch(publicUrl())).status).toBe(400);
  });

  it('tests the avatar policy with the request’s Content-Length: a fitting file in a body over 2 MB is a 403', async () => {
    const almost = Buffer.alloc(2 * 1024 * 1024 - 16);
    const multipart = await ebook.storage
      .from('avatars')
      .upload(AVATAR, new Blob([almost], { type: 'image/png' }), { upsert: true });
    expect(multipart.error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    const raw = await ebook.storage.from('avatars').upload(AVATAR, almost, { contentType: 'image/png', upsert: true });
    expect(raw.error).toBeNull();
    expect((await stored())?.metadata).toMatchObject({ size: almost.length });
  });

  it('answers a body with no file, an empty, a malformed or a boundary-less body with 400 InvalidRequest', async () => {
    const cases: [BodyInit, string, string][] = [
      [`${field('cacheControl', '60')}--B--\r\n`, CT, 'No content provided'],
      ['', CT, 'No content provided'],
      ['this is not multipart', CT, 'Unexpected end of multipart data'],
      [`${fileHead()}the file never ends`, CT, 'Part terminated early due to unexpected end of multipart data'],
      [`${fileHead()}x\r\n--B--\r\n`, 'multipart/form-data', 'Multipart: Boundary not found'],
    ];
    for (const [body, contentType, message] of cases) {
      const res = await post(body, contentType);
      expect(res.status, message).toBe(400);
      expect(await res.json(), message).toEqual({
        statusCode: '400',
        error: 'InvalidRequest',
        message,
        code: 'InvalidRequest',
      });
    }
    expect((await fetch(`${server.url}/auth/v1/health`)).status).toBe(200);
  });

  it('reads the fields as hosted does: contentType, cacheControl and metadata before the file; one file', async () => {
    const first = Buffer.concat([PNG, Buffer.from('first')]);
    const body = Buffer.concat([
      Buffer.from(
        field('contentType', 'image/webp') + field('metadata', 'not json') + fileHead('application/octet-stream'),
      ),
      first,
      Buffer.from(`\r\n${field('cacheControl', '60')}${fileHead('image/png')}second\r\n--B--\r\n`),
    ]);
    const res = await post(new Uint8Array(body));
    expect(res.status).toBe(200);
    const download = await fetch(publicUrl());
    expect(download.headers.get('content-type')).toBe('image/webp');
    // cacheControl came after the file: not read, so hosted's default.
    expect(download.headers.get('cache-control')).toBe('no-cache');
    expect(Buffer.from(await download.arrayBuffer()).equals(first)).toBe(true);
    // Metadata that is not JSON is dropped; the row keeps `{ ...undefined }`, hosted's {} (uploader.ts).
    expect((await stored())?.user_metadata).toEqual({});

    const withCache = await post(field('cacheControl', '60') + fileHead() + 'x\r\n--B--\r\n');
    expect(withCache.status).toBe(200);
    expect((await fetch(publicUrl())).headers.get('cache-control')).toBe('max-age=60');

    // Only exactly 'multipart/form-data…' is read as a form (uploader.ts); anything else is a raw file.
    const upper = await post(`${fileHead()}x\r\n--B--\r\n`, 'Multipart/Form-Data; boundary=B');
    expect(upper.status).toBe(400);
    expect(await upper.json()).toMatchObject({ message: 'mime type Multipart/Form-Data; boundary=B is not supported' });
  });
});
