import { isUnlocked, type Tier } from '@/content/tiers';

/** What a storage listing entry looks like, as far as this module cares. */
export type StorageEntry = { name: string; id: string | null };

export type ResourceFile = { name: string; url: string };

/** The file list of one card, as the card shows it. */
export type FilesState =
  | { status: 'loading' }
  | { status: 'error'; message: string; retry: () => void }
  | { status: 'ready'; files: readonly ResourceFile[] };

/**
 * The real files of a folder listing: storage returns sub-folders (id null) and the
 * `.emptyFolderPlaceholder` object the dashboard creates; neither is a download.
 */
export function downloadableNames(entries: readonly StorageEntry[]): string[] {
  return entries
    .filter((entry) => entry.id !== null && entry.name !== '' && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b, 'en'));
}

export type CardView = 'locked' | 'loading' | 'error' | 'files' | 'coming-soon';

/** How a card shows for a user's tier and its file list (derived, never stored). */
export function cardView(userTier: Tier | null, cardTier: Tier, files: FilesState | undefined): CardView {
  if (!isUnlocked(userTier, cardTier)) return 'locked';
  if (!files || files.status === 'loading') return 'loading';
  if (files.status === 'error') return 'error';
  return files.files.length > 0 ? 'files' : 'coming-soon';
}

/** 'Ready for More?' shows for everyone below the top tier, including users without one. */
export function showsReadyForMore(userTier: Tier | null): boolean {
  return userTier !== 'complete';
}
