import { beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { useOfflineSupabaseEnv } from '@/testing/offline-supabase';

// The one read's answer, as the database gives it, turned into what the page's queries hold.
beforeAll(useOfflineSupabaseEnv);

const load = () => import('./member-resources');
const pdf = { mimetype: 'application/pdf', size: 1200 };

describe('groupByFolder', () => {
  it('groups the files by folder, each named within it, and keeps a known tier', async () => {
    const { groupByFolder } = await load();
    const { tier, folders } = groupByFolder({
      tier: 'foundation',
      files: [
        { name: 'ebook/ebook/a.pdf', id: '1', metadata: pdf },
        { name: 'foundation/worksheets/b.pdf', id: '2', metadata: pdf },
        { name: 'ebook/ebook/c.pdf', id: '3', metadata: null },
      ],
    });
    expect(tier).toBe('foundation');
    expect(Object.fromEntries(folders)).toEqual({
      'ebook/ebook': [
        { name: 'a.pdf', id: '1', metadata: pdf },
        { name: 'c.pdf', id: '3', metadata: null },
      ],
      'foundation/worksheets': [{ name: 'b.pdf', id: '2', metadata: pdf }],
    });
  });

  it('reads no tier as none and refuses an answer without a file list', async () => {
    const { groupByFolder } = await load();
    expect(groupByFolder({ tier: null, files: [] }).tier).toBeNull();
    expect(groupByFolder({ tier: 'gold', files: [] }).tier).toBeNull();
    expect(() => groupByFolder({ tier: 'ebook' })).toThrow('no file list');
    expect(() => groupByFolder(null)).toThrow('no file list');
  });
});

describe('fillCache', () => {
  it('fills the tier and every open card, empty ones too, and leaves locked cards out', async () => {
    const { fillCache, groupByFolder } = await load();
    const { tierKeys } = await import('@/features/tiers');
    const { resourceFileKeys } = await import('../index');
    const client = createQueryClient();
    fillCache(
      client,
      'u-1',
      groupByFolder({ tier: 'foundation', files: [{ name: 'ebook/ebook/a-b.pdf', id: '1', metadata: pdf }] }),
    );

    expect(client.getQueryData(tierKeys.detail('u-1'))).toBe('foundation');
    expect(client.getQueryData(resourceFileKeys.forUser('ebook/ebook', 'u-1'))).toEqual([
      expect.objectContaining({ name: 'a-b.pdf', title: 'A b', type: 'PDF', size: 1200 }),
    ]);
    expect(client.getQueryData(resourceFileKeys.forUser('foundation/worksheets', 'u-1'))).toEqual([]);
    expect(client.getQueryData(resourceFileKeys.forUser('accelerated/masterclass', 'u-1'))).toBeUndefined();
    expect(client.getQueryData(resourceFileKeys.forUser('complete/publishing-roadmap', 'u-1'))).toBeUndefined();
  });
});
