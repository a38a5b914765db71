import { afterFirstPaint } from '@/lib/after-load';
import { takeEarlyInput } from '@/lib/take-early-input';
import { whenShown } from '@/lib/when-shown';
import { holdInteractions } from './hold-until-app';
import { currentHref, reloadOnceFor } from './reload-on-stale-chunk';
import '@/index.css';

// The app's boot script: the first module of /auth (and its sub-pages), the member pages and
// the staff pages, the pages that need React. The public pages are documents and never load
// it (src/document/main.ts). README.md here states the whole contract. A prerendered page
// (/auth, /resources' shell) is on screen before the app: the app starts once it has painted,
// and until it has taken over the page answers and holds what the visitor does
// (hold-until-app.ts). Every other page is the empty shell: the app starts at once.

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = container;

const prerendered = root.hasChildNodes();
// Whatever the page's inline head script (early-input.mjs) held between first paint and now.
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

// A page the browser prerenders for a link the visitor may tap (the public pages' Speculation
// Rules get /auth ready) starts nothing, the app and its session check included, until the
// visitor goes to it; then it starts as a page just loaded would.
whenShown(() => (prerendered ? afterFirstPaint(boot) : boot()));
