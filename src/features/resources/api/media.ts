import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { parseEnv } from '@/config/env';
import { preflight } from '@/lib/preflight';
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
  const { data: session } = await supabase.auth.getSession();
  const token = session.session?.access_token;
  if (!token) throw new DownloadRefused('Please sign in again to play this file.', 'unauthorized', 401);
  const response = await fetch(...playLinkRequest(path, token)).catch(() => null);
  const answer = (await response?.json().catch(() => null)) as {
    url?: string;
    expires_in?: number;
    error?: string;
    message?: string;
  } | null;
  if (response && !response.ok) {
    throw new DownloadRefused(
      answer?.message ?? 'This file could not be played. Please try again.',
      answer?.error ?? 'unknown',
      response.status,
    );
  }
  if (!answer?.url) throw new Error('This file could not be played. Please try again.');
  return { url: answer.url, expiresIn: answer.expires_in ?? 0 };
}

/** GET download?play=1 as supabase-js's functions.invoke sends it, with the given token. */
function playLinkRequest(path: string, token: string): [string, RequestInit & { headers: Record<string, string> }] {
  const { VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY } = parseEnv(import.meta.env);
  const url = `${VITE_SUPABASE_URL.replace(/\/+$/, '')}/functions/v1/download?play=1&path=${encodeURIComponent(path)}`;
  return [url, { method: 'GET', headers: { apikey: VITE_SUPABASE_ANON_KEY, Authorization: `Bearer ${token}` } }];
}

/**
 * Asks ahead for each play link's CORS preflight (src/lib/preflight.ts) once a card with audio
 * or video is on the page: a tap on Play then waits for the function, not for a round trip more.
 * The browser keeps a preflight per address, so each file has its own.
 */
export function preflightPlayLinks(paths: readonly string[]): void {
  const { VITE_SUPABASE_ANON_KEY } = parseEnv(import.meta.env);
  for (const path of paths) {
    const [url, { headers }] = playLinkRequest(path, VITE_SUPABASE_ANON_KEY);
    preflight(url, headers);
  }
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
