import type { RouteObject } from 'react-router-dom';
import { paths } from '@/config/paths';
import { ErrorPage } from './error-page';
import type { RouteHandle } from './page-title';
import { RootLayout } from './root-layout';
import { Component as HomePage } from './routes/home';

/**
 * The landing page is bundled eagerly (it is the first paint for most visitors); every other
 * route is a lazy chunk, so supabase-js, react-query, zod and Radix load only where used.
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
          { path: paths.auth, handle: title('Subscriber Access'), lazy: () => import('./routes/auth') },
          { path: paths.resources, handle: title('Subscriber Resources'), lazy: () => import('./routes/resources') },
          { path: paths.bundles, handle: title('Compare Our Bundles'), lazy: () => import('./routes/bundles') },
          {
            path: paths.upgrade,
            handle: title('Congratulations on Your Purchase!'),
            lazy: () => import('./routes/upgrade'),
          },
          { path: paths.adminUpload, handle: title('Upload Resources'), lazy: () => import('./routes/admin-upload') },
          { path: '*', handle: title('Page not found'), lazy: () => import('./routes/not-found') },
        ],
      },
    ],
  },
];

/** The page's name in the browser tab and the navigation announcement (see `PageTitle`). */
function title(name: string): RouteHandle {
  return { title: name };
}
