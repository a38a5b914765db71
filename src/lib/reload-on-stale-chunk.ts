/** When this tab last reloaded for a chunk that would not load (ms since the epoch). */
const RELOADED_AT_KEY = 'yes-you-can-chunk-reload';
/** A second failure this soon after a reload is a real outage, not a stale tab: show the error. */
const RETRY_WINDOW_MS = 10_000;

/**
 * A tab opened before a deploy still asks for the old build's chunk names, which the host
 * no longer serves: the next lazy route (or the account menu) would fail to load and the
 * visitor would see the error screen. Vite reports such a failure as `vite:preloadError`;
 * loading the page again fetches the new build. A data router has not moved the address
 * bar yet when a route's chunk fails, so the page is loaded at the route the visitor was
 * going to (`pendingHref`), not reloaded where they stood. Once only: if a chunk fails
 * again right away, the error screen shows instead of a reload loop.
 */
export function reloadOnStaleChunk(pendingHref: () => string | null, target: Window = window) {
  target.addEventListener('vite:preloadError', (event) => {
    try {
      const last = Number(target.sessionStorage.getItem(RELOADED_AT_KEY)) || 0;
      if (Date.now() - last < RETRY_WINDOW_MS) return;
      target.sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
    } catch {
      return; // no session storage: a reload could loop, so let the error show
    }
    event.preventDefault();
    const href = pendingHref();
    if (href) target.location.assign(href);
    else target.location.reload();
  });
}
