import type { RouteObject } from 'react-router-dom';
import { paths } from '@/config/paths';
import { privacy } from '@/content/privacy';
import { ErrorPage } from './error-page';
import type { RouteHandle } from './head';
import { RootLayout } from './root-layout';
import { routeFallback } from './route-fallback';

const Loading = routeFallback('Loading...');
/** The pages auth e-mails lead to (confirm a link or code, set a password): one chunk. */
const linkPages = () => import('./routes/set-password');

/**
 * Every route is a lazy chunk, so supabase-js, react-query, zod and Radix load only where used.
 * The public pages (`documentPages`) are here for the build, which prerenders them from these
 * routes; in the browser they are documents, never the router's (app/start.tsx).
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
          {
            path: paths.home,
            handle: page({
              description:
                'Overcome fear, silence your inner critic and finish your book in 90 days: the Yes, You Can! ebook and coaching for first-time Christian writers.',
              indexable: true,
            }),
            HydrateFallback: Loading,
            lazy: () => import('./routes/home'),
          },
          {
            path: paths.auth,
            handle: page({
              title: 'Subscriber Access',
              description: 'Sign in or create an account to download your Yes, You Can! subscriber resources.',
            }),
            HydrateFallback: Loading,
            lazy: () => import('./routes/auth'),
          },
          {
            path: paths.setPassword,
            handle: page({ title: 'Set Your Password' }),
            HydrateFallback: routeFallback('Checking your link...'),
            lazy: linkPages,
          },
          { path: paths.confirm, handle: page({ title: 'Confirm' }), HydrateFallback: Loading, lazy: linkPages },
          {
            path: paths.resources,
            handle: page({ title: 'Subscriber Resources' }),
            HydrateFallback: routeFallback('Loading your resources...'),
            lazy: () => import('./routes/resources'),
          },
          {
            path: paths.bundles,
            handle: page({
              title: 'Compare Our Bundles',
              description:
                'Compare the Foundation Builder, Accelerated Success and Complete Transformation bundles: worksheets, coaching and community to help you finish your book.',
              indexable: true,
            }),
            HydrateFallback: Loading,
            lazy: () => import('./routes/bundles'),
          },
          {
            path: paths.upgrade,
            handle: page({
              title: 'Congratulations on Your Purchase!',
              description:
                'Thank you for buying Yes, You Can! Go further with a bundle: worksheets, scripture for every writing day, personal coaching and a community.',
              indexable: true,
            }),
            HydrateFallback: Loading,
            lazy: () => import('./routes/upgrade'),
          },
          {
            path: paths.privacy,
            handle: page({ title: privacy.title, description: privacy.description, indexable: true }),
            HydrateFallback: Loading,
            lazy: () => import('./routes/privacy'),
          },
          {
            path: paths.adminUpload,
            handle: page({ title: 'Upload Resources' }),
            HydrateFallback: routeFallback('Checking access...'),
            lazy: () => import('./routes/admin-upload'),
          },
          {
            path: paths.staff,
            handle: page({ title: 'Dashboard' }),
            HydrateFallback: routeFallback('Checking access...'),
            lazy: () => import('./routes/staff').then((m) => m.staffDashboard),
          },
          {
            path: paths.staffCatalog,
            handle: page({ title: 'Catalog' }),
            HydrateFallback: routeFallback('Checking access...'),
            lazy: () => import('./routes/staff').then((m) => m.staffCatalog),
          },
          {
            path: paths.staffMembers,
            handle: page({ title: 'Members' }),
            HydrateFallback: routeFallback('Checking access...'),
            lazy: () => import('./routes/staff').then((m) => m.staffMembers),
          },
          {
            path: paths.staffSessions,
            handle: page({ title: 'Sessions' }),
            HydrateFallback: routeFallback('Checking access...'),
            lazy: () => import('./routes/staff').then((m) => m.staffSessions),
          },
          {
            path: '*',
            handle: page({ title: 'Page not found' }),
            HydrateFallback: Loading,
            lazy: () => import('./routes/not-found'),
          },
        ],
      },
    ],
  },
];

/**
 * The page's name (browser tab, navigation announcement), description and whether search
 * engines may index it: its head tags (see `head.ts`, `PageTitle`).
 */
function page(handle: RouteHandle): RouteHandle {
  return handle;
}
