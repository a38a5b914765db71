// Where the stand-in once answered otherwise than hosted Supabase (found with the official
// supabase-js suites), each checked here against what the hosted server's source answers:
// storage's error `code` (supabase/storage src/internal/errors/codes.ts, src/http/error-handler.ts),
// a download's 304 (src/storage/renderer/renderer.ts), the object info answer
// (src/storage/renderer/info.ts), GoTrue's admin user list (internal/api/admin.go adminUsers,
// pagination.go), PUT /user behind requireAuthentication (internal/api/api.go) and an unknown
// grant_type (internal/api/token.go).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { BURST } from '../auth/request-limits.mjs';
import { ANON_KEY, SERVICE_ROLE_KEY, signJwt } from '../keys.mjs';
import { fetchFrom, nextLoopbackAddress } from '../loopback-fetch.mjs';
import { anonClient, serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';
const PDF = 'ebook/ebook/yes-you-can.pdf';
// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const SERVICE = { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` };

let server: StandIn;
let service: SupabaseClient;
let ebook: SupabaseClient;
beforeAll(async () => {
  server = await startStandIn();
  service = serviceClient(server.url);
  ebook = await signedIn(server.url, 'ebook@example.com');
});
afterAll(async () => {
  await server?.close();
});

/** A storage request's status and JSON body, and the body's keys in the order they were sent. */
async function storage(path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}/storage/v1/${path}`, { ...init, headers: { ...SERVICE, ...init.headers } });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, keys: Object.keys(body) };
}

describe('storage errors carry hosted’s code', () => {
  it('a missing object is NoSuchKey, in hosted’s body and key order', async () => {
    const missing = await storage('object/resources/ebook/ebook/missing.pdf');
    expect(missing).toEqual({
      status: 400,
      body: { statusCode: '404', error: 'not_found', message: 'Object not found', code: 'NoSuchKey' },
      keys: ['statusCode', 'error', 'message', 'code'],
    });
    const { error } = await service.storage.from('resources').download('ebook/ebook/missing.pdf');
    expect(error).toMatchObject({ status: 400, statusCode: '404', message: 'Object not found' });
    // supabase-js reads `code` from this body from 2.112 on (StorageApiError.code); the pinned
    // 2.109 keeps only statusCode, so the body above is what hosted's clients see.
    const info = await service.storage.from('avatars').info('nobody/missing.png');
    expect(info.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
  });

  it('a missing bucket is NoSuchBucket; a duplicate KeyAlreadyExists; RLS AccessDenied', async () => {
    expect((await storage('object/no-such-bucket/x.png')).body).toEqual({
      statusCode: '404',
      error: 'Bucket not found',
      message: 'Bucket not found',
      code: 'NoSuchBucket',
    });
    const path = 'hosted/dup.png';
    expect((await service.storage.from('avatars').upload(path, PNG, { contentType: 'image/png' })).error).toBeNull();
    const dup = await storage(`object/avatars/${path}`, {
      method: 'POST',
      body: PNG,
      headers: { 'content-type': 'image/png' },
    });
    expect(dup).toMatchObject({
      status: 400,
      body: { statusCode: '409', error: 'Duplicate', message: 'The resource already exists', code: 'KeyAlreadyExists' },
    });
    const session = (await ebook.auth.getSession()).data.session!;
    const refused = await storage('object/avatars/someone-else/x.png', {
      method: 'POST',
      body: PNG,
      headers: { Authorization: `Bearer ${session.access_token}`, apikey: ANON_KEY, 'content-type': 'image/png' },
    });
    expect(refused.body).toEqual({
      statusCode: '403',
      error: 'Unauthorized',
      message: 'new row violates row-level security policy',
      code: 'AccessDenied',
    });
  });

  it('a refused type is InvalidMimeType, a bad token AccessDenied, an unknown route InvalidRequest', async () => {
    const type = await storage(`object/avatars/${EBOOK_ID}/x.txt`, {
      method: 'POST',
      body: 'text',
      headers: { 'content-type': 'text/plain' },
    });
    expect(type.body).toMatchObject({ statusCode: '415', error: 'invalid_mime_type', code: 'InvalidMimeType' });
    const expired = await signJwt({ role: 'authenticated', sub: EBOOK_ID, exp: Math.floor(Date.now() / 1000) - 60 });
    const badToken = await storage('object/list/resources', {
      method: 'POST',
      body: '{}',
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${expired}`, 'content-type': 'application/json' },
    });
    expect(badToken).toMatchObject({
      status: 400,
      body: {
        statusCode: '403',
        error: 'Unauthorized',
        message: '"exp" claim timestamp check failed',
        code: 'AccessDenied',
      },
    });
    const route = await storage('nothing/here?x=1');
    expect(route).toEqual({
      status: 404,
      body: {
        statusCode: '404',
        error: 'Not Found',
        message: 'Route GET:/nothing/here?x=1 not found',
        code: 'InvalidRequest',
      },
      keys: ['statusCode', 'error', 'message', 'code'],
    });
  });
});

