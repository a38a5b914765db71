import { useEffect } from 'react';
import { paths } from '@/config/paths';
import type { StartedSession } from '@/features/auth/api/sign-in';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { QueryProvider } from '@/lib/query-client';

/**
 * Once the visitor is at the form (focus in it, or typing), gets ready what a sign-in then
 * waits for: /resources' code (its route module, what it imports and the account menu its
 * header shows), and the CORS preflights of the sign-in and of /resources' one read, asked
 * now so each call goes out without one. A member who then signs in waits for the two calls
 * and the page alone. Not before: a visitor who only looks at the page downloads nothing for
 * it and sends nothing to Supabase.
 * See docs/decisions/077-sign-in-to-files-in-one-round.md and
 * docs/decisions/091-preflights-asked-at-the-form.md.
 */
function usePreloadWhereSignInLeads() {
  useEffect(() => {
    const preload = () => {
      stop();
      import('@/features/auth/api/sign-in-preflight').then((module) => module.preflightSignIn()).catch(() => {});
      // The router loads it again on the way there, from the cache; a failure shows there.
      loadResourcesRoute()
        .then((route) => {
          route.preflightMemberResources();
          return route.loadAccountMenu();
        })
        .catch(() => {});
    };
    const stop = () => {
      document.removeEventListener('focusin', preload, true);
      document.removeEventListener('input', preload, true);
    };
    // Focus already in a field: the visitor's first tap into it is what started the app.
    if (document.activeElement?.closest('form')) return preload();
    document.addEventListener('focusin', preload, true);
    document.addEventListener('input', preload, true);
    return stop;
  }, []);
}

type ResourcesRoute = typeof import('./resources');
let resourcesRoute: ResourcesRoute | undefined;

/** /resources' route module; kept once here, so a sign-in reaches it without waiting a turn. */
async function loadResourcesRoute(): Promise<ResourcesRoute> {
  resourcesRoute ??= await import('./resources');
  return resourcesRoute;
}

/**
 * Starts /resources' one read as soon as the member is signed in, with their new token, in the
 * same turn as the sign-in's answer: before this page re-renders and the router sets off. The
 * navigation's loader joins the read already running.
 * See docs/decisions/086-resources-in-one-read.md.
 */
function startResourcesReads(next: string, { userId, accessToken }: StartedSession) {
  if (next !== paths.resources) return;
  // Errors are the page's to show: it reads what is missing itself.
  if (resourcesRoute) void resourcesRoute.startResourcesReads(userId, accessToken);
  else
    loadResourcesRoute()
      .then((route) => route.startResourcesReads(userId, accessToken))
      .catch(() => {});
}

export function Component() {
  usePreloadWhereSignInLeads();
  return (
    <QueryProvider>
      <AuthScreen onSessionStarted={startResourcesReads} />
    </QueryProvider>
  );
}
