import type { UseQueryResult } from '@tanstack/react-query';

/**
 * A read that decides what a signed-in person may see or do, as a page shows it. "None" is
 * a value of the data (no tier: `null`, not staff: `false`, an empty folder: `[]`), so it can
 * never be confused with "could not load", which is its own state with a way to try again.
 *
 * - `loading`: no answer yet. `retrying` once an attempt failed and the backed-off retries
 *   are running, so the page can say it is still trying instead of spinning in silence.
 * - `ready`: the data. `refreshFailed` when a later read failed: the last good data stays on
 *   screen (react-query keeps it) with a quiet note and a retry, never a downgrade.
 * - `error`: could not load and nothing good to fall back on.
 */
export type ReadState<T> =
  | { status: 'loading'; retrying: boolean }
  | { status: 'ready'; data: T; refreshFailed: boolean; retrying: boolean; retry: () => void }
  | { status: 'error'; error: Error; retrying: boolean; retry: () => void };

/** The three states of a react-query result; `retry` refetches (with the client's backoff). */
export function readState<T>(query: UseQueryResult<T>): ReadState<T> {
  const retry = () => void query.refetch();
  if (query.data !== undefined) {
    return { status: 'ready', data: query.data, refreshFailed: query.isError, retrying: query.isFetching, retry };
  }
  if (query.isError) return { status: 'error', error: query.error, retrying: query.isFetching, retry };
  return { status: 'loading', retrying: query.failureCount > 0 };
}
