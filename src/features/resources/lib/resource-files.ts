import { RESOURCE_TYPES } from '../../../../supabase/functions/_shared/resource-types';
import { isUnlocked, type Tier } from '@/content/tiers';

/**
 * What a storage listing entry looks like, as far as this module cares. Hosted Storage's
 * list (the `storage.search` function) returns the object's `metadata` (size, mimetype) but
 * not its `user_metadata`; a `user_metadata.title` is used only if a listing ever carries it.
 */
export type StorageEntry = {
  name: string;
  id: string | null;
  metadata?: { size?: unknown; mimetype?: unknown } | null;
  user_metadata?: { title?: unknown } | null;
};

/** A downloadable object of a folder, described for people. */
export type FileInfo = {
  /** The object's name in its folder (the download's file name). */
  name: string;
  /** A human title: the optional stored title, else the name without extension and dashes. */
  title: string;
  /** The kind of file in a word or two ("PDF", "MP3 audio"). */
  type: string;
  /** Bytes, or null when storage did not say. */
  size: number | null;
};

export type ResourceFile = FileInfo & {
  /** The download function's address for the file (the link's href); a click asks it with the session. */
  url: string;
};

/** The file list of one card, as the card shows it. */
export type FilesState =
  | { status: 'loading' }
  | { status: 'error'; message: string; retry: () => void; retrying?: boolean }
  | {
      status: 'ready';
      files: readonly ResourceFile[];
      /**
       * Asks the download function for the member's own copy of one file of this card (checked,
       * stamped, logged); resolves with a link to follow at once, throws with the refusal's words.
       */
      prepare: (name: string) => Promise<string>;
      /** The last refresh failed: these are the last good files, with a way to try again. */
      refreshFailed?: { retry: () => void; retrying: boolean };
    };

/**
 * File names in a case-insensitive order (ties by code unit, so the order is total). Plain
 * string comparison, not `Intl.Collator` or `localeCompare`: a page's first collator loads
 * ICU's collation data, a long task in Chromium just as /resources shows its cards; the
 * names are the uploaders' file names.
 */
export function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The real files of a folder listing, described: storage returns sub-folders (id null) and
 * the `.emptyFolderPlaceholder` object the dashboard creates; neither is a download.
 */
export function downloadableFiles(entries: readonly StorageEntry[]): FileInfo[] {
  return entries
    .filter((entry) => entry.id !== null && entry.name !== '' && !entry.name.startsWith('.'))
    .map((entry) => describeFile(entry))
    .sort((a, b) => compareNames(a.name, b.name));
}

export function describeFile(entry: StorageEntry): FileInfo {
  const stored = entry.user_metadata?.title;
  const size = entry.metadata?.size;
  const mimetype = entry.metadata?.mimetype;
  return {
    name: entry.name,
    title: typeof stored === 'string' && stored.trim() !== '' ? stored.trim() : titleFromName(entry.name),
    type: fileType(entry.name, typeof mimetype === 'string' ? mimetype : null),
    size: typeof size === 'number' && Number.isFinite(size) && size >= 0 ? size : null,
  };
}

/** "session-1-called-to-write.mp3" -> "Session 1 called to write". */
export function titleFromName(name: string): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const words = stem.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (words === '') return name;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const typeNames: Record<string, string> = Object.fromEntries(
  Object.values(RESOURCE_TYPES).map((type) => [type.contentType, type.label]),
);

/** The kind of file: from the stored content type, else the extension in capitals. */
export function fileType(name: string, mimetype: string | null): string {
  const known = mimetype ? typeNames[mimetype.split(';')[0]!.trim().toLowerCase()] : undefined;
  if (known) return known;
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toUpperCase() : 'File';
}

/** 1234567 -> "1.2 MB"; 900 -> "900 bytes" (decimal units, as operating systems show downloads). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const shown = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value).toString();
  // 999.6 KB rounds to 1000: say 1 MB instead.
  if (shown === '1000' && unit < units.length - 1) return `1 ${units[unit + 1]}`;
  return `${shown} ${units[unit]}`;
}

/** "PDF, 1.2 MB": a file's type and size in words, for its link. */
export function fileDetails(file: Pick<FileInfo, 'type' | 'size'>): string {
  return file.size === null ? file.type : `${file.type}, ${formatFileSize(file.size)}`;
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
