import { useMutation, useQueryClient } from '@tanstack/react-query';
import { parseEnv } from '@/config/env';
import { resourceFolder, type ResourceCard } from '@/content/resources';
import { resourceFileKeys } from '@/features/resources';
import { supabase } from '@/lib/supabase';
import { resourceContentType, resourceObjectPath, storageErrorMessage, storageObjectUrl } from '../lib/upload-rules';

export type UploadRequest = {
  card: ResourceCard;
  file: File;
  /** 0..1 as bytes go out. */
  onProgress?: (fraction: number) => void;
};

/**
 * Uploads a file to the private `resources` bucket at `{tier}/{slug}/{file name}`,
 * overwriting, with cache control 3600. Sent with XMLHttpRequest to the same storage
 * endpoint supabase-js uses, because fetch cannot report upload progress. Throws with the
 * storage API's message on failure (the database refuses non-staff).
 */
export async function uploadResource({ card, file, onProgress }: UploadRequest): Promise<void> {
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
