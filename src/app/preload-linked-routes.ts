import { matchRoutes, type RouteObject } from 'react-router-dom';
import { loadAhead } from '@/boot/reload-on-stale-chunk';
import { paths } from '@/config/paths';

/**
 * The public pages a visitor goes to next from another public page: once the app starts, its
 * router shows them, and their code is worth having before the tap. The same pages the
 * speculation rules get ready before the app runs (scripts/build/speculation-rules.mjs).
 */
export const NEXT_PAGES: readonly string[] = [paths.home, paths.auth, paths.bundles];

/**
 * Loads the route modules of the next pages `root` links to, so a tap on such a link renders
 * at once instead of first fetching the page's code over a slow network. Only modules: no
 * loader runs and nothing is asked of Supabase. A module that will not load is left to the
 * router, which asks again on the tap (`loadAhead`): it neither reloads the page nor shows an
 * error before the visitor goes there.
 * See docs/decisions/085-prerender-the-next-page-and-measure-it.md.
 */
export async function preloadLinkedRoutes(routes: RouteObject[], root: ParentNode, origin: string) {
  const wanted = new Set<string>();
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    const url = new URL(link.getAttribute('href') ?? '', origin);
    if (url.origin === origin && NEXT_PAGES.includes(url.pathname)) wanted.add(url.pathname);
  }
  const loads = [...wanted].flatMap((pathname) =>
    (matchRoutes(routes, { pathname }) ?? []).map(({ route }) => route.lazy),
  );
  await Promise.all(loads.map((lazy) => (typeof lazy === 'function' ? loadAhead(lazy) : null)));
}
