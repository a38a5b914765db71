import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { resolveLazyRoutes } from '@/app/resolve-lazy-routes';
import { routes } from '@/app/router';
import { currentHref, reloadOnceFor, reloadOnStaleChunk } from '@/lib/reload-on-stale-chunk';

/**
 * Whether to hydrate the page as the build rendered it. The public pages arrive prerendered;
 * every other path gets the empty shell. Hydration must render what the build rendered: the
 * page's own component, not the lazy route's fallback, so its chunk is put in place first.
 */
async function prepare(container: HTMLElement): Promise<boolean> {
  if (!container.hasChildNodes()) return false;
  try {
    await resolveLazyRoutes(routes, window.location);
    return true;
  } catch (error) {
    // The chunk would not load (a deploy removed it, or the network failed): load the page
    // once more; failing that, render afresh and the router shows its error screen.
    if (reloadOnceFor(error, currentHref())) await new Promise(() => {});
    return false;
  }
}

/** Calls `onReady` once the whole tree has committed (a parent's effects run after its children's). */
function Ready({ onReady, children }: { onReady: () => void; children: ReactNode }) {
  useEffect(() => {
    onReady();
  }, [onReady]);
  return children;
}

/**
 * Starts the app in `container`: hydrates the prerendered page, or renders into the empty
 * shell. `onReady` runs when the app handles the page (main.tsx then replays a held click).
 */
export async function start(container: HTMLElement, onReady: () => void = () => {}) {
  const hydrate = await prepare(container);
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
      <Ready onReady={onReady}>
        <RouterProvider router={router} />
      </Ready>
    </StrictMode>
  );
  // The prerendered page is already readable, so hydrating it is not urgent: as a transition,
  // React does it in slices that yield to the browser (and hydrates first whatever the visitor
  // touches) instead of one long task.
  if (hydrate) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}
