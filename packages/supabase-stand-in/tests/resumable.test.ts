// Resumable (TUS 1.0.0) uploads at /storage/v1/upload/resumable, with hosted Storage's semantics
// (supabase/storage src/http/routes/tus/, its @tus/server and S3 store): the upload is created
// with its bucket, name and type in Upload-Metadata, tested as the caller (RLS) and against the
// bucket's limits before any byte; PATCHes append at the offset HEAD reports; the object is
// written, as any upload's, when the last byte arrives. Errors are the tus server's plain text
// with their own status. Requests are made as tus-js-client makes them (raw fetch: the client is
// not a dependency of the repository).
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, SERVICE_ROLE_KEY } from '../keys.mjs';
import { TUS_EXPOSED_HEADERS } from '../storage/resumable.mjs';
import { signedIn, startStandIn, type StandIn } from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';
const CHUNK = 6 * 1024 * 1024;

let server: StandIn;
let staff: SupabaseClient;
let ebook: SupabaseClient;
let staffToken: string;
let ebookToken: string;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  [staff, ebook] = await Promise.all([
    signedIn(server.url, 'staff@example.com'),
    signedIn(server.url, 'ebook@example.com'),
  ]);
  staffToken = (await staff.auth.getSession()).data.session!.access_token;
  ebookToken = (await ebook.auth.getSession()).data.session!.access_token;
});
afterAll(async () => {
  await server?.close();
});

let files = 0;
/** A fresh, well-formed resources path ({tier}/{slug}/{file}). */
const resourcePath = () => `ebook/resumable-test/file-${++files}.pdf`;

/** Upload-Metadata as tus-js-client sends it: `key base64(value)` pairs. */
const metadataHeader = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

type TusInit = { token?: string | null; headers?: Record<string, string>; body?: Buffer };

/** A request as tus-js-client sends it: Tus-Resumable, the apikey and the user's bearer token. */
function tus(method: string, url: string, { token = staffToken, headers = {}, body }: TusInit = {}) {
  const auth: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
  return fetch(url.startsWith('http') ? url : `${server.url}/storage/v1/upload/resumable${url}`, {
    method,
    headers: { 'Tus-Resumable': '1.0.0', apikey: ANON_KEY, ...auth, ...headers },
    body: body ? new Uint8Array(body) : undefined,
  });
}

/** POST: a new upload of `length` bytes, optionally with its first bytes. */
function create(
  metadata: Record<string, string>,
  length: number,
  init: TusInit & { first?: Buffer; path?: string } = {},
) {
  const { first, path = '', headers = {}, ...rest } = init;
  return tus('POST', path, {
    ...rest,
    headers: {
      'Upload-Length': String(length),
      'Upload-Metadata': metadataHeader(metadata),
      ...(first ? { 'Content-Type': 'application/offset+octet-stream' } : {}),
      ...headers,
    },
    body: first,
  });
}

const pdf = (objectName: string) => ({
  bucketName: 'resources',
  objectName,
  contentType: 'application/pdf',
  cacheControl: '3600',
});

