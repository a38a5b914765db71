import { FunctionsHttpError } from '@supabase/supabase-js';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { parseEnv } from '@/config/env';
import { supabase } from '@/lib/supabase';
import { DownloadRefused } from '../lib/download-refused';
import type { PlaybackRate, Progress } from '../lib/media-progress';

export const mediaKeys = {
  /** One member's places in every media file (the user id keeps accounts apart in one browser). */
  progress: (userId: string) => ['resources', 'media-progress', userId] as const,
  rate: (userId: string) => ['resources', 'playback-rate', userId] as const,
};

/** A link the player reads a file by, and how long it lives. */
export type PlayLink = { url: string; expiresIn: number };

/**
 * Asks the download function, with the member's session, for a link to play a file of the
 * resources bucket (or a video's captions): the same checks as a download, logged once a day.
 */
export async function getPlayLink(path: string): Promise<PlayLink> {
  const { data, error } = await supabase.functions.invoke<{ url: string; expires_in: number }>(
    `download?play=1&path=${encodeURIComponent(path)}`,
    { method: 'GET', headers: { Accept: 'application/json' } },
  );
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    const answer = (await response.json().catch(() => null)) as { error?: string; message?: string } | null;
    throw new DownloadRefused(
      answer?.message ?? 'This file could not be played. Please try again.',
      answer?.error ?? 'unknown',
      response.status,
    );
  }
  if (error) throw error;
  if (!data?.url) throw new Error('This file could not be played. Please try again.');
  return { url: data.url, expiresIn: data.expires_in };
}

/** The member's own places (a staff member's too: the filter keeps it to their own rows). */
export function mediaProgressQueryOptions(userId: string) {
  return queryOptions({
    queryKey: mediaKeys.progress(userId),
    queryFn: async (): Promise<Progress[]> => {
      const { data, error } = await supabase
        .from('media_progress')
        .select('file_name, position_seconds, duration_seconds, finished_at, updated_at')
        .eq('user_id', userId);
      if (error) throw error;
      return data;
    },
    meta: { errorMessage: 'Could not load where you stopped' },
  });
}

export function playbackRateQueryOptions(userId: string) {
  return queryOptions({
    queryKey: mediaKeys.rate(userId),
    queryFn: async (): Promise<PlaybackRate> => {
      const { data, error } = await supabase
        .from('member_preferences')
        .select('playback_rate')
        .eq('user_id', userId)
        .maybeSingle();
      if (error) throw error;
      return (data?.playback_rate ?? 1) as PlaybackRate;
    },
    meta: { errorMessage: 'Could not load your playback speed' },
  });
}

/** Saves the member's place (the database decides whether it is finished) and updates the cache. */
export async function saveProgress(
  queryClient: QueryClient,
  userId: string,
  fileName: string,
  position: number,
  duration: number,
): Promise<void> {
  const { data, error } = await supabase.rpc('save_media_progress', {
    p_file_name: fileName,
    p_position: position,
    p_duration: duration,
  });
  if (error) throw error;
  const saved = data as Progress & { user_id?: string };
  queryClient.setQueryData<Progress[]>(mediaKeys.progress(userId), (rows = []) => [
    ...rows.filter((row) => row.file_name !== fileName),
    {
      file_name: saved.file_name,
      position_seconds: saved.position_seconds,
      duration_seconds: saved.duration_seconds,
      finished_at: saved.finished_at,
      updated_at: saved.updated_at,
    },
  ]);
}

/**
 * The same save as the page goes away (a tab closed, the phone locked, another site opened):
 * sent with `keepalive`, so the browser delivers it after the page is gone. No answer is read.
 */
export function saveProgressOnLeave(accessToken: string, fileName: string, position: number, duration: number) {
  const { VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY } = parseEnv(import.meta.env);
  void fetch(`${VITE_SUPABASE_URL.replace(/\/+$/, '')}/rest/v1/rpc/save_media_progress`, {
    method: 'POST',
    keepalive: true,
    headers: {
      apikey: VITE_SUPABASE_ANON_KEY,
      Authorization: `Bearer ${accessToken}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ p_file_name: fileName, p_position: position, p_duration: duration }),
  }).catch(() => {});
}

/** Keeps the member's speed for every item on every device. */
export async function savePlaybackRate(queryClient: QueryClient, userId: string, rate: PlaybackRate): Promise<void> {
  queryClient.setQueryData(mediaKeys.rate(userId), rate);
  const { error } = await supabase.rpc('set_playback_rate', { p_rate: rate });
  if (error) throw error;
}
