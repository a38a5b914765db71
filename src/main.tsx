import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { resolveLazyRoutes } from '@/app/resolve-lazy-routes';
import { routes } from '@/app/router';
import { reloadOnceFor, reloadOnStaleChunk } from '@/lib/reload-on-stale-chunk';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// The public pages arrive prerendered (the build's HTML); every other path gets the empty shell.
let hydrate = container.hasChildNodes();

// Hydration must render what the build rendered: the page's own component, not the lazy
// route's fallback. So its chunk (already preloaded by the page) is in place first.
if (hydrate) {
  try {
    await resolveLazyRoutes(routes, window.location);
  } catch (error) {
    // The chunk would not load (a deploy removed it, or the network failed): load the page
    // once more; failing that, render afresh and the router shows its error screen.
    const here = window.location.pathname + window.location.search + window.location.hash;
    if (reloadOnceFor(error, here)) await new Promise(() => {});
    hydrate = false;
  }
}

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
