import { PLAYBACK_RATES, type PlaybackRate } from '../../../../supabase/functions/_shared/playback';
import { captionsName, isPlayable, resourceType } from '../../../../supabase/functions/_shared/resource-types';
import { compareNames, type FileInfo } from './resource-files';

export { PLAYBACK_RATES, type PlaybackRate };

/** A member's place in one file, as media_progress keeps it. */
export type Progress = {
  file_name: string;
  position_seconds: number;
  duration_seconds: number;
  /** Set by the database the first time the member reached 90 %; kept afterwards. */
  finished_at: string | null;
  updated_at: string;
};

/** An audio or video file of a card, to play in the page. */
export type MediaItem = {
  /** The object's path in the resources bucket: `{tier}/{slug}/{file}`. */
  path: string;
  name: string;
  title: string;
  kind: 'audio' | 'video';
  /** A video's captions in the same folder (`{stem}.vtt`), when uploaded. */
  captionsPath: string | null;
};

/** The card's audio and video files in the list's order, each with its captions when there are some. */
export function mediaItems(folder: string, files: readonly FileInfo[]): MediaItem[] {
  const names = new Set(files.map((file) => file.name));
  return files
    .filter((file) => isPlayable(file.name))
    .map((file) => {
      const kind = resourceType(file.name)?.kind === 'video' ? 'video' : 'audio';
      const captions = captionsName(file.name);
      return {
        path: `${folder}/${file.name}`,
        name: file.name,
        title: file.title,
        kind,
        captionsPath: kind === 'video' && names.has(captions) ? `${folder}/${captions}` : null,
      } satisfies MediaItem;
    })
    .sort((a, b) => compareNames(a.name, b.name));
}

/** What a card says of its media: "3 of 6 listened", and the item its Continue button opens. */
export type CardProgress = {
  finished: number;
  total: number;
  verb: 'listened' | 'watched' | 'finished';
  /** The latest unfinished item the member started, else the first they have not finished; null when all are. */
  next: { item: MediaItem; started: boolean } | null;
};

export function cardProgress(items: readonly MediaItem[], progress: readonly Progress[]): CardProgress | null {
  if (items.length === 0) return null;
  const byPath = new Map(progress.map((row) => [row.file_name, row]));
  const unfinished = items.filter((item) => !byPath.get(item.path)?.finished_at);
  const started = unfinished
    .filter((item) => byPath.has(item.path))
    .sort((a, b) => (byPath.get(b.path)?.updated_at ?? '').localeCompare(byPath.get(a.path)?.updated_at ?? ''));
  const kinds = new Set(items.map((item) => item.kind));
  const first = unfinished[0];
  return {
    finished: items.length - unfinished.length,
    total: items.length,
    verb: kinds.size > 1 ? 'finished' : kinds.has('video') ? 'watched' : 'listened',
    next: started[0] ? { item: started[0], started: true } : first ? { item: first, started: false } : null,
  };
}

/** Where a file starts: the member's place, or the beginning once they finished it. */
export function resumePosition(row: Progress | undefined): number {
  if (!row || row.finished_at) return 0;
  return row.position_seconds;
}

/** 65 -> "1:05"; 3723 -> "1:02:03". */
export function formatTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** 65 -> "1 minute 5 seconds", for a screen reader's reading of the position. */
export function spokenTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const parts: string[] = [];
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
  if (m) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  if (s || parts.length === 0) parts.push(`${s} second${s === 1 ? '' : 's'}`);
  return parts.join(' ');
}
