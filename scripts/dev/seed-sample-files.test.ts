import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ROLE_KEY } from '../../packages/supabase-stand-in/keys.mjs';
import { serviceClient, startStandIn, type StandIn } from '../../packages/supabase-stand-in/tests/helpers';
import { sampleObjects, seedSampleFiles } from './seed-sample-files.mjs';

// Against a running stand-in that seeded nothing itself, so every object comes from the script.
let server: StandIn;

beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
  // The tooling project keeps vitest's short default hook timeout; a stand-in boot (PGlite plus
  // the migrations) takes longer on a busy machine.
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function listAll(url: string) {
  const storage = serviceClient(url).storage.from('resources');
  const names: string[] = [];
  const { data: tiers } = await storage.list('');
  for (const tier of tiers ?? []) {
    const { data: slugs } = await storage.list(tier.name);
    for (const slug of slugs ?? []) {
      const { data: files } = await storage.list(`${tier.name}/${slug.name}`);
      for (const file of files ?? []) names.push(`${tier.name}/${slug.name}/${file.name}`);
    }
  }
  return names.sort();
}

describe('seed-sample-files', () => {
  it('uploads every sample file through the Storage API, byte for byte', async () => {
    const expected = sampleObjects()
      .map((o) => o.name)
      .sort();
    expect(await listAll(server.url)).toEqual([]);

    const written = await seedSampleFiles({ url: server.url, serviceRoleKey: SERVICE_ROLE_KEY });

    expect([...written].sort()).toEqual(expected);
    expect(await listAll(server.url)).toEqual(expected);
    const epub = sampleObjects().find((o) => o.name.endsWith('.epub'))!;
    const { data, error } = await serviceClient(server.url).storage.from('resources').download(epub.name);
    expect(error).toBeNull();
    expect(data!.type).toBe('application/epub+zip');
    expect(Buffer.from(await data!.arrayBuffer()).equals(epub.bytes)).toBe(true);
  });

  it('is idempotent: a second run overwrites instead of failing or duplicating', async () => {
    await seedSampleFiles({ url: server.url, serviceRoleKey: SERVICE_ROLE_KEY });
    const before = await listAll(server.url);
    await expect(seedSampleFiles({ url: server.url, serviceRoleKey: SERVICE_ROLE_KEY })).resolves.toHaveLength(
      before.length,
    );
    expect(await listAll(server.url)).toEqual(before);
  });

  it('fails loudly when the key may not write', async () => {
    await expect(seedSampleFiles({ url: server.url, serviceRoleKey: 'not-a-key' })).rejects.toThrow(/seed .* failed/);
  });
});
