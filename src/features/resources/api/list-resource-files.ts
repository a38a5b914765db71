import { queryOptions, useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { resourceFolder, type ResourceCard } from '@/content/resources';
import { supabase } from '@/lib/supabase';
import { downloadableFiles, type ResourceFile, type StorageEntry } from '../lib/resource-files';
import { prepareDownload, downloadHref, DownloadRefused } from './prepare-download';

const REFRESH_MS = 4 * 60 * 1000;

export const resourceFileKeys = {
  all: ['resources', 'files'] as const,
  /** Prefix for one folder: staff invalidate this after an upload. */
  folder: (folder: string) => ['resources', 'files', folder] as const,
  /**
   * One user's view of a folder. The user id is part of the key so a list cached for one
   * account is never shown to the next account signing in on the same browser.
   */
  forUser: (folder: string, userId: string) => ['resources', 'files', folder, userId] as const,
};

/**
 * The files in a card's folder of the private `resources` bucket, each described (title, type
 * and size from the listing's metadata), with the download function's address for it. Storage
 * RLS decides what a member may list; the download function decides, stamps and logs each
 * download (supabase/functions/download).
 */
export async function listResourceFiles(folder: string): Promise<ResourceFile[]> {
  const bucket = supabase.storage.from('resources');
  const { data, error } = await bucket.list(folder, { limit: 100, sortBy: { column: 'name', order: 'asc' } });
  if (error) throw error;
  return folderFiles(folder, data);
}

/** A folder's listing as the card shows it: its downloadable files, each with its link. */
export function folderFiles(folder: string, entries: readonly StorageEntry[]): ResourceFile[] {
  return downloadableFiles(entries).map((file) => ({ ...file, url: downloadHref(`${folder}/${file.name}`) }));
}

export function resourceFilesQueryOptions(folder: string, userId: string) {
  return queryOptions({
    queryKey: resourceFileKeys.forUser(folder, userId),
    queryFn: () => listResourceFiles(folder),
    // Logged by the query cache; the card shows the error with a retry.
    meta: { errorMessage: `Could not load the files of ${folder}` },
    // A file staff add or remove shows within minutes; coming back to the tab refetches once
    // the list is older than that (the app turns focus refetching off elsewhere).
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}

/** File lists for the given (unlocked) cards only: locked cards never request their folder. */
export function useResourceFiles(cards: readonly ResourceCard[], userId: string) {
  return useQueries({ queries: cards.map((card) => resourceFilesQueryOptions(resourceFolder(card), userId)) });
}

/**
 * Asks the download function for the member's copy of one file of a card and resolves with the
 * link to follow (it lives 60 seconds). A file that is gone (404) refreshes the card's list,
 * so its link disappears; the refusal's words are thrown for the page to show.
 */
export function usePrepareDownload(userId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (card: ResourceCard, name: string) => {
      const folder = resourceFolder(card);
      try {
        return await prepareDownload(`${folder}/${name}`);
      } catch (error) {
        if (error instanceof DownloadRefused && error.status === 404) {
          await queryClient.invalidateQueries({ queryKey: resourceFileKeys.forUser(folder, userId) });
        }
        throw error;
      }
    },
    [queryClient, userId],
  );
}
