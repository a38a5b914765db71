import { matchRoutes, type RouteObject } from 'react-router-dom';

/** What a route module may export that the router reads (see the `lazy` modules in router.tsx). */
const routeKeys = ['Component', 'ErrorBoundary', 'HydrateFallback', 'loader', 'action', 'handle'] as const;

/**
 * Loads the lazy route modules `location` matches and puts their exports on the route
 * objects, as React Router's guide on hydrating lazy routes does: the router then starts
 * initialised on a prerendered page (no loader to run) and hydrates the page itself.
 */
export async function resolveLazyRoutes(routes: RouteObject[], location: Pick<Location, 'pathname'>) {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const module = (await route.lazy()) as Partial<Record<(typeof routeKeys)[number], unknown>>;
      const resolved: Record<string, unknown> = { lazy: undefined };
      for (const key of routeKeys) if (module[key] !== undefined) resolved[key] = module[key];
      Object.assign(route, resolved);
    }),
  );
}
