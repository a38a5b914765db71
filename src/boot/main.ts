import { hasAuthRedirectInUrl, hasStoredSession } from '@/config/auth-storage';
import { afterFirstPaint, afterLoad } from '@/lib/after-load';
import { takeEarlyInput } from '@/lib/take-early-input';
import { whenShown } from '@/lib/when-shown';
import { holdInteractions, isFramed } from './hold-until-app';
import { currentHref, isChunkReload, reloadOnceFor } from '@/lib/reload-on-stale-chunk';
import { afterPress, onFirstIntent } from './start-on-intent';
import '@/index.css';

// The app's boot script: the first module of /auth (and its sub-pages), the member pages and
// the staff pages, the pages that need React. The public pages are documents and never load
// it (src/document/main.ts). README.md here states the whole contract. A prerendered page
// (/auth, /resources' shell) is on screen before the app, and until the app has taken over it
// answers and holds what the visitor does (hold-until-app.ts). The app starts at once (a
// prerendered page once it has painted) for: a returning member (a stored session), a page
// opened from an auth e-mail, the reload after a stale chunk, a page inside a frame (its
// purchase links need the app), a page that says it is waiting for the app (a member page's
// shell: its main is aria-busy), a page the visitor acted on before this script ran (the
// inline head script held it), and every page that is not prerendered. A first-time visitor's
// /auth starts it on their first action (start-on-intent.ts).

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = container;

const prerendered = root.hasChildNodes();
// Whatever the page's inline head script (scripts/build/early-input.mjs) held between first paint and now.
const early = takeEarlyInput();
const held = prerendered ? holdInteractions(root, { early }) : null;

/** Loads and starts the app. */
function boot() {
  import('@/app/start')
    .then(({ start }) => start(root, { onReady: () => held?.release() }))
    .catch((error: unknown) => {
      // The app's chunk would not load (a deploy replaced it, or the network failed): load
      // the page once more; failing that, the prerendered page stays as it is.
      if (!reloadOnceFor(error, currentHref())) {
        held?.abandon();
        throw error;
      }
    });
}

/** Counts the view of /auth, with nothing kept in the browser. */
function countAuthView() {
  void import('@/lib/count').then(({ startCounting, countEndpoint }) => {
    const endpoint = countEndpoint(import.meta.env.VITE_SUPABASE_URL);
    if (endpoint) startCounting('/auth', endpoint);
  });
}

// A page the browser prerenders for a link the visitor may tap (the public pages' Speculation
// Rules get /auth ready) starts nothing, the app and its session check included, until the
// visitor goes to it; then it starts as a page just loaded would.
whenShown(() => {
  // /auth is counted as the public pages are (src/lib/count.ts), once it has loaded.
  if (location.pathname.replace(/\/+$/, '') === '/auth') afterLoad(countAuthView);
  const startNow =
    root.querySelector('[aria-busy="true"]') !== null ||
    early.length > 0 ||
    hasStoredSession() ||
    hasAuthRedirectInUrl() ||
    isChunkReload() ||
    isFramed(window);
  if (!prerendered) boot();
  else if (startNow) afterFirstPaint(boot);
  else onFirstIntent((event) => afterPress(event, boot));
});
