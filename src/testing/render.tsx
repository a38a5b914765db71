import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router-dom';
import { Toaster } from '@/components/ui/toaster';
import { AuthProvider } from '@/features/auth/auth-provider';
import { QueryProvider } from '@/lib/query-client';

/**
 * Renders `element` at `path` inside the app's providers, with stand-in pages for the other
 * routes so a test can see where a link or redirect went (`screen.getByText('page:/auth')`).
 */
type RenderRouteOptions = { path?: string; at?: string; extra?: RouteObject[] };

export function renderRoute(element: ReactElement, { path = '/', at = path, extra = [] }: RenderRouteOptions = {}) {
  const others = ['/', '/auth', '/resources', '/bundles', '/upgrade', '/admin-upload']
    .filter((p) => p !== path)
    .map((p) => ({ path: p, element: <p>page:{p}</p> }));
  const router = createMemoryRouter(
    [
      {
        element: (
          <AuthProvider>
            <QueryProvider>
              <Toaster />
              <RouterOutletShim />
            </QueryProvider>
          </AuthProvider>
        ),
        children: [{ path, element }, ...others, ...extra],
      },
    ],
    { initialEntries: [at] },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}

function RouterOutletShim() {
  return <Outlet />;
}
