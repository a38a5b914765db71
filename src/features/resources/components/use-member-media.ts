import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useAuth } from '@/lib/auth-provider';
import { errorMessage } from '@/lib/error-message';
import {
  getPlayLink,
  type PlayLink,
  mediaProgressQueryOptions,
  playbackRateQueryOptions,
  preflightPlayLinks,
  savePlaybackRate,
  saveProgress,
  saveProgressOnLeave,
} from '../api/media';
import type { MediaItem, PlaybackRate } from '../lib/media-progress';
import type { MediaControls } from './media-context';

/**
 * The member's media controls for the page: their places and speed (read only once their files
 * include audio or video), the open item, and the saves. A failed save of a place is quiet (the
 * next one carries the same information); a failed change of speed is said.
 */
export function useMemberMedia(userId: string, hasMedia: boolean): MediaControls {
  const queryClient = useQueryClient();
  const { session } = useAuth();
  // The latest access token, for the save sent as the page goes away (no time to ask for it then).
  const token = useRef<string | null>(null);
  useEffect(() => {
    token.current = session?.user.id === userId ? session.access_token : null;
  }, [session, userId]);
  const progress = useQuery({ ...mediaProgressQueryOptions(userId), enabled: hasMedia });
  const rate = useQuery({ ...playbackRateQueryOptions(userId), enabled: hasMedia });
  const [open, setOpenItem] = useState<MediaItem | null>(null);
  // Links asked for at the tap, while the player's chunk loads and mounts: the player takes its
  // first link from here rather than asking only once it is on the page.
  const early = useRef(new Map<string, Promise<PlayLink>>());
  const setOpen = useCallback((item: MediaItem | null) => {
    for (const path of item ? [item.path, item.captionsPath] : []) {
      if (!path || early.current.has(path)) continue;
      const link = getPlayLink(path);
      link.catch(() => {}); // the player reports a failure when it takes the link
      early.current.set(path, link);
    }
    setOpenItem(item);
  }, []);
  const getLink = useCallback((path: string) => {
    const link = early.current.get(path);
    early.current.delete(path);
    return link ?? getPlayLink(path);
  }, []);

  const onRateChange = useCallback(
    (next: PlaybackRate) => {
      savePlaybackRate(queryClient, userId, next).catch((error: unknown) =>
        toast.error('Could not keep your speed', { description: errorMessage(error) }),
      );
    },
    [queryClient, userId],
  );
  const onProgress = useCallback(
    (path: string, position: number, duration: number) => saveProgress(queryClient, userId, path, position, duration),
    [queryClient, userId],
  );
  const onLeave = useCallback((path: string, position: number, duration: number) => {
    if (token.current) saveProgressOnLeave(token.current, path, position, duration);
  }, []);

  return useMemo(
    () => ({
      progress: progress.data ?? [],
      rate: rate.data ?? 1,
      onRateChange,
      getLink,
      preflight: preflightPlayLinks,
      onProgress,
      onLeave,
      open,
      setOpen,
    }),
    [progress.data, rate.data, onRateChange, getLink, onProgress, onLeave, open, setOpen],
  );
}
