// The build's prerender entry (scripts/vite-prerender.mjs): renders a public page to HTML
// with the app's own routes and components, as a first-time visitor sees it.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { headTags, renderHeadTags, siteOrigin } from '@/app/head';
import { routes } from '@/app/router';

/** The page's markup (for #root), its head tags, and whether it belongs in the sitemap. */
export type RenderedPage = { html: string; head: string; indexable: boolean };

export function origin(): string {
  return siteOrigin(import.meta.env.VITE_SITE_URL);
}

export async function render(pathname: string): Promise<RenderedPage> {
  const { query, dataRoutes } = createStaticHandler(routes);
  const context = await query(new Request(new URL(pathname, origin())));
  if (context instanceof Response) throw new Error(`${pathname} answered ${context.status}, not a page`);
  if (context.statusCode !== 200) throw new Error(`${pathname} rendered with status ${context.statusCode}`);

  const router = createStaticRouter(dataRoutes, context);
  // hydrate={false}: no inline hydration script (the Content-Security-Policy forbids inline
  // scripts); public pages have no loader data to hand over, and main.tsx resolves their
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
  return { html, head: renderHeadTags(tags), indexable };
}

export { pageFile, prerenderedPages, privatePaths } from '@/app/head';
