// The build's prerender entry (scripts/build/vite-prerender.mjs): renders a public page to HTML
// with the app's own routes and components, as a first-time visitor sees it.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { ComponentType } from 'react';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router-dom';
import { headTags, prerenderedPages, renderHeadTags, siteOrigin } from './head';
import { documentPages } from '@/config/paths';
import { pageShells } from './page-shells';
import { routes } from './router';

/**
 * The page's markup (for #root), its head tags, whether it belongs in the sitemap, whether it
 * is a member page's shell (not a public page), and whether it is a document (a public page
 * that ships without React, `documentPages`) rather than a page the app takes over.
 */
export type RenderedPage = { html: string; head: string; indexable: boolean; shell: boolean; document: boolean };

export function origin(): string {
  return siteOrigin(import.meta.env.VITE_SITE_URL);
}

/** `routes` with `Fallback` as the HydrateFallback of the route at `pathname` (a copy). */
function withHydrateFallback(tree: RouteObject[], pathname: string, Fallback: ComponentType): RouteObject[] {
  return tree.map((route) => {
    if (route.path === pathname) return { ...route, HydrateFallback: Fallback };
    return route.children ? { ...route, children: withHydrateFallback(route.children, pathname, Fallback) } : route;
  });
}

/**
 * Renders a public page, or a member page's shell (`pageShells`): for a shell, no loader
 * runs and its route stays unloaded, so the router renders the route's HydrateFallback, as
 * the browser's router does while that loader runs.
 */
export async function render(pathname: string): Promise<RenderedPage> {
  const shell = pageShells[pathname];
  const { query, dataRoutes } = createStaticHandler(
    shell ? withHydrateFallback(routes, pathname, await shell()) : routes,
  );
  const context = await query(
    new Request(new URL(pathname, origin())),
    shell ? { filterMatchesToLoad: () => false } : undefined,
  );
  if (context instanceof Response) throw new Error(`${pathname} answered ${context.status}, not a page`);
  if (context.statusCode !== 200) throw new Error(`${pathname} rendered with status ${context.statusCode}`);

  const router = createStaticRouter(dataRoutes, context);
  // hydrate={false}: no inline hydration script (the Content-Security-Policy forbids inline
  // scripts); public pages have no loader data to hand over, and app/start.tsx resolves their
  // lazy route before hydrating.
  const html = renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  const tags = headTags(
    context.matches.map((match) => match.route.handle),
    pathname,
    origin(),
  );
  const indexable = !tags.some((tag) => tag.tag === 'meta' && tag.key === 'robots' && tag.content.includes('noindex'));
  return {
    html,
    head: renderHeadTags(tags),
    indexable,
    shell: Boolean(shell),
    document: documentPages.includes(pathname),
  };
}

export { pageFile, privatePaths } from './head';

/** Every page the build writes: the public ones, then the member pages' shells. */
export const builtPages: readonly string[] = [...prerenderedPages, ...Object.keys(pageShells)];
