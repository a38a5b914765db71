// Object downloads as hosted Storage serves them (supabase/storage src/storage/range.ts,
// src/storage/backend/file.ts, src/storage/renderer/renderer.ts, and the signed route
// src/http/routes/object/getSignedObject.ts): byte ranges answered 206 with Content-Range,
// Accept-Ranges on every download, an unsatisfiable range 416, and a signed URL's answer
// carrying Expires at the link's expiry instead of the object's Cache-Control.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient, signedIn, startStandIn, type StandIn } from './helpers';

let server: StandIn;
let staff: SupabaseClient;
const NAME = 'ebook/ranges/bytes.pdf';
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  const uploaded = await serviceClient(server.url)
    .storage.from('resources')
    .upload(NAME, new Blob([BYTES], { type: 'application/pdf' }), { contentType: 'application/pdf' });
  if (uploaded.error) throw uploaded.error;
  staff = await signedIn(server.url, 'staff@example.com');
});
afterAll(async () => {
  await server?.close();
});

async function signedUrl(seconds = 60) {
  const { data, error } = await staff.storage.from('resources').createSignedUrl(NAME, seconds);
  if (error || !data) throw error ?? new Error('no url');
  return data.signedUrl;
}

describe('byte ranges', () => {
  it('answers a whole download 200, saying ranges are accepted', async () => {
    const res = await fetch(await signedUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES)).toBe(true);
  });

  it.each([
    ['bytes=0-3', 0, 3],
    ['bytes=990-', 990, 999],
    ['bytes=-10', 990, 999],
    ['bytes=995-5000', 995, 999],
  ])('%s: 206 with just those bytes', async (range, from, to) => {
    const res = await fetch(await signedUrl(), { headers: { Range: range } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${from}-${to}/1000`);
    expect(res.headers.get('content-length')).toBe(String(to - from + 1));
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES.subarray(from, to + 1))).toBe(true);
  });

  it.each(['bytes=1000-', 'bytes=5-2', 'bytes=-0', 'items=0-3', 'bytes=0-3,5-7'])(
    '%s cannot be met: 416 InvalidRange',
    async (range) => {
      const res = await fetch(await signedUrl(), { headers: { Range: range } });
      expect(res.status).toBe(416);
      expect(await res.json()).toEqual({
        statusCode: '416',
        code: 'InvalidRange',
        error: 'invalid_range',
        message: 'invalid range provided',
      });
    },
  );

  it('serves ranges on the authenticated route too', async () => {
    const token = (await staff.auth.getSession()).data.session!.access_token;
    const res = await fetch(`${server.url}/storage/v1/object/authenticated/resources/${NAME}`, {
      headers: { Authorization: `Bearer ${token}`, apikey: token, Range: 'bytes=10-19' },
    });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(BYTES.subarray(10, 20))).toBe(true);
  });
});

describe('caching headers', () => {
  it('a signed URL answers with Expires at the link’s expiry and no Cache-Control', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await fetch(await signedUrl(120));
    const expires = Date.parse(res.headers.get('expires') ?? '') / 1000;
    expect(expires).toBeGreaterThanOrEqual(before + 120);
    expect(expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 120);
    expect(res.headers.get('cache-control')).toBeNull();
  });

  it('the authenticated route answers with the object’s Cache-Control and no Expires', async () => {
    const token = (await staff.auth.getSession()).data.session!.access_token;
    const res = await fetch(`${server.url}/storage/v1/object/authenticated/resources/${NAME}`, {
      headers: { Authorization: `Bearer ${token}`, apikey: token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('max-age=3600');
    expect(res.headers.get('expires')).toBeNull();
  });
});
