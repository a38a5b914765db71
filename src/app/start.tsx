import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { resolveLazyRoutes } from '@/app/resolve-lazy-routes';
import { routes } from '@/app/router';
import { documentPages } from '@/config/paths';
import { carryToasts } from '@/lib/toast-handoff';
import { currentHref, reloadOnceFor, reloadOnStaleChunk } from '@/lib/reload-on-stale-chunk';

/**
 * Whether to hydrate the page as the build rendered it. /auth and /resources' shell arrive
 * prerendered; every other path the app runs on gets the empty shell. Hydration must render what the build rendered: the
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

/**
 * Resolves in a new task. The start's steps (the page's modules evaluated, the router made
 * and its loaders started, the page hydrated) each take the main thread for a while; as
 * separate tasks the browser can paint and answer input between them (Total Blocking Time).
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Makes every loader in `tree` settle only once `until` has: its work (the member's reads)
 * starts at once, its answer waits. The router must not finish the first navigation while
 * a hydration is under way: RouterProvider reads the router's state when it renders and
 * subscribes in a layout effect, and a hydration done as a transition leaves tasks between
 * the two, so a loader that settled in that gap (a read refused at once) was never shown:
 * the page stayed on its prerendered shell.
 */
function settleLoadersAfter(tree: RouteObject[], until: Promise<void>) {
  for (const route of tree) {
    const { loader } = route;
    if (typeof loader === 'function') {
      route.loader = (...args: Parameters<typeof loader>) => Promise.resolve(loader(...args)).finally(() => until);
    }
    if (route.children) settleLoadersAfter(route.children, until);
  }
}

/**
 * The public pages are documents (src/document/main.ts), never the router's to render: a
 * navigation to one (a link, a redirect, the sign-out's way home) loads it from the host,
 * prerendered, with its Speculation Rules and without React. The loader hands the address to
 * the browser and never settles; the page it was on stays until the document replaces it.
 */
function asDocuments(tree: RouteObject[]) {
  for (const route of tree) {
    if (route.path && documentPages.includes(route.path)) {
      route.loader = ({ request }) => {
        // The toasts on screen ("Signed out successfully") go with it (lib/toast-handoff.ts).
        void carryToasts().then(() => window.location.assign(request.url));
        return new Promise<never>(() => {});
      };
      delete route.lazy;
    }
    if (route.children) asDocuments(route.children);
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
 * shell. `onReady` runs when the app handles the page (boot/main.ts then replays a held click).
 */
export async function start(container: HTMLElement, { onReady = () => {} }: { onReady?: () => void } = {}) {
  asDocuments(routes);
  // This runs as the app's modules finish evaluating: a new task before the next step.
  await nextTask();
  const hydrate = await prepare(container);
  let hydrated = () => {};
  if (hydrate) settleLoadersAfter(routes, new Promise<void>((resolve) => (hydrated = resolve)));
  await nextTask();
  // hydrationData tells the router the page it starts on is already on screen, as a server
  // render would be: it leaves the scroll where the visitor has it. Without it, ScrollRestoration
  // scrolls to the top as the page hydrates, and a visitor who scrolled (their first action,
  // which starts the app) is thrown back up, their tap landing on whatever is there now.
  // Loaders still run: no loader data is given (a member page's shell waits for them).
  const router = createBrowserRouter(routes, hydrate ? { hydrationData: {} } : undefined);
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

  const ready = () => {
    hydrated();
    onReady();
  };
  // The router's updates are plain ones, not transitions: the next page renders in one task,
  // not in slices with the browser's frames between them (decision 094).
  const app = (
    <StrictMode>
      <Ready onReady={ready}>
        <RouterProvider router={router} useTransitions={false} />
      </Ready>
    </StrictMode>
  );
  await nextTask();
  // The prerendered page is already readable, so hydrating it is not urgent: as a transition,
  // React does it in slices that yield to the browser (and hydrates first whatever the visitor
  // touches) instead of one long task.
  if (hydrate) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}
