// The global upload limit is supabase/config.toml's `[storage] file_size_limit`, read as the
// Supabase CLI reads it (sizeInBytes: docker/go-units RAMInBytes), 50 MiB when absent: the limit
// `supabase config push` sets on the hosted project. No upload passes it, whatever its bucket
// allows, on the normal upload route (raw, multipart, signed) and on the resumable one; within
// it, the bucket's own limit holds. A file between 50 MiB and 1 GiB reaches the resources bucket
// (1 GiB, migration 20261207010000_media_playback.sql) by both routes.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  DEFAULT_FILE_SIZE_LIMIT,
  ramInBytes,
  readStorageSettings,
  sizeInBytes,
  STORAGE_SETTINGS,
} from '../config/storage.mjs';
import { CONFIG_TOML, parseToml } from '../config/toml.mjs';
import { ANON_KEY } from '../keys.mjs';
import { serviceClient, signedIn, startStandIn, type StandIn } from './helpers';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

describe('[storage] file_size_limit, read as the CLI reads it', () => {
  it('takes a number of bytes, or a size with a binary unit, "MB" as MiB (go-units RAMInBytes)', () => {
    // The CLI's own cases (pkg/config/config_test.go TestFileSizeLimitConfigParsing).
    expect(sizeInBytes(5000000, 'x')).toBe(5000000);
    expect(sizeInBytes('5MB', 'x')).toBe(5 * MIB);
    expect(sizeInBytes('5MiB', 'x')).toBe(5 * MIB);
    expect(sizeInBytes('5000000', 'x')).toBe(5000000);
    expect(() => sizeInBytes([], 'x')).toThrow(/not a size/);
    expect(() => sizeInBytes('foobar', 'x')).toThrow(/not a size/);
    // More of RAMInBytes: case, the optional b, a space, fractions, and what it refuses.
    expect(ramInBytes('1GiB')).toBe(GIB);
    expect(ramInBytes('1gib')).toBe(GIB);
    expect(ramInBytes('50M')).toBe(50 * MIB);
    expect(ramInBytes('2 kb')).toBe(2048);
    expect(ramInBytes('1.5GiB')).toBe(1.5 * GIB);
    expect(ramInBytes('10b')).toBe(10);
    expect(ramInBytes('10')).toBe(10);
    expect(ramInBytes('5 ')).toBe(5);
    for (const bad of ['GiB', '5MiBs', '5mx', '5bb', '-5MB', '5 GiB B', '5  MB'])
      expect(ramInBytes(bad), bad).toBe(null);
    expect(() => sizeInBytes(-1, 'x')).toThrow(/not a size/);
  });

  it('is 50 MiB when absent (the CLI default, hosted Free’s cap), and the repo sets 1 GiB', () => {
    expect(DEFAULT_FILE_SIZE_LIMIT).toBe(50 * MIB);
    expect(readStorageSettings(parseToml(''))).toEqual({ fileSizeLimit: 50 * MIB });
    expect(readStorageSettings(parseToml('[storage]\nenabled = true'))).toEqual({ fileSizeLimit: 50 * MIB });
    expect(readStorageSettings(parseToml('[storage]\nfile_size_limit = "200MiB"'))).toEqual({
      fileSizeLimit: 200 * MIB,
    });
    expect(() => readStorageSettings(parseToml('[storage]\nfile_size_limit = true'))).toThrow(
      /\[storage\] file_size_limit: not a size/,
    );
    expect(STORAGE_SETTINGS).toEqual(readStorageSettings(parseToml(readFileSync(CONFIG_TOML, 'utf8'))));
    expect(STORAGE_SETTINGS.fileSizeLimit).toBe(GIB);
  });
});

/** Upload-Metadata as tus-js-client sends it. */
const tusMetadata = (metadata: Record<string, string>) =>
  Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

function tus(
  server: StandIn,
  token: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
) {
  return fetch(url.startsWith('http') ? url : `${server.url}/storage/v1/upload/resumable${url}`, {
    method,
    headers: { 'Tus-Resumable': '1.0.0', apikey: ANON_KEY, Authorization: `Bearer ${token}`, ...headers },
    body: body ? new Uint8Array(body) : undefined,
  });
}

/** A resumable upload's creation, of `length` bytes of video to `name` in resources. */
const createUpload = (server: StandIn, token: string, name: string, length: number) =>
  tus(server, token, 'POST', '', {
    'Upload-Length': String(length),
    'Upload-Metadata': tusMetadata({ bucketName: 'resources', objectName: name, contentType: 'video/mp4' }),
  });

