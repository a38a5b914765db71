// Copy and move through the stand-in, as hosted Storage serves them: storage.operation is set
// per route, the row tested against RLS is the one hosted Storage tests, and nothing reaches
// the public avatars bucket except through an upload route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { signedIn, startStandIn, type StandIn } from './helpers';

const EBOOK_ID = '00000000-0000-4000-8000-000000000001';
const PAID_PDF = 'ebook/ebook/yes-you-can.pdf';
// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: StandIn;
let ebook: SupabaseClient;
let staff: SupabaseClient;
beforeAll(async () => {
  server = await startStandIn();
  [ebook, staff] = await Promise.all([
    signedIn(server.url, 'ebook@example.com'),
    signedIn(server.url, 'staff@example.com'),
  ]);
  const up = await ebook.storage
    .from('avatars')
    .upload(`${EBOOK_ID}/avatar.png`, new Blob([PNG], { type: 'image/png' }), { upsert: true });
  expect(up.error).toBeNull();
});
afterAll(async () => {
  await server?.close();
});

/** A public URL's status: a missing object is HTTP 400 (statusCode 404 in the body), as on hosted. */
const publicStatus = async (name: string) =>
  (await fetch(ebook.storage.from('avatars').getPublicUrl(name).data.publicUrl)).status;

/** Adds a restrictive policy for the duration of fn, so a test can see what the RLS check saw. */
async function withProbePolicy(check: string, fn: () => Promise<void>) {
  await server.db.exec(
    `create policy "probe" on storage.objects as restrictive for insert to authenticated with check (${check})`,
  );
  try {
    await fn();
  } finally {
    await server.db.exec(`drop policy "probe" on storage.objects`);
  }
}

