import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { resolveLazyRoutes } from '@/app/resolve-lazy-routes';
import { routes } from '@/app/router';
import { reloadOnceFor, reloadOnStaleChunk } from '@/lib/reload-on-stale-chunk';
import './index.css';

/**
 * Whether to hydrate the page as the build rendered it. The public pages arrive prerendered;
 * every other path gets the empty shell. Hydration must render what the build rendered: the
 * page's own component, not the lazy route's fallback, so its chunk (already preloaded by
 * the page) is put in place first.
 */
async function prepare(container: HTMLElement): Promise<boolean> {
  if (!container.hasChildNodes()) return false;
  try {
    await resolveLazyRoutes(routes, window.location);
    return true;
  } catch (error) {
    // The chunk would not load (a deploy removed it, or the network failed): load the page
    // once more; failing that, render afresh and the router shows its error screen.
    const here = window.location.pathname + window.location.search + window.location.hash;
    if (reloadOnceFor(error, here)) await new Promise(() => {});
    return false;
  }
}

function start(container: HTMLElement, hydrate: boolean) {
  const router = createBrowserRouter(routes);
  reloadOnStaleChunk({
    pendingHref: () => {
      const pending = router.state.navigation.location;
      return pending ? router.createHref(pending) : null;
    },
    onSettled: (callback) => {
      const settled = (state: typeof router.state) =>
        state.initialized && state.navigation.state === 'idle' && !state.errors;
      if (settled(router.state)) callback();
      router.subscribe((state) => {
        if (settled(state)) callback();
      });
    },
  });

  const app = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );
  if (hydrate) hydrateRoot(container, app);
  else createRoot(container).render(app);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// Not a top-level await: route chunks import shared modules from the entry, and an entry
// that awaits at the top level makes the bundler split those out into extra first-load files.
void prepare(container).then((hydrate) => start(container, hydrate));
