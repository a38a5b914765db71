import { queryOptions, useQuery } from '@tanstack/react-query';
import { downloadLimits } from '@/config/downloads';
import { readState, type ReadState } from '@/lib/read-state';
import { supabase } from '@/lib/supabase';
import { retryUnlessRefused } from './list-members';
import { toStaffError } from './staff-rpc';

export type DownloadFlag = { userId: string; email: string; downloads: number; addresses: number; lastAt: string };
export type FileTotal = { fileName: string; downloads: number; members: number; lastAt: string };
export type MemberDownload = { id: number; fileName: string; at: string; ip: string | null };

export const downloadKeys = {
  flags: ['staff', 'downloads', 'flags'] as const,
  totals: ['staff', 'downloads', 'totals'] as const,
  member: (userId: string) => ['staff', 'downloads', 'member', userId] as const,
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
    .select('id, file_name, downloaded_at, ip')
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