describe('downloads answer a current copy with 304', () => {
  it('a signed URL with If-None-Match naming the ETag is 304 with no body; another ETag gets the bytes', async () => {
    const { data } = await service.storage.from('resources').createSignedUrl(PDF, 60);
    const first = await fetch(data!.signedUrl);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const bytes = (await first.arrayBuffer()).byteLength;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const again = await fetch(data!.signedUrl, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const listed = await fetch(data!.signedUrl, { headers: { 'If-None-Match': `"other", W/${etag}` } });
    expect(listed.status).toBe(304);
    await listed.arrayBuffer();
    const head = await fetch(data!.signedUrl, { method: 'HEAD', headers: { 'If-None-Match': etag } });
    expect(head.status).toBe(304);

    const stale = await fetch(data!.signedUrl, { headers: { 'If-None-Match': '"not-it"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(bytes);
  });

  it('If-Modified-Since is heard only without If-None-Match, on every download route', async () => {
    const url = `${server.url}/storage/v1/object/resources/${PDF}`;
    const first = await fetch(url, { headers: SERVICE });
    const lastModified = first.headers.get('last-modified')!;
    await first.arrayBuffer();
    const unchanged = await fetch(url, { headers: { ...SERVICE, 'If-Modified-Since': lastModified } });
    expect(unchanged.status).toBe(304);
    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const changed = await fetch(url, { headers: { ...SERVICE, 'If-Modified-Since': before } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
    const etagWins = await fetch(url, {
      headers: { ...SERVICE, 'If-Modified-Since': lastModified, 'If-None-Match': '"not-it"' },
    });
    expect(etagWins.status).toBe(200);
    await etagWins.arrayBuffer();
  });
});

describe('GET /object/info', () => {
  it('answers InfoRenderer’s shape, which supabase-js camel-cases', async () => {
    const path = 'hosted/info.png';
    const up = await service.storage
      .from('avatars')
      .upload(path, PNG, { contentType: 'image/png', upsert: true, metadata: { kind: 'avatar' } });
    expect(up.error).toBeNull();
    const res = await fetch(`${server.url}/storage/v1/object/info/avatars/${path}`, { headers: SERVICE });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'id',
      'name',
      'version',
      'bucket_id',
      'size',
      'content_type',
      'cache_control',
      'etag',
      'metadata',
      'last_modified',
      'created_at',
    ]);
    expect(body).toMatchObject({
      name: path,
      bucket_id: 'avatars',
      size: PNG.length,
      content_type: 'image/png',
      cache_control: 'max-age=3600',
      metadata: { kind: 'avatar' },
    });
    expect(res.headers.get('etag')).toBe(body.etag);
    expect(typeof body.version).toBe('string');
    expect(new Date(String(body.last_modified)).getTime()).not.toBeNaN();

    // An upload without metadata keeps {} (uploader.ts stores `{ ...userMetadata }`), as the suite expects.
    expect(
      (await service.storage.from('avatars').upload('hosted/plain.png', PNG, { contentType: 'image/png' })).error,
    ).toBeNull();
    expect((await service.storage.from('avatars').info('hosted/plain.png')).data?.metadata).toEqual({});

    const viaJs = await service.storage.from('avatars').info(path);
    expect(viaJs.error).toBeNull();
    expect(viaJs.data).toMatchObject({ id: body.id, bucketId: 'avatars', contentType: 'image/png', size: PNG.length });
  });

  it('reads a private object as the caller, and tells a private bucket apart without a caller', async () => {
    expect((await storage(`object/info/authenticated/resources/${PDF}`)).body).toMatchObject({ name: PDF });
    const others = await signedIn(server.url, 'foundation@example.com');
    expect((await others.storage.from('resources').info(PDF)).error).toMatchObject({ statusCode: '404' });
    // GET /object/info/ takes a token that does not verify as no caller (allowInvalidJwt).
    const unverified = { apikey: ANON_KEY, Authorization: 'Bearer not-a-token' };
    const bare = await fetch(`${server.url}/storage/v1/object/info/resources/${PDF}`, { headers: unverified });
    expect(await bare.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
    const avatar = await fetch(`${server.url}/storage/v1/object/info/avatars/hosted/info.png`, { headers: unverified });
    expect(await avatar.json()).toMatchObject({ name: 'hosted/info.png', bucket_id: 'avatars' });
  });
});

describe('GET /auth/v1/admin/users', () => {
  it('lists newest first with GoTrue’s Link and X-Total-Count, which supabase-js reads', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const email = uniqueEmail('listed');
      const { data, error } = await service.auth.admin.createUser({
        email,
        password: 'secret123',
        email_confirm: true,
      });
      expect(error).toBeNull();
      made.push(data.user!.id);
    }
    const res = await fetch(`${server.url}/auth/v1/admin/users?per_page=1&page=1`, { headers: SERVICE });
    const total = Number(res.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(res.headers.get('link')).toBe(
      `</admin/users?page=2&per_page=1>; rel="next", </admin/users?page=${total}&per_page=1>; rel="last"`,
    );
    const { users } = (await res.json()) as { users: Array<{ id: string }> };
    expect(users.map((u) => u.id)).toEqual([made[2]]);

    const listed = await service.auth.admin.listUsers({ page: 1, perPage: 3 });
    expect(listed.error).toBeNull();
    expect(listed.data.users.map((u) => u.id)).toEqual([...made].reverse());
    expect(listed.data).toMatchObject({ nextPage: 2, total });

    const last = await fetch(`${server.url}/auth/v1/admin/users?per_page=1000`, { headers: SERVICE });
    expect(last.headers.get('link')).toBe('</admin/users?page=1&per_page=1000>; rel="last"');
    await last.arrayBuffer();
  });

  it('sorts oldest first on sort=created_at asc, and refuses another sort field', async () => {
    const res = await fetch(`${server.url}/auth/v1/admin/users?sort=created_at%20asc&per_page=1000`, {
      headers: SERVICE,
    });
    const { users } = (await res.json()) as { users: Array<{ created_at: string }> };
    const times = users.map((u) => Date.parse(u.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const bad = await fetch(`${server.url}/auth/v1/admin/users?sort=email`, { headers: SERVICE });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error_code: 'validation_failed',
      msg: "Bad Sort Parameters: bad field for sort 'email'",
    });
  });
});

describe('GoTrue checks the session first', () => {
  it('PUT /user without a session is 401 every time and spends none of the limiter', async () => {
    const put = fetchFrom(nextLoopbackAddress());
    const send = (headers: Record<string, string>) =>
      put(`${server.url}/auth/v1/user`, {
        method: 'PUT',
        headers: { apikey: ANON_KEY, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ data: { a: 1 } }),
      });
    for (let i = 0; i < BURST + 5; i += 1) {
      const res = await send({});
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: 401,
        error_code: 'no_authorization',
        msg: 'This endpoint requires a valid Bearer token',
      });
    }
    // The same address still has its whole bucket for a signed-in caller.
    const session = (await ebook.auth.getSession()).data.session!;
    const signed = { Authorization: `Bearer ${session.access_token}` };
    const statuses: number[] = [];
    for (let i = 0; i <= BURST; i += 1) statuses.push((await send(signed)).status);
    expect(statuses.slice(0, BURST).every((s) => s === 200)).toBe(true);
    expect(statuses[BURST]).toBe(429);
    expect((await send({})).status).toBe(401);
  });
});

describe('POST /auth/v1/token', () => {
  it('answers an unknown grant_type as token.go’s default case', async () => {
    const res = await fetch(`${server.url}/auth/v1/token?grant_type=magic`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'unsupported_grant_type' });
    const none = await anonClient(server.url).auth.signInWithPassword({ email: 'x@example.com', password: 'x' });
    expect(none.error).toMatchObject({ code: 'invalid_credentials' });
  });
});
