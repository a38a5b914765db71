import { queryOptions, useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { resourceFolder, type ResourceCard } from '@/content/resources';
import { supabase } from '@/lib/supabase';
import { downloadableFiles, linkExpiry, type ResourceFile } from '../lib/resource-files';

/** Signed download links live this long; the list is refetched well before they expire. */
export const SIGNED_URL_SECONDS = 600;
const REFRESH_MS = 4 * 60 * 1000;

export const resourceFileKeys = {
  all: ['resources', 'files'] as const,
  /** Prefix for one folder: staff invalidate this after an upload. */
  folder: (folder: string) => ['resources', 'files', folder] as const,
  /**
   * One user's view of a folder. The user id is part of the key so signed links cached for
   * one account are never shown to the next account signing in on the same browser.
   */
  forUser: (folder: string, userId: string) => ['resources', 'files', folder, userId] as const,
};

/**
 * The files in a card's folder of the private `resources` bucket, each described (title, type
 * and size from the listing's metadata), with a short-lived signed URL that downloads
 * (Content-Disposition: attachment) and when it expires. Storage RLS decides: a folder above the user's tier lists as empty or fails, whatever the page does.
 */
export async function listResourceFiles(folder: string): Promise<ResourceFile[]> {
  const bucket = supabase.storage.from('resources');
  const { data, error } = await bucket.list(folder, { limit: 100, sortBy: { column: 'name', order: 'asc' } });
  if (error) throw error;
  const described = downloadableFiles(data);
  if (described.length === 0) return [];

  const paths = described.map((file) => `${folder}/${file.name}`);
  // Taken before the request, so the expiry we note is never later than the server's.
  const expiresAt = linkExpiry(Date.now(), SIGNED_URL_SECONDS);
  const signed = await bucket.createSignedUrls(paths, SIGNED_URL_SECONDS, { download: true });
  if (signed.error) throw signed.error;
  return described.flatMap((file, index) => {
    const url = signed.data[index]?.signedUrl;
    return url ? [{ ...file, url, expiresAt }] : [];
  });
}

export function resourceFilesQueryOptions(folder: string, userId: string) {
  return queryOptions({
    queryKey: resourceFileKeys.forUser(folder, userId),
    queryFn: () => listResourceFiles(folder),
    // Logged by the query cache; the card shows the error with a retry.
    meta: { errorMessage: `Could not load the files of ${folder}` },
    // Below the URL lifetime, and refreshed on a timer, so links on screen stay valid. The
    // timer pauses in a hidden tab, so coming back to the tab refetches once the list is
    // older than that (the app turns focus refetching off elsewhere). A link that is stale
    // anyway (the computer slept, the refetch is still running) is signed again on click.
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
 * A fresh link for one file of a card whose links went stale on screen: the card's list is
 * fetched again now (one listing and one signing for all its files, shared with a refetch
 * already running), so the other links on the card are renewed too. Resolves with the new
 * URL; throws on failure, or when the file is no longer there.
 */
export function useRenewResourceLink(userId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (card: ResourceCard, name: string) => {
      const files = await queryClient.fetchQuery({
        ...resourceFilesQueryOptions(resourceFolder(card), userId),
        staleTime: 0,
      });
      const file = files.find((candidate) => candidate.name === name);
      if (!file) throw new Error(`${name} is no longer available.`);
      return file.url;
    },
    [queryClient, userId],
  );
}