describe('nothing reaches avatars except through an upload route', () => {
  it('refuses a copy of the caller’s own avatar to another avatar name', async () => {
    const copied = await ebook.storage.from('avatars').copy(`${EBOOK_ID}/avatar.png`, `${EBOOK_ID}/avatar.gif`);
    expect(copied.error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    expect(await publicStatus(`${EBOOK_ID}/avatar.gif`)).toBe(400);
  });

  it('refuses a copy of a paid file into avatars', async () => {
    const copied = await ebook.storage
      .from('resources')
      .copy(PAID_PDF, `${EBOOK_ID}/avatar.jpg`, { destinationBucket: 'avatars' });
    // A member may only list a paid file: under the copy operation its row is not even found.
    expect(copied.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
    expect(await publicStatus(`${EBOOK_ID}/avatar.jpg`)).toBe(400);
  });

  it('refuses a move within avatars and leaves the avatar where it was', async () => {
    const moved = await ebook.storage.from('avatars').move(`${EBOOK_ID}/avatar.png`, `${EBOOK_ID}/avatar.webp`);
    // The update's USING hides the row during a move, so, as on hosted, there is nothing to move.
    expect(moved.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
    expect(await publicStatus(`${EBOOK_ID}/avatar.webp`)).toBe(400);
    expect(await publicStatus(`${EBOOK_ID}/avatar.png`)).toBe(200);
  });

  it('still uploads, upserts and overwrites (update) an avatar', async () => {
    const path = `${EBOOK_ID}/avatar.gif`;
    const first = await ebook.storage.from('avatars').upload(path, new Blob([PNG], { type: 'image/gif' }));
    expect(first.error).toBeNull();
    const upserted = await ebook.storage
      .from('avatars')
      .upload(path, new Blob([PNG, Buffer.from([1])], { type: 'image/gif' }), { upsert: true });
    expect(upserted.error).toBeNull();
    const updated = await ebook.storage
      .from('avatars')
      .update(path, new Blob([PNG, Buffer.from([1, 2])], { type: 'image/gif' }));
    expect(updated.error).toBeNull();
    const res = await fetch(ebook.storage.from('avatars').getPublicUrl(path).data.publicUrl);
    expect((await res.arrayBuffer()).byteLength).toBe(PNG.length + 2);
    expect((await ebook.storage.from('avatars').remove([path])).data).toHaveLength(1);
  });
});

describe('copy and move where the policies allow them', () => {
  it('staff copy and then move a resource; the bytes follow', async () => {
    const original = Buffer.from(await (await staff.storage.from('resources').download(PAID_PDF)).data!.arrayBuffer());
    const copied = await staff.storage.from('resources').copy(PAID_PDF, 'ebook/ebook/copy-of-guide.pdf');
    expect(copied).toEqual({ data: { path: 'resources/ebook/ebook/copy-of-guide.pdf' }, error: null });
    const moved = await staff.storage
      .from('resources')
      .move('ebook/ebook/copy-of-guide.pdf', 'ebook/ebook/moved-guide.pdf');
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ message: 'Successfully moved' });
    expect((await staff.storage.from('resources').download('ebook/ebook/copy-of-guide.pdf')).error).not.toBeNull();
    const after = await staff.storage.from('resources').download('ebook/ebook/moved-guide.pdf');
    expect(Buffer.from(await after.data!.arrayBuffer()).equals(original)).toBe(true);
    expect((await staff.storage.from('resources').remove(['ebook/ebook/moved-guide.pdf'])).data).toHaveLength(1);
  });

  it('a subscriber cannot copy or move what they may only list', async () => {
    const copied = await ebook.storage.from('resources').copy(PAID_PDF, 'ebook/ebook/mine.pdf');
    expect(copied.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
    const moved = await ebook.storage.from('resources').move(PAID_PDF, 'ebook/ebook/mine.pdf');
    expect(moved.error).toMatchObject({ statusCode: '404' });
    expect((await staff.storage.from('resources').download(PAID_PDF)).error).toBeNull();
  });
});

describe('the row tested against RLS is the one hosted Storage tests', () => {
  it('an upload is checked with exactly {mimetype, contentLength}; the saved row has the full metadata', async () => {
    const path = `${EBOOK_ID}/avatar.webp`;
    // A multipart upload's contentLength is the request's Content-Length, boundaries and the
    // cacheControl field included (hosted: uploader.ts, declaredContentLength); a raw upload's is
    // the file's. supabase-js sends a Blob as this form (undici's boundary has a fixed length).
    const form = new FormData();
    form.append('cacheControl', '3600');
    form.append('', new Blob([PNG], { type: 'image/webp' }));
    const requestLength = (await new Response(form).arrayBuffer()).byteLength;
    expect(requestLength).toBeGreaterThan(PNG.length);
    for (const [body, contentLength] of [
      [new Blob([PNG], { type: 'image/webp' }), requestLength],
      [PNG, PNG.length],
    ] as const) {
      await withProbePolicy(
        `bucket_id <> 'avatars' or metadata = jsonb_build_object('mimetype', 'image/webp', 'contentLength', ${contentLength})`,
        async () => {
          const up = await ebook.storage.from('avatars').upload(path, body, { contentType: 'image/webp' });
          expect(up.error).toBeNull();
        },
      );
      const { rows } = await server.db.query<{ metadata: Record<string, unknown> }>(
        `select metadata from storage.objects where bucket_id = 'avatars' and name = $1`,
        [path],
      );
      expect(rows[0]?.metadata).toMatchObject({ mimetype: 'image/webp', size: PNG.length, contentLength: PNG.length });
      expect((await ebook.storage.from('avatars').remove([path])).data).toHaveLength(1);
    }
  });

  it('a copy is checked with the source object’s metadata, under storage.operation storage.object.copy', async () => {
    const { rows } = await server.db.query<{ metadata: string }>(
      `select metadata::text as metadata from storage.objects where bucket_id = 'resources' and name = $1`,
      [PAID_PDF],
    );
    expect(rows[0]?.metadata).toContain('"eTag"');
    await withProbePolicy(
      `current_setting('storage.operation', true) = 'storage.object.copy'
       and metadata = $probe$${rows[0]!.metadata}$probe$::jsonb`,
      async () => {
        const copied = await staff.storage.from('resources').copy(PAID_PDF, 'ebook/ebook/probe-copy.pdf');
        expect(copied.error).toBeNull();
      },
    );
    expect((await staff.storage.from('resources').remove(['ebook/ebook/probe-copy.pdf'])).data).toHaveLength(1);
  });
});
