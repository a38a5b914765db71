import { FunctionsHttpError } from '@supabase/supabase-js';
import { parseEnv } from '@/config/env';
import { supabase } from '@/lib/supabase';
import { DownloadRefused } from '../lib/download-refused';

export { DownloadRefused };

/**
 * The download function's address for a file of the resources bucket: the link's href. A click
 * on the page asks it with the member's session (prepareDownload); the address alone, opened
 * without one, is refused.
 */
export function downloadHref(path: string): string {
  const { VITE_SUPABASE_URL } = parseEnv(import.meta.env);
  return `${VITE_SUPABASE_URL.replace(/\/+$/, '')}/functions/v1/download?path=${encodeURIComponent(path)}`;
}

/**
 * Asks the download function, with the signed-in member's session, for their copy of a file:
 * it checks their tier, stamps the copy, logs the download and answers with a link that lives
 * 60 seconds, which the caller follows at once.
 */
export async function prepareDownload(path: string): Promise<string> {
  const { data, error } = await supabase.functions.invoke<{ url: string }>(
    `download?path=${encodeURIComponent(path)}`,
    { method: 'GET', headers: { Accept: 'application/json' } },
  );
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    const answer = (await response.json().catch(() => null)) as { error?: string; message?: string } | null;
    throw new DownloadRefused(
      answer?.message ?? 'Your copy could not be prepared. Please try again.',
      answer?.error ?? 'unknown',
      response.status,
    );
  }
  if (error) throw error;
  if (!data?.url) throw new Error('Your copy could not be prepared. Please try again.');
  return data.url;
}