function patch(location: string, offset: number, body: Buffer, init: TusInit = {}) {
  return tus('PATCH', location, {
    ...init,
    headers: { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', ...init.headers },
    body,
  });
}

async function offsetOf(location: string, init: TusInit = {}) {
  const res = await tus('HEAD', location, init);
  expect(res.status).toBe(200);
  return Number(res.headers.get('upload-offset'));
}

async function objectRow(name: string) {
  const r = await server.db.query<{ owner: string | null; metadata: Record<string, unknown>; user_metadata: unknown }>(
    `select owner::text, metadata, user_metadata from storage.objects where bucket_id = 'resources' and name = $1`,
    [name],
  );
  return r.rows[0];
}

async function downloaded(name: string) {
  const { data, error } = await staff.storage.from('resources').download(name);
  expect(error).toBeNull();
  return Buffer.from(await data!.arrayBuffer());
}

/**
 * A PATCH that sends `sent` of its declared `declared` bytes on a raw socket, then either half-closes
 * (the client went away) or stays open (a stalled client). Resolves with the raw answer, if any.
 */
function partialPatch(location: string, offset: number, sent: Buffer, declared: number, hangUp: boolean) {
  const url = new URL(location);
  const socket = connect(Number(url.port), url.hostname);
  const head = [
    `PATCH ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    'Tus-Resumable: 1.0.0',
    `apikey: ${ANON_KEY}`,
    `Authorization: Bearer ${staffToken}`,
    'Content-Type: application/offset+octet-stream',
    `Upload-Offset: ${offset}`,
    `Content-Length: ${declared}`,
    '',
    '',
  ].join('\r\n');
  let answer = '';
  socket.on('data', (d) => (answer += d.toString('latin1')));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.on('error', () => {});
  socket.write(head);
  socket.write(sent, () => {
    if (hangUp) setTimeout(() => socket.end(), 200);
  });
  return closed;
}

describe('a resumable upload by staff', () => {
  it('takes the file in 6 MB chunks (the first with the creation) and downloads it byte-identical', async () => {
    const name = resourcePath();
    const file = randomBytes(2 * CHUNK + 12345);
    const created = await create(pdf(name), file.length, { first: file.subarray(0, CHUNK) });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.slice(`${server.url}/storage/v1/upload/resumable/`.length);
    expect(location.startsWith(`${server.url}/storage/v1/upload/resumable/`)).toBe(true);
    expect(Buffer.from(id, 'base64url').toString()).toMatch(new RegExp(`^resources/${name}/[0-9a-f-]{36}$`));
    expect(created.headers.get('upload-offset')).toBe(String(CHUNK));
    expect(created.headers.get('tus-resumable')).toBe('1.0.0');
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    expect(created.headers.get('access-control-expose-headers')).toBe(TUS_EXPOSED_HEADERS);
    const expires = Date.parse(created.headers.get('upload-expires')!);
    expect(Math.abs(expires - (Date.now() + 24 * 3600 * 1000))).toBeLessThan(60_000);
    // Not written before the last byte.
    expect(await objectRow(name)).toBeUndefined();

    const second = await patch(location, CHUNK, file.subarray(CHUNK, 2 * CHUNK));
    expect(second.status).toBe(204);
    expect(second.headers.get('upload-offset')).toBe(String(2 * CHUNK));
    expect(second.headers.get('tus-complete')).toBeNull();
    const last = await patch(location, 2 * CHUNK, file.subarray(2 * CHUNK));
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(file.length));
    expect(last.headers.get('tus-complete')).toBe('1');
    expect(last.headers.get('upload-expires')).toBeNull();

    expect((await downloaded(name)).equals(file)).toBe(true);
    const row = await objectRow(name);
    const staffId = (await staff.auth.getUser()).data.user!.id;
    expect(row).toMatchObject({
      owner: staffId,
      user_metadata: null,
      metadata: {
        size: file.length,
        contentLength: file.length,
        mimetype: 'application/pdf',
        cacheControl: 'max-age=3600',
        httpStatusCode: 200,
      },
    });
    expect(row!.metadata.eTag).toMatch(/^"[0-9a-f]{32}"$/);
    // A finished upload still answers HEAD with its whole length, and cannot be terminated.
    expect(await offsetOf(location)).toBe(file.length);
    const del = await tus('DELETE', location, { headers: { 'x-upsert': 'true' } });
    expect(del.status).toBe(400);
    expect(await del.text()).toBe('Cannot terminate an already completed upload');
  });

  it('keeps the bytes of a PATCH cut off, reports them at HEAD, and resumes from there', async () => {
    const name = resourcePath();
    const file = randomBytes(3 * 1024 * 1024);
    const created = await create(pdf(name), file.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(await offsetOf(location)).toBe(0);

    await partialPatch(location, 0, file.subarray(0, 1024 * 1024), file.length, true);
    let offset = 0;
    for (let i = 0; i < 50 && offset === 0; i++) {
      offset = await offsetOf(location);
      if (offset === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(1024 * 1024);

    const head = await tus('HEAD', location);
    expect(head.headers.get('upload-length')).toBe(String(file.length));
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(head.headers.get('upload-metadata')).toBe(metadataHeader({ ...pdf(name), cacheControl: 'max-age=3600' }));
    // Chunks of any size are taken (hosted does not enforce the 6 MB its clients use).
    const rest = await patch(location, offset, file.subarray(offset, offset + 1000));
    expect(rest.status).toBe(204);
    const done = await patch(location, offset + 1000, file.subarray(offset + 1000));
    expect(done.headers.get('tus-complete')).toBe('1');
    expect((await downloaded(name)).equals(file)).toBe(true);
  });

  it('lets a HEAD take over a stalled PATCH: the PATCH stops, keeping what it received', async () => {
    const name = resourcePath();
    const file = randomBytes(2 * 1024 * 1024);
    const location = (await create(pdf(name), file.length)).headers.get('location')!;
    const stalled = partialPatch(location, 0, file.subarray(0, 512 * 1024), file.length, false);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    expect(await offsetOf(location)).toBe(512 * 1024);
    // The holder is asked to let go and drains for 3 seconds first (@tus/server's lockDrainTimeout).
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    const answer = await stalled;
    expect(answer).toMatch(/^HTTP\/1\.1 204/);
    expect(answer).toMatch(/\r\nupload-offset: 524288\r\n/i);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  }, 20_000);
});

describe('a resumable upload of unknown length', () => {
  it('takes Upload-Defer-Length, then the length declared by a PATCH', async () => {
    const name = resourcePath();
    const file = randomBytes(5000);
    const created = await tus('POST', '', {
      headers: { 'Upload-Defer-Length': '1', 'Upload-Metadata': metadataHeader(pdf(name)) },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const head = await tus('HEAD', location);
    expect(head.headers.get('upload-defer-length')).toBe('1');
    expect(head.headers.get('upload-length')).toBeNull();
    const first = await patch(location, 0, file.subarray(0, 2000));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-expires')).not.toBeNull();
    const tooLong = await patch(location, 2000, file.subarray(2000), {
      headers: { 'Upload-Length': String(1024 ** 3 + 1) },
    });
    expect(tooLong.status).toBe(413);
    const last = await patch(location, 2000, file.subarray(2000), {
      headers: { 'Upload-Length': String(file.length) },
    });
    expect(last.headers.get('tus-complete')).toBe('1');
    expect((await downloaded(name)).equals(file)).toBe(true);
  });
});

describe('refusals', () => {
  it('refuses a PATCH at another offset with 409, keeping the upload unchanged', async () => {
    const location = (await create(pdf(resourcePath()), 10)).headers.get('location')!;
    const res = await patch(location, 5, Buffer.from('12345'));
    expect(res.status).toBe(409);
    expect(await res.text()).toBe('Upload-Offset conflict\n');
    expect(res.headers.get('connection')).toBe('close');
    expect(await offsetOf(location)).toBe(0);
  });

  it('refuses a member who is not staff at creation (the resources policy)', async () => {
    const res = await create(pdf(resourcePath()), 100, { token: ebookToken });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('new row violates row-level security policy');
    expect(res.headers.get('location')).toBeNull();
  });

  it("refuses an Upload-Length over the bucket's limit, or the global one, with 413 before any byte", async () => {
    const avatar = { bucketName: 'avatars', objectName: `${EBOOK_ID}/avatar.png`, contentType: 'image/png' };
    const big = await create(avatar, 2 * 1024 * 1024 + 1, { token: ebookToken });
    expect(big.status).toBe(413);
    expect(await big.text()).toBe('Maximum size exceeded\n');
    // resources allows 1 GiB, as does config.toml's global limit (a global limit below a
    // bucket's: upload-size-limit.test.ts).
    const huge = await create(pdf(resourcePath()), 1024 ** 3 + 1);
    expect(huge.status).toBe(413);
    expect(await huge.text()).toBe('Maximum size exceeded\n');
    // Within the limit, the avatars policy refuses uploads that are not its upload routes.
    const small = await create(avatar, 100, { token: ebookToken });
    expect(small.status).toBe(403);
  });

  it('refuses a content type the bucket does not allow', async () => {
    const png = { ...pdf(resourcePath()), contentType: 'image/png' };
    const bySuper = await create(png, 100, { token: SERVICE_ROLE_KEY });
    expect(bySuper.status).toBe(415);
    expect(await bySuper.text()).toBe('mime type image/png is not supported');
    // Staff are refused by the policy first: hosted tests the row before it checks the type.
    const byStaff = await create(png, 100);
    expect(byStaff.status).toBe(403);
  });

  it('refuses a request without credentials as hosted does', async () => {
    const bare = await fetch(`${server.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '10',
        'Upload-Metadata': metadataHeader(pdf(resourcePath())),
      },
    });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({ message: 'No API key found in request' });
    const anon = await create(pdf(resourcePath()), 10, { token: null });
    expect(anon.status).toBe(403);
    expect(await anon.text()).toBe('new row violates row-level security policy');
    const forged = await create(pdf(resourcePath()), 10, { token: 'not-a-jwt' });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({
      statusCode: '403',
      error: 'Unauthorized',
      message: 'Invalid Compact JWS',
      code: 'AccessDenied',
    });
  });

  it('refuses x-upsert false onto an existing object with 409, and replaces it with x-upsert true', async () => {
    const name = resourcePath();
    const first = randomBytes(100);
    const location = (await create(pdf(name), first.length, { first })).headers.get('location')!;
    expect(await offsetOf(location)).toBe(first.length);
    const again = await create(pdf(name), 10);
    expect(again.status).toBe(409);
    expect(await again.text()).toBe('The resource already exists');
    const second = randomBytes(10);
    const replaced = await create(pdf(name), second.length, { first: second, headers: { 'x-upsert': 'true' } });
    expect(replaced.status).toBe(201);
    expect(replaced.headers.get('tus-complete')).toBe('1');
    expect((await downloaded(name)).equals(second)).toBe(true);
  });

  it('answers as the tus server: Tus-Resumable required, headers checked, Metadata required', async () => {
    const noVersion = await fetch(`${server.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${staffToken}`, 'Upload-Length': '1' },
    });
    expect(noVersion.status).toBe(412);
    expect(await noVersion.text()).toBe('Tus-Resumable Required\n');
    const badLength = await tus('POST', '', { headers: { 'Upload-Length': '-1', 'Upload-Offset': 'x' } });
    expect(badLength.status).toBe(400);
    expect(await badLength.text()).toBe('Invalid upload-length upload-offset\n');
    const noMetadata = await tus('POST', '', { headers: { 'Upload-Length': '1' } });
    expect(noMetadata.status).toBe(400);
    expect(await noMetadata.text()).toBe('Metadata header is required');
    const noBucket = await create({ ...pdf(resourcePath()), bucketName: 'nope' }, 1);
    expect(noBucket.status).toBe(404);
    expect(await noBucket.text()).toBe('Bucket not found');
    const unknown = await tus('HEAD', `/${Buffer.from('resources/x.pdf/v1').toString('base64url')}`);
    expect(unknown.status).toBe(404);
  });

  it('terminates an unfinished upload with DELETE', async () => {
    const location = (await create(pdf(resourcePath()), 10)).headers.get('location')!;
    const del = await tus('DELETE', location);
    expect(del.status).toBe(204);
    expect((await tus('HEAD', location)).status).toBe(404);
  });
});

