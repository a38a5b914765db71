import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './query-client';
import { readState } from './read-state';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A real query whose answers the test hands out one by one (no retries: each answer counts). */
function renderRead(answers: Array<() => Promise<string | null>>) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(
    () =>
      readState(
        useQuery({
          queryKey: ['probe'],
          queryFn: () => (answers.shift() ?? (() => Promise.reject(new Error('no more answers'))))(),
          retry: false,
        }),
      ),
    { wrapper },
  );
}

const fail = () => Promise.reject(new Error('503 Service Unavailable'));

describe('readState', () => {
  it('is loading, then could-not-load (not "none"), and a retry that works shows the data', async () => {
    const { result } = renderRead([fail, () => Promise.resolve('foundation')]);
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('error'));
    const failed = result.current;
    if (failed.status !== 'error') throw new Error('unreachable');
    expect(failed.error.message).toBe('503 Service Unavailable');

    act(() => failed.retry());
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'foundation' }));
    expect(result.current).toMatchObject({ refreshFailed: false });
  });

  it('"none" is data (null), never an error', async () => {
    const { result } = renderRead([() => Promise.resolve(null)]);
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: null, refreshFailed: false }));
  });

  it('keeps the last good data when a refresh fails, and says the refresh failed', async () => {
    const { result } = renderRead([() => Promise.resolve('complete'), fail, () => Promise.resolve('complete')]);
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'complete' }));

    act(() => (result.current.status === 'ready' ? result.current.retry() : undefined));
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', refreshFailed: true }));
    expect(result.current).toMatchObject({ data: 'complete', retrying: false });

    act(() => (result.current.status === 'ready' ? result.current.retry() : undefined));
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', refreshFailed: false }));
  });
});
