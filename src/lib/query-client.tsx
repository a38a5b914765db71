import { MutationCache, QueryCache, QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';

declare module '@tanstack/react-query' {
  interface Register {
    /** `errorMessage`: what the console says when this query or mutation fails (the spec logs read errors). */
    queryMeta: { errorMessage?: string };
    mutationMeta: { errorMessage?: string };
  }
}

/** Failed reads are tried again after 1 s and 2 s, then given up: the page shows "could not load". */
export const QUERY_RETRIES = 2;
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 8000);
}

/**
 * A QueryClient with the app's defaults. Errors are logged in one place, here, with the
 * message the query names in its `meta`; hooks do not each carry a logging effect.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => console.error(query.meta?.errorMessage ?? 'A request failed', error),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.errorMessage) console.error(mutation.meta.errorMessage, error);
      },
    }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: QUERY_RETRIES, retryDelay, refetchOnWindowFocus: false },
    },
  });
}

/**
 * The app's one QueryClient. Provided by the lazy member chunks rather than the root, so
 * react-query stays out of the landing page's first load; they all share this instance, and
 * route loaders prefetch into it. Tests give each render its own client (`renderRoute`).
 */
export const queryClient = createQueryClient();

/**
 * Provides `client`, else the client already provided above (a test's fresh one), else the
 * app's. So a route module can wrap itself and still be rendered inside a test's client.
 */
export function QueryProvider({ client, children }: { client?: QueryClient; children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  return <QueryClientProvider client={client ?? outer ?? queryClient}>{children}</QueryClientProvider>;
}
