import { createContext, useContext } from 'react';
import type { PlayLink } from '../api/media';
import type { MediaItem, PlaybackRate, Progress } from '../lib/media-progress';

/**
 * What the cards need to play their audio and video: the member's places and speed, the one
 * open item, and the calls the player makes. Provided by the page's container; absent (null)
 * where a card is drawn on its own, which then offers downloads only.
 */
export type MediaControls = {
  progress: readonly Progress[];
  rate: PlaybackRate;
  onRateChange: (rate: PlaybackRate) => void;
  getLink: (path: string) => Promise<PlayLink>;
  /** Asks ahead for these files' play links' CORS preflights, so a tap waits for no round trip more. */
  preflight: (paths: readonly string[]) => void;
  onProgress: (path: string, position: number, duration: number) => Promise<void>;
  onLeave: (path: string, position: number, duration: number) => void;
  /** The item whose player is open (one at a time on the page). */
  open: MediaItem | null;
  setOpen: (item: MediaItem | null) => void;
};

export const MediaContext = createContext<MediaControls | null>(null);

export function useMediaControls(): MediaControls | null {
  return useContext(MediaContext);
}
