import { hasAuthRedirectInUrl, hasStoredSession } from '@/config/auth-storage';
import { afterFirstPaint } from './after-load';
import { afterPress, holdInteractions, isFramed, isReading, onFirstIntent, takeEarlyInput } from './hydrate-on-intent';
import { currentHref, isChunkReload, reloadOnceFor } from './reload-on-stale-chunk';
import { speculateAfterLoad } from './speculation';
import { whenShown } from './when-shown';
import '@/index.css';

// The boot script: the first module of every page, and a small one (README.md here states
// the whole contract). A prerendered public page is complete without the app: text, images
// and links all work. So a first-time visitor's page loads the app (React, the router, the
// page's components) only when they first act on it: first paint and the page's load are
// the HTML and its inlined CSS alone. These start it at once (a prerendered page once it
// has painted): a returning member (a stored session), a page opened from an auth e-mail,
// the reload after a stale chunk, a page inside the marketplace admin's frame (its purchase
// links need the app to open the storefront in the top window), a page that says it is
// waiting for the app (a member page's prerendered shell: its main is aria-busy), a page the
// visitor already acted on before this script ran (the inline early-input script held it) and
// every page that is not prerendered.

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = container;

const prerendered = root.hasChildNodes();
// Whatever the page's inline head script (early-input.mjs) held between first paint and now.
const early = takeEarlyInput();
const held = prerendered ? holdInteractions(root, { early }) : null;
const speculation = speculateAfterLoad();

/**
 * Loads and starts the app. `reading`: it starts for a visitor who is reading (a scroll, a
 * touch that is not on a control), who may well tap a link to the next page next: the page's
 * rules still come in force once it has loaded and is idle, and stay, so such a tap goes to
 * the page Chrome got ready, the app running or not, until the app's router has shown
 * another page. Otherwise the visitor is using this page (a field, a control, the keyboard)
 * and its app comes first: no rules come that are not in force already, and those go once
 * the app runs (its router takes link taps).
 */
function boot({ reading = false } = {}) {
  if (!reading) speculation.hold();
  import('@/app/start')
    .then(({ start }) =>
      start(root, {
        onReady: () => {
          if (!reading) speculation.stop();
          held?.release();
        },
        onLeave: () => speculation.stop(),
      }),
    )
    .catch((error: unknown) => {
      // The app's chunk would not load (a deploy replaced it, or the network failed): load
      // the page once more; failing that, the prerendered page stays as it is.
      if (!reloadOnceFor(error, currentHref())) {
        held?.abandon();
        throw error;
      }
    });
}

// Decided once the page is shown: a page the browser prerenders for a link the visitor may
// tap (Speculation Rules) starts nothing, the app and its session check included, until the
// visitor goes to it; then it starts as a page just loaded would.
whenShown(() => {
  const awaitsApp = root.querySelector('[aria-busy="true"]') !== null;
  const startNow =
    !prerendered ||
    awaitsApp ||
    early.length > 0 ||
    hasStoredSession() ||
    hasAuthRedirectInUrl() ||
    isChunkReload() ||
    isFramed(window);
  if (!prerendered) boot();
  else if (startNow) afterFirstPaint(boot);
  else onFirstIntent((event) => afterPress(event, () => boot({ reading: isReading(event) })));
});