/** The whole file by resumable upload, in PATCHes of `chunk` bytes; the last answer. */
async function uploadResumable(server: StandIn, token: string, name: string, file: Buffer, chunk: number) {
  const created = await createUpload(server, token, name, file.length);
  expect(created.status).toBe(201);
  const location = created.headers.get('location')!;
  let last: Response = created;
  for (let offset = 0; offset < file.length; offset += chunk) {
    const headers = { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' };
    last = await tus(server, token, 'PATCH', location, headers, file.subarray(offset, offset + chunk));
    expect(last.status).toBe(204);
  }
  return last;
}

/**
 * A raw upload that declares `declared` bytes and sends only the first 64 KiB: the answer, as
 * soon as the server gives one (it refuses on the declared length, before reading the rest).
 */
function declaredUpload(server: StandIn, token: string, name: string, declared: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${server.url}/storage/v1/object/resources/${name}`, {
      method: 'POST',
      headers: {
        apikey: ANON_KEY,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'video/mp4',
        'Content-Length': String(declared),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(Buffer.alloc(64 * 1024));
  });
}

async function objectSize(server: StandIn, name: string) {
  const r = await server.db.query<{ metadata: { size: number; eTag: string } }>(
    `select metadata from storage.objects where bucket_id = 'resources' and name = $1`,
    [name],
  );
  return r.rows[0]?.metadata;
}

const md5 = (b: Buffer) => `"${createHash('md5').update(b).digest('hex')}"`;

const TOO_LARGE = { statusCode: '413', error: 'Payload too large', code: 'EntityTooLarge' };

describe("the repo's limit (1 GiB): a masterclass-sized file reaches the resources bucket", () => {
  let server: StandIn;
  let staff: SupabaseClient;
  let token: string;
  // Over hosted Free's 50 MB, well within 1 GiB.
  const video = randomBytes(60 * MIB);
  beforeAll(async () => {
    server = await startStandIn({ seedSampleFiles: false });
    staff = await signedIn(server.url, 'staff@example.com');
    token = (await staff.auth.getSession()).data.session!.access_token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('by the normal upload route, raw and multipart', async () => {
    const raw = await staff.storage
      .from('resources')
      .upload('complete/size-limit/raw.mp4', video, { contentType: 'video/mp4' });
    expect(raw.error).toBeNull();
    expect(await objectSize(server, 'complete/size-limit/raw.mp4')).toMatchObject({
      size: video.length,
      eTag: md5(video),
    });
    const form = await staff.storage
      .from('resources')
      .upload('complete/size-limit/form.mp4', new Blob([video], { type: 'video/mp4' }));
    expect(form.error).toBeNull();
    expect(await objectSize(server, 'complete/size-limit/form.mp4')).toMatchObject({ size: video.length });
  }, 60_000);

  it('by the resumable route, in the 6 MiB chunks Supabase asks tus clients for', async () => {
    const name = 'complete/size-limit/resumable.mp4';
    const last = await uploadResumable(server, token, name, video, 6 * MIB);
    expect(last.headers.get('tus-complete')).toBe('1');
    expect(await objectSize(server, name)).toMatchObject({ size: video.length, eTag: md5(video) });
  }, 60_000);

  it('refuses more than 1 GiB on both routes before taking the bytes', async () => {
    const normal = await declaredUpload(server, token, 'complete/size-limit/huge.mp4', GIB + 1);
    expect(normal.status).toBe(400);
    expect(JSON.parse(normal.body)).toMatchObject(TOO_LARGE);
    const resumable = await createUpload(server, token, 'complete/size-limit/huge.mp4', GIB + 1);
    expect(resumable.status).toBe(413);
    expect(await resumable.text()).toBe('Maximum size exceeded\n');
    expect(await objectSize(server, 'complete/size-limit/huge.mp4')).toBeUndefined();
  });
});

describe('a global limit below the bucket’s (1 MiB here; resources allows 1 GiB)', () => {
  let server: StandIn;
  let staff: SupabaseClient;
  let token: string;
  const atLimit = randomBytes(MIB);
  const overLimit = randomBytes(MIB + 1);
  beforeAll(async () => {
    server = await startStandIn({ seedSampleFiles: false, fileSizeLimit: MIB });
    staff = await signedIn(server.url, 'staff@example.com');
    token = (await staff.auth.getSession()).data.session!.access_token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a file over it by every normal upload (raw, multipart, signed URL) with 413', async () => {
    const bucket = staff.storage.from('resources');
    const raw = await bucket.upload('complete/global-limit/raw.mp4', overLimit, { contentType: 'video/mp4' });
    expect(raw.error).toMatchObject({ statusCode: '413' });
    const form = await bucket.upload('complete/global-limit/form.mp4', new Blob([overLimit], { type: 'video/mp4' }));
    expect(form.error).toMatchObject({ statusCode: '413' });
    // Signed by the service role: the resources policy wants a type and size, which signing has not.
    const signed = await serviceClient(server.url)
      .storage.from('resources')
      .createSignedUploadUrl('complete/global-limit/signed.mp4');
    expect(signed.error).toBeNull();
    const viaSigned = await bucket.uploadToSignedUrl(
      'complete/global-limit/signed.mp4',
      signed.data!.token,
      overLimit,
      {
        contentType: 'video/mp4',
      },
    );
    expect(viaSigned.error).toMatchObject({ statusCode: '413' });
    for (const name of ['raw', 'form', 'signed'])
      expect(await objectSize(server, `complete/global-limit/${name}.mp4`)).toBeUndefined();
    const fits = await bucket.upload('complete/global-limit/fits.mp4', atLimit, { contentType: 'video/mp4' });
    expect(fits.error).toBeNull();
  });

  it('refuses an Upload-Length over it on the resumable route with 413, and takes one at it', async () => {
    const over = await createUpload(server, token, 'complete/global-limit/resumable.mp4', MIB + 1);
    expect(over.status).toBe(413);
    expect(await over.text()).toBe('Maximum size exceeded\n');
    const last = await uploadResumable(server, token, 'complete/global-limit/resumable.mp4', atLimit, MIB);
    expect(last.headers.get('tus-complete')).toBe('1');
  });
});
