import { describe, expect, it } from 'vitest';
import { resourceCards } from '@/content/resources';
import { tiers } from '@/content/tiers';
import {
  cardView,
  downloadableNames,
  LINK_MARGIN_MS,
  linkExpiry,
  linkIsFresh,
  showsReadyForMore,
  type FilesState,
} from './resource-files';

const ready = (names: string[]): FilesState => ({
  status: 'ready',
  files: names.map((name) => ({ name, url: `u/${name}`, expiresAt: Number.MAX_SAFE_INTEGER })),
  renew: async (name) => `u/${name}?renewed`,
});

describe('signed link expiry', () => {
  const signedAt = Date.UTC(2026, 0, 1, 12, 0, 0);
  const expiresAt = linkExpiry(signedAt, 600);

  it('expires the signed lifetime after signing', () => {
    expect(expiresAt - signedAt).toBe(600_000);
  });

  it('is followed as it is until a margin before expiry', () => {
    expect(linkIsFresh({ expiresAt }, signedAt)).toBe(true);
    expect(linkIsFresh({ expiresAt }, expiresAt - LINK_MARGIN_MS - 1)).toBe(true);
  });

  it('is signed again from the margin on, and of course once expired', () => {
    expect(linkIsFresh({ expiresAt }, expiresAt - LINK_MARGIN_MS)).toBe(false);
    expect(linkIsFresh({ expiresAt }, expiresAt)).toBe(false);
    // A user back after lunch, in a tab whose refresh timer was paused.
    expect(linkIsFresh({ expiresAt }, signedAt + 45 * 60_000)).toBe(false);
  });
});

describe('downloadableNames', () => {
  it('drops folders and placeholder objects and sorts by name', () => {
    expect(
      downloadableNames([
        { name: 'b.pdf', id: '2' },
        { name: '.emptyFolderPlaceholder', id: '3' },
        { name: 'sub', id: null },
        { name: 'a.epub', id: '1' },
      ]),
    ).toEqual(['a.epub', 'b.pdf']);
  });

  it('is empty for an empty folder', () => {
    expect(downloadableNames([{ name: '.emptyFolderPlaceholder', id: 'x' }])).toEqual([]);
  });
});

describe('cardView', () => {
  it('locks every card without a tier, whatever the files', () => {
    for (const card of resourceCards) expect(cardView(null, card.tier, ready(['a.pdf']))).toBe('locked');
  });

  it('neither locks nor opens any card while the tier could not be loaded', () => {
    for (const card of resourceCards) expect(cardView(undefined, card.tier, ready(['a.pdf']))).toBe('unknown');
  });

  it('unlocks cumulatively by tier rank', () => {
    const unlockedCount = tiers.map(
      (tier) => resourceCards.filter((card) => cardView(tier, card.tier, ready(['a.pdf'])) !== 'locked').length,
    );
    // ebook: 1 card; foundation: +3; accelerated: +1; complete: all six.
    expect(unlockedCount).toEqual([1, 4, 5, 6]);
  });

  it('reports loading, error, files and coming soon for an unlocked card', () => {
    expect(cardView('ebook', 'ebook', undefined)).toBe('loading');
    expect(cardView('ebook', 'ebook', { status: 'loading' })).toBe('loading');
    expect(cardView('ebook', 'ebook', { status: 'error', message: 'x', retry: () => {} })).toBe('error');
    expect(cardView('ebook', 'ebook', ready(['a.pdf']))).toBe('files');
    expect(cardView('ebook', 'ebook', ready([]))).toBe('coming-soon');
  });
});

describe('showsReadyForMore', () => {
  it('shows below complete and without a tier, not at complete', () => {
    expect(showsReadyForMore(null)).toBe(true);
    expect(showsReadyForMore('ebook')).toBe(true);
    expect(showsReadyForMore('foundation')).toBe(true);
    expect(showsReadyForMore('accelerated')).toBe(true);
    expect(showsReadyForMore('complete')).toBe(false);
  });

  it('does not sell an upgrade while the tier is unknown', () => {
    expect(showsReadyForMore(undefined)).toBe(false);
  });
});
