import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { sampleResourceFiles } from '../sample-files.mjs';
import { anonClient, signedIn, startStandIn, type StandIn } from './helpers';

// /resources' one read (public.member_resources(), over REST) against what the storage list
// route gives folder by folder, on the stand-in with its sample files: the page must show the
// same files either way.

type Entry = { name: string; id: string | null; metadata?: { size?: unknown; mimetype?: unknown } | null };

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn();
});
afterAll(async () => {
  await server?.close();
});

/** The member's files by folder, as the storage list route answers (first 100 by name). */
async function listed(client: SupabaseClient) {
  const byFolder: Record<string, Entry[]> = {};
  for (const card of sampleResourceFiles) {
    const folder = `${card.tier}/${card.slug}`;
    const { data, error } = await client.storage
      .from('resources')
      .list(folder, { limit: 100, sortBy: { column: 'name', order: 'asc' } });
    expect(error).toBeNull();
    const files = (data ?? []).filter((entry) => entry.id !== null);
    // Folders above the member's tier list as empty, as do empty ones: the one read has no file there.
    if (files.length > 0) byFolder[folder] = files;
  }
  return byFolder;
}

/** The same, from the one read. */
async function oneRead(client: SupabaseClient) {
  const { data, error } = await client.rpc('member_resources');
  expect(error).toBeNull();
  const answer = data as { tier: string | null; files: Entry[] };
  const byFolder: Record<string, Entry[]> = {};
  for (const file of answer.files) {
    const slash = file.name.lastIndexOf('/');
    (byFolder[file.name.slice(0, slash)] ??= []).push({ ...file, name: file.name.slice(slash + 1) });
  }
  return { tier: answer.tier, byFolder };
}

const shape = (byFolder: Record<string, Entry[]>) =>
  Object.fromEntries(
    Object.entries(byFolder).map(([folder, files]) => [
      folder,
      files.map(({ name, id, metadata }) => ({ name, id, size: metadata?.size, mimetype: metadata?.mimetype })),
    ]),
  );

describe('member_resources() through REST', () => {
  const foundation = [
    'ebook/ebook',
    'foundation/affirmation-cards',
    'foundation/scripture-audio',
    'foundation/worksheets',
  ];
  it.each([
    ['ebook@example.com', 'ebook', ['ebook/ebook']],
    ['foundation@example.com', 'foundation', foundation],
    ['notier@example.com', null, []],
    ['accelerated@example.com', 'accelerated', ['accelerated/masterclass', ...foundation]],
    // Staff with the complete tier: the sample files have none above accelerated.
    ['staff@example.com', 'complete', ['accelerated/masterclass', ...foundation]],
  ])('%s gets their tier and the files the list route shows them', async (email, tier, folders) => {
    const client = await signedIn(server.url, email);
    const [read, list] = await Promise.all([oneRead(client), listed(client)]);
    expect(read.tier).toBe(tier);
    expect(Object.keys(read.byFolder).sort()).toEqual(folders);
    expect(shape(read.byFolder)).toEqual(shape(list));
  });

  it('refuses anon', async () => {
    const { data, error } = await anonClient(server.url).rpc('member_resources');
    expect(data).toBeNull();
    expect(error).toMatchObject({ code: '42501' });
  });
});
