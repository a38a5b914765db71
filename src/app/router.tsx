import type { RouteObject } from 'react-router-dom';
import { paths } from '@/config/paths';
import { ErrorPage } from './error-page';
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
          { path: paths.auth, lazy: () => import('./routes/auth') },
          { path: paths.resources, lazy: () => import('./routes/resources') },
          { path: paths.bundles, lazy: () => import('./routes/bundles') },
          { path: paths.upgrade, lazy: () => import('./routes/upgrade') },
          { path: paths.adminUpload, lazy: () => import('./routes/admin-upload') },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
    ],
  },
];
