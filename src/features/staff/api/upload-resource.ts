import { useMutation, useQueryClient } from '@tanstack/react-query';
import { parseEnv } from '@/config/env';
import { resourceFolder, type ResourceCard } from '@/content/resources';
import { resourceFileKeys } from '@/features/resources';
import { supabase } from '@/lib/supabase';
import { resourceContentType, resourceObjectPath, storageErrorMessage, storageObjectUrl } from '../lib/upload-rules';
import { RESUMABLE_ABOVE_BYTES, uploadResumable } from './upload-resumable';

export type UploadRequest = {
  card: ResourceCard;
  file: File;
  /** 0..1 as bytes go out; `reconnecting` while a resumable upload waits for the connection. */
  onProgress?: (fraction: number, reconnecting?: boolean) => void;
  /** Cancels the upload. */
  signal?: AbortSignal;
};

/**
 * Uploads a file to the private `resources` bucket at `{tier}/{slug}/{file name}`,
 * overwriting, with cache control 3600. Throws with the storage API's message on failure (the
 * database refuses non-staff).
 */
export async function uploadResource(request: UploadRequest): Promise<void> {
  // Large files (videos, long audio) go by the resumable endpoint, which survives a dropped
  // connection; the rest in one request.
  if (request.file.size > RESUMABLE_ABOVE_BYTES) return uploadResumable(request);
  return uploadInOneRequest(request);
}

/**
 * Uploads in one request, sent with XMLHttpRequest to the same storage endpoint supabase-js
 * uses, because fetch cannot report upload progress.
 */
async function uploadInOneRequest({ card, file, onProgress, signal }: UploadRequest): Promise<void> {
  const env = parseEnv(import.meta.env);
  // getSession refreshes an expired access token before we use it.
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  const token = data.session?.access_token;
  if (!token) throw new Error('You are not signed in.');

  const url = storageObjectUrl(env.VITE_SUPABASE_URL, 'resources', resourceObjectPath(card, file));

  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('apikey', env.VITE_SUPABASE_ANON_KEY);
    xhr.setRequestHeader('x-upsert', 'true');
    xhr.setRequestHeader('cache-control', 'max-age=3600');
    xhr.setRequestHeader('content-type', resourceContentType(file));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve();
      } else reject(new Error(storageErrorMessage(xhr.status, xhr.responseText)));
    };
    xhr.onerror = () => reject(new Error(storageErrorMessage(0, '')));
    xhr.onabort = () => reject(new Error('The upload was cancelled.'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}

/** Upload plus a refresh of that card's file lists, so members see the new file. */
export function useUploadResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadResource,
    onSuccess: (_data, { card }) =>
      queryClient.invalidateQueries({ queryKey: resourceFileKeys.folder(resourceFolder(card)) }),
  });
}
