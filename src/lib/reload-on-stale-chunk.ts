/** The address this tab last reloaded for because a chunk would not load. */
const RELOADED_FOR_KEY = 'yes-you-can-chunk-reload';

/**
 * What the browsers say when a dynamic import's file cannot be fetched (Chromium, Firefox,
 * Safari) or Vite cannot preload a chunk's CSS. An error thrown while a module *runs* (say
 * the missing-config error) is no stale chunk: reloading would not help.
 */
const FETCH_FAILURE = /dynamically imported module|Importing a module script failed|Unable to preload/i;

type Navigation = {
  /** Where the router is going (a same-site href), or null when it is not navigating. */
  pendingHref: () => string | null;
  /** Calls back whenever the router has settled on a page without an error. */
  onSettled: (callback: () => void) => void;
};

/**
 * A tab opened before a deploy still asks for the old build's chunk names, which the host
 * no longer serves: the next lazy route (or the account menu) would fail to load and the
 * visitor would see the error screen. Vite reports such a failure as `vite:preloadError`;
 * loading the page again fetches the new build. A data router moves the address bar only
 * after a route's chunk has loaded, so the page is loaded at the route the visitor was
 * going to, not reloaded where they stood (after Back/Forward the bar has moved already,
 * and it is a plain reload). Once per address: if it fails again before any page has
 * loaded cleanly, the error screen shows instead of a reload loop, however slowly it fails.
 */
export function reloadOnStaleChunk(navigation: Navigation, target: Window = window) {
  // Set once this page is being replaced: the failed import then resolves empty and the
  // router settles on a blank page, which must not count as a clean load.
  let leaving = false;
  navigation.onSettled(() => {
    if (leaving) return;
    try {
      target.sessionStorage.removeItem(RELOADED_FOR_KEY);
    } catch {
      // no session storage: nothing was stored either
    }
  });

  target.addEventListener('vite:preloadError', (event) => {
    const { payload } = event as Event & { payload?: unknown };
    if (!reloadOnceFor(payload, navigation.pendingHref() ?? currentHref(target), target)) return;
    event.preventDefault();
    leaving = true;
  });
}

/**
 * Loads `href` again (a fresh page gets the new build's chunk names) when `error` is a chunk
 * that could not be fetched, once per address: true when it does. Also used before the app
 * starts, when a prerendered page's route chunk fails before the listener above exists.
 */
export function reloadOnceFor(error: unknown, href: string, target: Window = window): boolean {
  if (!(error instanceof Error) || !FETCH_FAILURE.test(error.message)) return false;
  // Same-site only, whatever the router was asked to do.
  if (new URL(href, target.location.origin).origin !== target.location.origin) return false;
  try {
    if (target.sessionStorage.getItem(RELOADED_FOR_KEY) === href) return false;
    target.sessionStorage.setItem(RELOADED_FOR_KEY, href);
  } catch {
    return false; // no session storage: a reload could loop, so let the error show
  }
  if (href === currentHref(target)) target.location.reload();
  else target.location.assign(href);
  return true;
}

/**
 * Whether this page is the reload `reloadOnceFor` made: the app was running in this tab a
 * moment ago, so it starts again at once rather than waiting for the visitor to act.
 */
export function isChunkReload(target: Window = window): boolean {
  try {
    return target.sessionStorage.getItem(RELOADED_FOR_KEY) === currentHref(target);
  } catch {
    return false;
  }
}

/** The page's own address within the site: path, query and fragment (what a reload is keyed by). */
export function currentHref(target: Window = window): string {
  return target.location.pathname + target.location.search + target.location.hash;
}
