import { useQuery } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render';
import { createQueryClient, retryDelay } from './query-client';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createQueryClient', () => {
  it('logs a failed query once, in one place, with the message its meta names', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = createQueryClient();
    const failure = new Error('503 Service Unavailable');
    await client
      .fetchQuery({
        queryKey: ['probe'],
        queryFn: () => Promise.reject(failure),
        retry: false,
        meta: { errorMessage: 'Could not read the probe' },
      })
      .catch(() => undefined);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('Could not read the probe', failure);
  });

  it('logs a query without meta under a generic message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = createQueryClient();
    await client
      .fetchQuery({ queryKey: ['bare'], queryFn: () => Promise.reject(new Error('x')), retry: false })
      .catch(() => undefined);
    expect(log).toHaveBeenCalledWith('A request failed', expect.any(Error));
  });

  it('backs off 1 s, then 2 s, and stops after two retries', () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.retry).toBe(2);
    expect([0, 1].map(retryDelay)).toEqual([1000, 2000]);
  });

  it('gives every client its own cache', () => {
    const first = createQueryClient();
    const second = createQueryClient();
    first.setQueryData(['tiers', 'detail', 'u-1'], 'complete');
    expect(second.getQueryData(['tiers', 'detail', 'u-1'])).toBeUndefined();
  });
});

function CachedTier() {
  const { data } = useQuery({ queryKey: ['tiers', 'detail', 'u-1'], queryFn: () => 'fetched' as string });
  return <p>tier:{data ?? 'none yet'}</p>;
}

describe('renderRoute', () => {
  it('gives each render a fresh QueryClient: nothing cached leaks into the next test', async () => {
    const first = renderRoute(<CachedTier />);
    expect(await screen.findByText('tier:fetched')).toBeInTheDocument();
    act(() => {
      first.queryClient.setQueryData(['tiers', 'detail', 'u-1'], 'complete');
    });
    expect(await screen.findByText('tier:complete')).toBeInTheDocument();
    first.unmount();

    const second = renderRoute(<CachedTier />);
    expect(second.queryClient).not.toBe(first.queryClient);
    expect(second.queryClient.getQueryData(['tiers', 'detail', 'u-1'])).not.toBe('complete');
    expect(await screen.findByText('tier:fetched')).toBeInTheDocument();
  });
});