describe('signed resumable uploads (/upload/resumable/sign with x-signature)', () => {
  it('uploads with a signed upload token instead of a session', async () => {
    const name = resourcePath();
    const signed = await fetch(`${server.url}/storage/v1/object/upload/sign/resources/${name}`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${staffToken}`, 'content-type': 'application/pdf' },
      body: '{}',
    });
    expect(signed.status).toBe(200);
    const { token } = (await signed.json()) as { token: string };
    const file = randomBytes(1000);
    const missing = await create(pdf(name), file.length, { token: null, path: '/sign' });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toBe('Missing x-signature header');
    const other = await create(pdf(resourcePath()), file.length, {
      token: null,
      path: '/sign',
      headers: { 'x-signature': token },
    });
    expect(other.status).toBe(400);
    expect(await other.text()).toBe('Invalid signature');
    const created = await create(pdf(name), file.length, {
      token: null,
      path: '/sign',
      headers: { 'x-signature': token },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toContain('/storage/v1/upload/resumable/sign/');
    const done = await patch(location, 0, file, { token: null, headers: { 'x-signature': token } });
    expect(done.headers.get('tus-complete')).toBe('1');
    expect((await downloaded(name)).equals(file)).toBe(true);
    const staffId = (await staff.auth.getUser()).data.user!.id;
    expect((await objectRow(name))?.owner).toBe(staffId);
  });
});
