import { isUnlocked, type Tier } from '@/content/tiers';

/** What a storage listing entry looks like, as far as this module cares. */
export type StorageEntry = { name: string; id: string | null };

export type ResourceFile = {
  name: string;
  /** A signed download URL; it stops working at `expiresAt`. */
  url: string;
  /** When the URL expires, in this browser's clock (ms since the epoch). */
  expiresAt: number;
};

/** The file list of one card, as the card shows it. */
export type FilesState =
  | { status: 'loading' }
  | { status: 'error'; message: string; retry: () => void; retrying?: boolean }
  | {
      status: 'ready';
      files: readonly ResourceFile[];
      /** Signs a new download URL for one file of this card; throws on failure. */
      renew: (name: string) => Promise<string>;
      /** The last refresh failed: these are the last good files, with a way to try again. */
      refreshFailed?: { retry: () => void; retrying: boolean };
    };

/**
 * A link this close to its expiry is signed again before it is followed: the margin covers
 * the time to the request and a clock that drifted while the computer slept.
 */
export const LINK_MARGIN_MS = 60_000;

/** When a URL signed at `signedAt` (ms) for `seconds` stops working. */
export function linkExpiry(signedAt: number, seconds: number): number {
  return signedAt + seconds * 1000;
}

/** Whether the link can be followed as it is at `now` (default: this moment); else sign it again. */
export function linkIsFresh(file: Pick<ResourceFile, 'expiresAt'>, now = Date.now()): boolean {
  return now < file.expiresAt - LINK_MARGIN_MS;
}

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

export type CardView = 'unknown' | 'locked' | 'loading' | 'error' | 'files' | 'coming-soon';

/**
 * How a card shows for a user's tier and its file list (derived, never stored). `undefined`
 * is a tier that could not be loaded: the card is neither locked nor open ('unknown'), so a
 * paying member is never shown a lock and a call to buy because of a failed read.
 */
export function cardView(userTier: Tier | null | undefined, cardTier: Tier, files: FilesState | undefined): CardView {
  if (userTier === undefined) return 'unknown';
  if (!isUnlocked(userTier, cardTier)) return 'locked';
  if (!files || files.status === 'loading') return 'loading';
  if (files.status === 'error') return 'error';
  return files.files.length > 0 ? 'files' : 'coming-soon';
}

/**
 * 'Ready for More?' shows for everyone below the top tier, including users without one, but
 * not while the tier is unknown (`undefined`): a member who may own everything is not sold more.
 */
export function showsReadyForMore(userTier: Tier | null | undefined): boolean {
  return userTier !== undefined && userTier !== 'complete';
}
