import { matchRoutes, type RouteObject } from 'react-router-dom';

/** What a route module may export that the router reads (see the `lazy` modules in router.tsx). */
const routeKeys = ['Component', 'ErrorBoundary', 'HydrateFallback', 'loader', 'action', 'handle'] as const;

/**
 * Loads the lazy route modules `location` matches and puts their exports on the route
 * objects, as React Router's guide on hydrating lazy routes does: the router then starts
 * initialised on a prerendered page (no loader to run) and hydrates the page itself.
 * Rejects when a module will not load, leaving that route to fail the same way in the router.
 */
export async function resolveLazyRoutes(routes: RouteObject[], location: Pick<Location, 'pathname'>) {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      const { lazy } = route;
      if (typeof lazy !== 'function') return;
      let module: Partial<Record<(typeof routeKeys)[number], unknown>>;
      try {
        module = (await lazy()) as typeof module;
      } catch (error) {
        // The router, asking again, gets the same answer rather than a second request.
        route.lazy = () => Promise.reject(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
      const resolved: Record<string, unknown> = { lazy: undefined };
      for (const key of routeKeys) if (module[key] !== undefined) resolved[key] = module[key];
      Object.assign(route, resolved);
    }),
  );
}
