// Signed upload URLs and GET /bucket/:id through the stand-in, with hosted Storage's semantics
// (supabase/storage: getSignedUploadURL, uploadSignedObject, getBucket):
// - signing tests the insert as the caller, with the signing request's own Content-Type and
//   Content-Length as the metadata, under storage.operation storage.object.sign_upload_url;
// - the token (owner, url, upsert, scope 'upload') is the only credential of the upload, which
//   is written by the super user under the bucket's size and type limits;
// - storage.buckets has RLS and no policy, so only the service role can read a bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, JWT_SECRET, signJwt } from '../keys.mjs';
import { anonClient, serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const FOUNDATION_ID = '00000000-0000-4000-8000-000000000002';

let server: StandIn;
let admin: SupabaseClient;
let ebook: SupabaseClient;
beforeAll(async () => {
  server = await startStandIn();
  admin = serviceClient(server.url);
  ebook = await signedIn(server.url, 'ebook@example.com');
});
afterAll(async () => {
  await server?.close();
});

/** A fresh user (so no avatar exists yet), signed in, with their id. */
async function freshUser(): Promise<{ client: SupabaseClient; id: string }> {
  const email = uniqueEmail('signed-upload');
  const created = await admin.auth.admin.createUser({ email, password: 'secret123', email_confirm: true });
  expect(created.error).toBeNull();
  return { client: await signedIn(server.url, email, 'secret123'), id: created.data.user!.id };
}

const accessToken = async (client: SupabaseClient) => (await client.auth.getSession()).data.session!.access_token;

/**
 * POST /object/upload/sign as `client`, with the Content-Type a caller chooses: the row hosted
 * Storage tests at signing carries this request's own Content-Type and Content-Length.
 */
async function sign(client: SupabaseClient, bucket: string, path: string, contentType: string) {
  const res = await fetch(`${server.url}/storage/v1/object/upload/sign/${bucket}/${path}`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${await accessToken(client)}`, 'content-type': contentType },
    body: '{}',
  });
  return { status: res.status, body: (await res.json()) as { url?: string; token?: string } & Record<string, unknown> };
}

const publicStatus = async (path: string) =>
  (await fetch(ebook.storage.from('avatars').getPublicUrl(path).data.publicUrl)).status;

describe('GET /bucket/:id under RLS on storage.buckets', () => {
  it('hides every bucket from anon and from a subscriber, as hosted does with no policy', async () => {
    for (const client of [anonClient(server.url), ebook]) {
      for (const id of ['resources', 'avatars']) {
        const { data, error } = await client.storage.getBucket(id);
        expect(data, id).toBeNull();
        expect(error, id).toMatchObject({ status: 400, statusCode: '404', message: 'Bucket not found' });
      }
    }
  });

  it('shows the service role the bucket with its limits', async () => {
    const avatars = await admin.storage.getBucket('avatars');
    expect(avatars.error).toBeNull();
    expect(avatars.data).toMatchObject({
      id: 'avatars',
      name: 'avatars',
      public: true,
      file_size_limit: 2097152,
      allowed_mime_types: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
    });
    const resources = await admin.storage.getBucket('resources');
    expect(resources.data).toMatchObject({ id: 'resources', public: false });
    expect((await admin.storage.getBucket('nope')).error).toMatchObject({ statusCode: '404' });
  });
});

describe('signed upload URLs', () => {
  it('lets the owner sign their avatar path and anyone holding the URL upload to it, once', async () => {
    const { client, id } = await freshUser();
    const path = `${id}/avatar.png`;
    const signed = await sign(client, 'avatars', path, 'image/png');
    expect(signed.status).toBe(200);
    expect(signed.body.url).toBe(`/object/upload/sign/avatars/${path}?token=${signed.body.token}`);
    // Signing wrote nothing.
    expect(await publicStatus(path)).toBe(400);

    const uploaded = await anonClient(server.url)
      .storage.from('avatars')
      .uploadToSignedUrl(path, signed.body.token!, new Blob([PNG], { type: 'image/png' }));
    expect(uploaded).toEqual({ data: { path, fullPath: `avatars/${path}` }, error: null });
    const pub = await fetch(ebook.storage.from('avatars').getPublicUrl(path).data.publicUrl);
    expect(Buffer.from(await pub.arrayBuffer()).equals(PNG)).toBe(true);
    // The row records the owner named in the token, not the (absent) uploader.
    const row = await server.db.query<{ owner: string; owner_id: string }>(
      `select owner::text as owner, owner_id from storage.objects where bucket_id = 'avatars' and name = $1`,
      [path],
    );
    expect(row.rows[0]).toEqual({ owner: id, owner_id: id });

    // The token is not an upsert token: a second upload with it is refused.
    const again = await fetch(`${server.url}/storage/v1${signed.body.url}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: PNG,
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ statusCode: '409' });
  });

  it('takes a bare PUT (no key, no session): the token is the credential', async () => {
    const { client, id } = await freshUser();
    const path = `${id}/avatar.png`;
    const signed = await sign(client, 'avatars', path, 'image/png');
    const res = await fetch(`${server.url}/storage/v1${signed.body.url}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: PNG,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ Key: `avatars/${path}` });
    expect(await publicStatus(path)).toBe(200);
  });

  it('refuses supabase-js createSignedUploadUrl for an avatar: hosted tests its application/json type', async () => {
    const { client, id } = await freshUser();
    const { data, error } = await client.storage.from('avatars').createSignedUploadUrl(`${id}/avatar.png`);
    expect(data).toBeNull();
    expect(error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
  });

  it('refuses at signing another user’s avatar path and a paid-files path', async () => {
    const { client } = await freshUser();
    const other = await sign(client, 'avatars', `${FOUNDATION_ID}/avatar.png`, 'image/png');
    expect(other).toMatchObject({ status: 400, body: { statusCode: '403' } });
    expect(other.body.token).toBeUndefined();
    const paid = await sign(ebook, 'resources', 'ebook/ebook/planted.pdf', 'application/pdf');
    expect(paid).toMatchObject({ status: 400, body: { statusCode: '403' } });
    const paidViaJs = await ebook.storage.from('resources').createSignedUploadUrl('ebook/ebook/planted.pdf');
    expect(paidViaJs.error).toMatchObject({ statusCode: '403' });
  });

  it('refuses a tampered, re-aimed, expired or download token', async () => {
    const { client, id } = await freshUser();
    const path = `${id}/avatar.png`;
    const signed = await sign(client, 'avatars', path, 'image/png');
    const token = signed.body.token!;
    const put = (target: string, t: string) =>
      fetch(`${server.url}/storage/v1/object/upload/sign/avatars/${target}?token=${encodeURIComponent(t)}`, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: PNG,
      });

    // Payload rewritten to another path, signature kept.
    const [head, body, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, url: `avatars/${FOUNDATION_ID}/avatar.png` })).toString('base64url')}.${sig}`;
    const tampered = await put(`${FOUNDATION_ID}/avatar.png`, forged);
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ error: 'InvalidJWT' });

    // A genuine token used for another path.
    const reaimed = await put(`${id}/avatar.gif`, token);
    expect(reaimed.status).toBe(400);
    expect(await reaimed.json()).toMatchObject({ error: 'InvalidSignature' });

    // Correctly signed but past its exp.
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await put(path, await signJwt({ ...claims, iat: past - 60, exp: past }, JWT_SECRET));
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ error: 'InvalidJWT', message: '"exp" claim timestamp check failed' });

    // A download token for the same path is not an upload token.
    const download = await signJwt({ url: `avatars/${path}`, exp: Math.floor(Date.now() / 1000) + 60 }, JWT_SECRET);
    const wrongScope = await put(path, download);
    expect(wrongScope.status).toBe(400);
    expect(await wrongScope.json()).toMatchObject({ error: 'InvalidSignature' });

    expect(await publicStatus(path)).toBe(400);
    expect(await publicStatus(`${FOUNDATION_ID}/avatar.png`)).toBe(400);

    // And an upload token does not download.
    const asDownload = await fetch(`${server.url}/storage/v1/object/sign/avatars/${path}?token=${token}`);
    expect(asDownload.status).toBe(400);
  });

  it('applies the avatars bucket limits (2 MB, image types) to the signed upload', async () => {
    const { client, id } = await freshUser();
    const path = `${id}/avatar.png`;
    const signed = await sign(client, 'avatars', path, 'image/png');
    const avatars = anonClient(server.url).storage.from('avatars');
    const big = await avatars.uploadToSignedUrl(
      path,
      signed.body.token!,
      new Blob([Buffer.alloc(3 * 1024 * 1024)], { type: 'image/png' }),
    );
    expect(big.error).toMatchObject({ statusCode: '413' });
    const text = await avatars.uploadToSignedUrl(path, signed.body.token!, new Blob(['hello'], { type: 'text/plain' }));
    expect(text.error).toMatchObject({ statusCode: '415' });
    expect(await publicStatus(path)).toBe(400);
  });
});
