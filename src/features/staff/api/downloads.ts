import { queryOptions, useQuery } from '@tanstack/react-query';
import { downloadLimits } from '@/config/downloads';
import { readState, type ReadState } from '@/lib/read-state';
import { supabase } from '@/lib/supabase';
import { retryUnlessRefused } from './list-members';
import { toStaffError } from './staff-rpc';

export type DownloadFlag = { userId: string; email: string; downloads: number; addresses: number; lastAt: string };
export type FileTotal = { fileName: string; downloads: number; members: number; lastAt: string };
export type MemberDownload = { id: number; fileName: string; at: string; ip: string | null; played: boolean };
/** Where a member stands in one media file: a share of it, and whether they finished it (90 %). */
export type MemberPlace = { fileName: string; percent: number; finished: boolean; at: string };

export const downloadKeys = {
  flags: ['staff', 'downloads', 'flags'] as const,
  totals: ['staff', 'downloads', 'totals'] as const,
  member: (userId: string) => ['staff', 'downloads', 'member', userId] as const,
  places: (userId: string) => ['staff', 'downloads', 'places', userId] as const,
};

const REFRESH_MS = 60_000;

/** Members past a sharing limit of `downloadLimits` in the last 24 hours (staff only). */
export async function listDownloadFlags(): Promise<DownloadFlag[]> {
  const { data, error } = await supabase
    .rpc('staff_download_flags', { p_max_per_day: downloadLimits.perDay, p_max_ips: downloadLimits.addresses })
    .retry(false);
  if (error) throw toStaffError(error);
  return data.map((row) => ({
    userId: row.user_id,
    email: row.email,
    downloads: Number(row.downloads),
    addresses: Number(row.addresses),
    lastAt: row.last_download_at,
  }));
}

/** Downloads per file, all time (staff only). */
export async function listFileTotals(): Promise<FileTotal[]> {
  const { data, error } = await supabase.rpc('staff_download_totals').retry(false);
  if (error) throw toStaffError(error);
  return data.map((row) => ({
    fileName: row.file_name,
    downloads: Number(row.downloads),
    members: Number(row.members),
    lastAt: row.last_download_at,
  }));
}

/** One member's latest downloads, newest first (staff read every row of the log). */
export async function listMemberDownloads(userId: string): Promise<MemberDownload[]> {
  const { data, error } = await supabase
    .from('download_log')
    .select('id, file_name, downloaded_at, ip, play_day')
    .eq('user_id', userId)
    .order('downloaded_at', { ascending: false })
    .limit(100)
    .retry(false);
  if (error) throw toStaffError(error);
  return data.map((row) => ({
    id: row.id,
    fileName: row.file_name,
    at: row.downloaded_at,
    ip: row.ip as string | null,
    played: row.play_day !== null,
  }));
}

/** One member's places in the audio and video, latest first (staff read every member's). */
export async function listMemberPlaces(userId: string): Promise<MemberPlace[]> {
  const { data, error } = await supabase
    .from('media_progress')
    .select('file_name, position_seconds, duration_seconds, finished_at, updated_at')
    .eq('user_id', userId)
    .order('updated_at', { ascending: false })
    .retry(false);
  if (error) throw toStaffError(error);
  return data.map((row) => ({
    fileName: row.file_name,
    percent: Math.round((100 * row.position_seconds) / row.duration_seconds),
    finished: row.finished_at !== null,
    at: row.updated_at,
  }));
}

export function useDownloadFlags(): ReadState<DownloadFlag[]> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: downloadKeys.flags,
        queryFn: listDownloadFlags,
        retry: retryUnlessRefused,
        refetchInterval: REFRESH_MS,
        meta: { errorMessage: 'Could not read the sharing flags' },
      }),
    ),
  );
}

export function useFileTotals(): ReadState<FileTotal[]> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: downloadKeys.totals,
        queryFn: listFileTotals,
        retry: retryUnlessRefused,
        refetchInterval: REFRESH_MS,
        meta: { errorMessage: 'Could not read the download totals' },
      }),
    ),
  );
}

export function useMemberDownloads(userId: string): ReadState<MemberDownload[]> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: downloadKeys.member(userId),
        queryFn: () => listMemberDownloads(userId),
        retry: retryUnlessRefused,
        meta: { errorMessage: 'Could not read the member’s downloads' },
      }),
    ),
  );
}

export function useMemberPlaces(userId: string): ReadState<MemberPlace[]> {
  return readState(
    useQuery(
      queryOptions({
        queryKey: downloadKeys.places(userId),
        queryFn: () => listMemberPlaces(userId),
        retry: retryUnlessRefused,
        meta: { errorMessage: 'Could not read the member’s listening and watching' },
      }),
    ),
  );
}
