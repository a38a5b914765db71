import type { RouteObject } from 'react-router-dom';
import { paths } from '@/config/paths';
import { ErrorPage } from './error-page';
import type { RouteHandle } from './page-title';
import { RootLayout } from './root-layout';
import { routeFallback } from './route-fallback';
import { Component as HomePage } from './routes/home';

const Loading = routeFallback('Loading...');

/**
 * The landing page is bundled eagerly (it is the first paint for most visitors); every other
 * route is a lazy chunk, so supabase-js, react-query, zod and Radix load only where used.
 * Member routes gate in their loaders (session, tier, staff). Each lazy route names its
 * `HydrateFallback` here, not in its chunk: on a direct load the router shows it while the
 * chunk and loader arrive, before it could read anything from the chunk.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          { path: paths.home, element: <HomePage /> },
          {
            path: paths.auth,
            handle: title('Subscriber Access'),
            HydrateFallback: Loading,
            lazy: () => import('./routes/auth'),
          },
          {
            path: paths.resources,
            handle: title('Subscriber Resources'),
            HydrateFallback: routeFallback('Loading your resources...'),
            lazy: () => import('./routes/resources'),
          },
          {
            path: paths.bundles,
            handle: title('Compare Our Bundles'),
            HydrateFallback: Loading,
            lazy: () => import('./routes/bundles'),
          },
          {
            path: paths.upgrade,
            handle: title('Congratulations on Your Purchase!'),
            HydrateFallback: Loading,
            lazy: () => import('./routes/upgrade'),
          },
          {
            path: paths.adminUpload,
            handle: title('Upload Resources'),
            HydrateFallback: routeFallback('Checking access...'),
            lazy: () => import('./routes/admin-upload'),
          },
          {
            path: paths.staffMembers,
            handle: title('Members'),
            HydrateFallback: routeFallback('Checking access...'),
            lazy: () => import('./routes/staff-members'),
          },
          {
            path: '*',
            handle: title('Page not found'),
            HydrateFallback: Loading,
            lazy: () => import('./routes/not-found'),
          },
        ],
      },
    ],
  },
];

/** The page's name in the browser tab and the navigation announcement (see `PageTitle`). */
function title(name: string): RouteHandle {
  return { title: name };
}
