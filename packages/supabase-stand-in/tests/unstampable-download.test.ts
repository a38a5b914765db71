// A paid PDF that cannot be stamped, end to end: the stand-in, the download function in real
// Deno, the Storage API and the database. The member is refused in words (422, not the 500 of
// a failure worth retrying), nothing is logged as a download, the file is recorded once per
// version however often it is asked for, and staff see it on the dashboard until it is replaced.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../../supabase/functions/download/fixtures';
import { encryptedPdf } from '../../../src/features/staff/testing/encrypted-pdf';
import { ANON_KEY } from '../keys.mjs';
import { objectFile } from '../storage/names.mjs';
import { serviceClient, signedIn, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
let service: SupabaseClient;
/** The stand-in's data folder: its storage keeps each object's bytes under storage/. */
let dataDir: string;
const LOCKED = 'ebook/unstampable-test/locked.pdf';

async function put(name: string, bytes: Uint8Array) {
  const { error } = await service.storage
    .from('resources')
    .upload(name, new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), {
      contentType: 'application/pdf',
      upsert: true,
    });
  if (error) throw error;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'unstampable-download-'));
  server = await startStandIn({ seedSampleFiles: false, dataDir });
  service = serviceClient(server.url);
  await put(LOCKED, encryptedPdf('Locked guide'));
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A confirmed member (or staff) holding `tier`, signed in. */
async function member(prefix: string, { staff = false } = {}) {
  const email = uniqueEmail(prefix);
  const password = 'secret-pass-1';
  const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error('no user');
  const id = created.data.user.id;
  const grant = await service
    .from('tier_grants')
    .insert({ user_id: id, tier: 'ebook', reason: 'test', granted_by: null });
  if (grant.error) throw grant.error;
  if (staff) {
    const made = await service.from('staff').insert({ user_id: id });
    if (made.error) throw made.error;
  }
  const client = await signedIn(server.url, email, password);
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return { id, client, token: data.session.access_token };
}

function download(path: string, token: string) {
  return fetch(`${server.url}/functions/v1/download?path=${encodeURIComponent(path)}`, {
    headers: { apikey: ANON_KEY, Accept: 'application/json', Authorization: `Bearer ${token}` },
    redirect: 'manual',
  });
}

async function recorded() {
  const { data, error } = await service
    .from('unstampable_files')
    .select('file_name, reason, refusals')
    .eq('file_name', LOCKED)
    .order('first_seen');
  if (error) throw error;
  return data;
}

describe('a password-protected PDF', () => {
  it('is refused in words with 422, recorded once per version, and never logged as a download', async () => {
    const me = await member('unstampable');
    for (const _ of [1, 2]) {
      const answer = await download(LOCKED, me.token);
      expect(answer.status).toBe(422);
      expect(await answer.json()).toEqual({
        error: 'cannot_prepare',
        message: "This file can't be prepared. We've told the team.",
      });
    }
    expect(await recorded()).toEqual([{ file_name: LOCKED, reason: 'encrypted', refusals: 2 }]);
    const logged = await service.from('download_log').select('id').eq('user_id', me.id);
    expect(logged.data).toEqual([]);
  });

  it('is refused again without reading the file: the bytes of a version do not change', async () => {
    const me = await member('unstampable-again');
    const name = 'ebook/unstampable-test/locked-again.pdf';
    await put(name, encryptedPdf('Locked again'));
    expect((await download(name, me.token)).status).toBe(422);
    // The object's row stays, its bytes go: a download that read the file now would fail (500).
    await rm(objectFile(path.join(dataDir, 'storage'), 'resources', name));
    const again = await download(name, me.token);
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ error: 'cannot_prepare' });
  });

  it('shows on the staff dashboard until staff replace it with a PDF that can be stamped', async () => {
    const staff = await member('unstampable-staff', { staff: true });
    expect((await download(LOCKED, staff.token)).status).toBe(422);
    const before = await staff.client.rpc('staff_dashboard');
    expect(before.error).toBeNull();
    const listed = (data: unknown) =>
      (data as { unstampable_files: { name: string }[] }).unstampable_files.filter((file) => file.name === LOCKED);
    expect(listed(before.data)).toEqual([
      {
        name: LOCKED,
        reason: 'encrypted',
        refusals: expect.any(Number),
        first_seen: expect.any(String),
        last_seen: expect.any(String),
      },
    ]);

    await put(LOCKED, await makePdf({ pages: 1, bytes: 2_000, title: 'Locked guide' }));
    expect((await download(LOCKED, staff.token)).status).toBe(200);
    const after = await staff.client.rpc('staff_dashboard');
    expect(listed(after.data)).toEqual([]);
  });
});
