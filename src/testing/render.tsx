import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, type LoaderFunction, type RouteObject } from 'react-router-dom';
import { Toaster } from '@/components/ui/toaster';
import { AuthProvider } from '@/lib/auth-provider';
import { createQueryClient, QueryProvider } from '@/lib/query-client';

/**
 * Renders `element` at `path` inside the app's providers, with stand-in pages for the other
 * routes so a test can see where a link or redirect went (`screen.getByText('page:/auth')`).
 * `loader` makes the route's loader for this render's QueryClient (a route module's
 * `xLoader(client)`); until it settles the page shows 'route:loading'.
 */
type RenderRouteOptions = {
  path?: string;
  at?: string;
  extra?: RouteObject[];
  loader?: (queryClient: QueryClient) => LoaderFunction;
};

export function renderRoute(
  element: ReactElement,
  { path = '/', at = path, extra = [], loader }: RenderRouteOptions = {},
) {
  const others = ['/', '/auth', '/resources', '/bundles', '/upgrade', '/admin-upload']
    .filter((p) => p !== path)
    .map((p) => ({ path: p, element: <p>page:{p}</p> }));
  // A fresh QueryClient per render: no cached tier, profile or file list leaks between tests.
  const queryClient = createQueryClient();
  const router = createMemoryRouter(
    [
      {
        element: (
          <AuthProvider>
            <QueryProvider client={queryClient}>
              <Toaster />
              <RouterOutletShim />
            </QueryProvider>
          </AuthProvider>
        ),
        children: [
          { path, element, loader: loader?.(queryClient), HydrateFallback: RouteLoading },
          ...others,
          ...extra,
        ],
      },
    ],
    { initialEntries: [at] },
  );
  return { router, queryClient, ...render(<RouterProvider router={router} />) };
}

function RouteLoading() {
  return <p>route:loading</p>;
}

function RouterOutletShim() {
  return <Outlet />;
}
