import { AUTH_STORAGE_KEY, hasAuthRedirectInUrl, hasCarriedToasts, hasStoredSession } from '@/config/auth-storage';
import { NEEDS_APP_IN_FRAME } from '@/config/needs-app';
import { afterLoad } from '@/lib/after-load';
import type { Counter } from '@/lib/count';
import { isSwap, swap } from '@/lib/swap';
import { takeEarlyInput } from '@/lib/take-early-input';
import { whenShown } from '@/lib/when-shown';
import { speculateFromFirstPaint } from './speculation';

// The public pages' script (/, /bundles, /upgrade, /privacy): they are documents, prerendered
// by the build from the app's components, and run no React. This is all a first-time visitor's
// page runs: the sales video's swap, the Speculation Rules from first paint, and what only some
// visitors need, loaded then: the purchase links' handling inside a marketplace's frame, and the
// member's island (their menu, their tier on /upgrade) when a session may be stored or the page
// before left toasts, and the visit's count once the page has loaded. It is an async module: it
// runs as it arrives, before the whole page is parsed. The page's stylesheet is inlined by the
// build; this imports none.
// See docs/decisions/098-public-pages-are-documents.md.

/** Whether the page is inside a frame (a frame of another origin may not be read: it is). */
function framed(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

// What the page's inline head script held between first paint and now: a Play tapped at
// once, and, inside a frame, a purchase link.
const held = takeEarlyInput()
  .filter((input) => input.type === 'click')
  .map((input) => input.target);

document.addEventListener('click', (event) => {
  const control = event.target instanceof Element ? event.target.closest('[data-shows], [data-hides]') : null;
  if (control) swap(control);
});
for (const control of held) if (isSwap(control)) swap(control);

// Counting (src/lib/count.ts): its code comes once the page has loaded, never in the first load.
// Until then the clicks it counts wait here, a Play held by the head script among them, and are
// counted when it comes; a checkout link followed before then goes without the campaign on its
// address. The listener captures, so a link has its campaign before the browser follows it.
// What it counts a click on: the checkout links (src/lib/count.ts CHECKOUT_LINKS, written out
// here so that module stays out of the first load) and the swaps, of which the video's Play.
const COUNTED = `a[data-checkout], ${NEEDS_APP_IN_FRAME}, [data-shows]`;
let counter: Counter | null = null;
const uncounted = held.filter((control) => control.closest(COUNTED));
document.addEventListener(
  'click',
  (event) => {
    const target = event.target instanceof Element ? event.target.closest(COUNTED) : null;
    if (target && counter) counter.click(target);
    else if (target) uncounted.push(target);
  },
  true,
);
function loadCounting() {
  void import('@/lib/count').then(({ startCounting, countEndpoint, countedPage }) => {
    const page = countedPage(location.pathname);
    const endpoint = countEndpoint(import.meta.env.VITE_SUPABASE_URL);
    if (!page || !endpoint) return;
    counter = startCounting(page, endpoint);
    for (const target of uncounted.splice(0)) counter.click(target);
  });
}

/**
 * Runs `callback` once the whole page is parsed: this script is async, and may run while the
 * rest of the page is still arriving (its account corner, its access box).
 */
function whenParsed(callback: () => void) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', callback, { once: true });
  else callback();
}

if (framed()) {
  // Until its code is here, a purchase link tapped in the frame waits, as the head script held it.
  const waiting = [...held];
  const hold = (event: MouseEvent) => {
    const link = event.target instanceof Element ? event.target.closest(NEEDS_APP_IN_FRAME) : null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    waiting.push(link);
  };
  document.addEventListener('click', hold, true);
  void import('./framed-purchase').then(({ takePurchaseLinks }) => {
    document.removeEventListener('click', hold, true);
    takePurchaseLinks(waiting);
  });
}

let island: Promise<unknown> | null = null;
/** The member's island, once. A failure to load leaves the page as a visitor's. */
function loadIsland() {
  island ??= new Promise<void>((parsed) => whenParsed(parsed))
    .then(() => import('./member-island'))
    .then(({ mountMemberIsland }) => mountMemberIsland())
    .catch((error: unknown) => console.error('Could not load the member menu', error));
}

// Nothing starts on a page Chrome prerenders until the visitor goes to it: no session is read
// and no request goes to Supabase for a page nobody may see.
whenShown(() => {
  speculateFromFirstPaint();
  afterLoad(loadCounting);
  if (hasStoredSession() || hasAuthRedirectInUrl() || hasCarriedToasts()) loadIsland();
  // Signed in in another tab meanwhile: this page shows the menu too.
  window.addEventListener('storage', (event) => {
    if (event.key === AUTH_STORAGE_KEY && event.newValue !== null) loadIsland();
  });
});
