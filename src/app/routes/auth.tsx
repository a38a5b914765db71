import { useEffect } from 'react';
import { paths } from '@/config/paths';
import type { StartedSession } from '@/features/auth/api/sign-in';
import { AuthScreen } from '@/features/auth/components/auth-screen';
import { QueryProvider } from '@/lib/query-client';

/**
 * Fetches /resources' code (its route module and what it imports) once the visitor is at
 * the form: focus in it, or typing. A member who then signs in goes there with the code
 * already here, so only the reads are left to wait for. Not before: a visitor who only
 * looks at the page downloads nothing for it.
 * See docs/decisions/077-sign-in-to-files-in-one-round.md.
 */
function usePreloadWhereSignInLeads() {
  useEffect(() => {
    const preload = () => {
      stop();
      // The router loads it again on the way there, from the cache; a failure shows there.
      loadResourcesRoute().catch(() => {});
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
