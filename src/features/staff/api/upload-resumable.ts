import type { DetailedError, HttpRequest, Upload } from 'tus-js-client';
import { parseEnv } from '@/config/env';
import { resourceFolder, type ResourceCard } from '@/content/resources';
import { supabase } from '@/lib/supabase';
import { resourceContentType, resourceObjectPath, storageErrorMessage } from '../lib/upload-rules';

/** Files above this go by Storage's resumable endpoint; hosted Storage's own advice is 6 MB. */
export const RESUMABLE_ABOVE_BYTES = 6 * 1024 * 1024;
/** The chunk size hosted Storage's resumable endpoint expects of every chunk but the last. */
export const CHUNK_BYTES = 6 * 1024 * 1024;
/** Waits between attempts while the server cannot be reached but the browser says it is online. */
const BACKOFF_MS = [2_000, 5_000, 10_000, 30_000];

export type ResumableRequest = {
  card: ResourceCard;
  file: File;
  /** 0..1 as bytes are confirmed; `reconnecting` while the connection is down. */
  onProgress?: (fraction: number, reconnecting?: boolean) => void;
  signal?: AbortSignal;
};

/** The member's access token at the moment a request goes out (refreshed when it has expired). */
async function accessToken(): Promise<string> {
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  if (!data.session) throw new Error('You are not signed in.');
  return data.session.access_token;
}

/** A refusal the server gave (4xx but a conflict or lock): trying again cannot help. */
function refusal(error: Error | DetailedError): string | null {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  const status = response?.getStatus() ?? 0;
  if (status < 400 || status >= 500 || status === 409 || status === 423) return null;
  return storageErrorMessage(status, response?.getBody() ?? '');
}

/** Resolves when the browser is online again, or at once when it is. */
function online(): Promise<void> {
  if (navigator.onLine) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
}

/**
 * Uploads a file to the private `resources` bucket by Storage's resumable (TUS) endpoint, in
 * 6 MB chunks, overwriting, with cache control 3600. A dropped connection does not end it: it
 * waits until the browser is online (or, online, backs off) and carries on from the last byte
 * the server has. The upload's address is kept in this browser under the file and its place,
 * so choosing the same file again after a reload resumes it too. Aborting the signal cancels
 * and discards it on the server.
 */
export async function uploadResumable({ card, file, onProgress, signal }: ResumableRequest): Promise<void> {
  const { Upload: TusUpload } = await import('tus-js-client');
  const env = parseEnv(import.meta.env);
  const path = resourceObjectPath(card, file);
  return new Promise<void>((resolve, reject) => {
    let failures = 0;
    let fraction = 0;
    const upload: Upload = new TusUpload(file, {
      endpoint: `${env.VITE_SUPABASE_URL.replace(/\/+$/, '')}/storage/v1/upload/resumable`,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000],
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      headers: { apikey: env.VITE_SUPABASE_ANON_KEY, 'x-upsert': 'true' },
      metadata: {
        bucketName: 'resources',
        objectName: path,
        contentType: resourceContentType(file),
        cacheControl: '3600',
      },
      // The same file to the same card resumes; to another card it is another upload.
      fingerprint: async () => ['yes-you-can', resourceFolder(card), file.name, file.size, file.lastModified].join('|'),
      onBeforeRequest: async (req: HttpRequest) => req.setHeader('Authorization', `Bearer ${await accessToken()}`),
      onProgress: (sent, total) => {
        failures = 0;
        fraction = total > 0 ? sent / total : 0;
        onProgress?.(fraction);
      },
      onSuccess: () => {
        onProgress?.(1);
        resolve();
      },
      onError: (error) => {
        if (signal?.aborted) return;
        const refused = refusal(error);
        if (refused) return reject(new Error(refused));
        onProgress?.(fraction, true);
        const wait = navigator.onLine ? BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]! : 0;
        failures += 1;
        void online()
          .then(() => new Promise((done) => setTimeout(done, wait)))
          .then(() => !signal?.aborted && upload.start());
      },
    });
    signal?.addEventListener('abort', () => {
      void upload.abort(true).catch(() => {});
      reject(new Error('The upload was cancelled.'));
    });
    void upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  });
}
