import { NEEDS_APP_IN_FRAME } from '@/config/needs-app';
import { countedPages } from '@/config/paths';
import { afterLoad } from './after-load';
import { campaignFromSearch, checkoutHref, type Campaign } from './campaign';

// Counting visits with nothing kept in the browser: no cookie, no storage key, no identifier.
// Each count is one request to the count function (supabase/functions/count), which makes the
// day's visitor hash on the server; it answers at once and writes the counts in batches. The
// page's own campaign (its utm codes, else those of the page of this site it came from) goes
// with every count, and a checkout link gets it on its address when clicked, so the sale that
// follows can be tied to it. See docs/decisions/099-counting-visits-without-cookies.md.

/** What a count says happened: a page shown, a checkout link clicked, the video's Play, a return from the checkout. */
export type CountKind = 'view' | 'checkout' | 'play' | 'return';

export type Counter = {
  /** Counts a click on a checkout link (first giving it the campaign) or on the sales video's Play. */
  click(target: Element): void;
};

/**
 * Checkout links: a bundle's, marked with the tier it sells (`data-checkout`), and the purchase
 * links (src/features/purchase), which sell the ebook. The pages' script passes clicks on these,
 * and on swap buttons, to the counter.
 */
export const CHECKOUT_LINKS = `a[data-checkout], ${NEEDS_APP_IN_FRAME}`;

/** Whether `control` is a swap that shows a frame: the sales video's Play (src/lib/swap.ts). */
function isPlay(control: Element | null): boolean {
  const id = control?.getAttribute('data-shows');
  const shown = id ? control?.ownerDocument.getElementById(id) : null;
  return !!shown && (shown.hasAttribute('data-frame-src') || shown.querySelector('[data-frame-src]') !== null);
}

/** The page as counted ("/bundles/" is "/bundles"), or null for a page not counted. */
export function countedPage(pathname: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return countedPages.includes(path) ? path : null;
}

/** A referrer of another site (its origin, as the browser sends it), else undefined. */
function outsideReferrer(referrer: string, origin: string): string | undefined {
  try {
    const from = new URL(referrer);
    return from.origin === origin ? undefined : from.origin;
  } catch {
    return undefined;
  }
}

/** The campaign of the address, else of the page of this site the visitor came from. */
function ownCampaign(location: Location, referrer: string): Campaign | null {
  const own = campaignFromSearch(location.search);
  if (own || !referrer || outsideReferrer(referrer, location.origin)) return own;
  try {
    return campaignFromSearch(new URL(referrer).search);
  } catch {
    return null;
  }
}

/**
 * Starts counting on `page`: its view once the page has loaded (and, on /upgrade reached from
 * outside the site, a return from the checkout), then each click the page passes to the
 * returned counter. `endpoint` is the count function's address.
 */
export function startCounting(page: string, endpoint: string, win: Window = window): Counter {
  const { location, document } = win;
  const campaign = ownCampaign(location, document.referrer);
  const referrer = outsideReferrer(document.referrer, location.origin);
  const shared = { p: page, ...(referrer && { r: referrer }), ...codes(campaign) };
  // Sent as text, so no preflight; kept alive, so a count made as the page is left still goes.
  // The answer is read to its end: a body left unread keeps its request open in Chrome (and
  // Playwright's `networkidle` with it). A count that fails is lost, and the page goes on.
  const send = (k: CountKind, extra?: Record<string, string>) => {
    const body = JSON.stringify({ k, ...shared, ...extra });
    win
      .fetch(endpoint, { method: 'POST', body, keepalive: true, credentials: 'omit' })
      .then((answer) => answer.text())
      .catch(() => undefined);
  };

  const originals = new WeakMap<HTMLAnchorElement, string>();
  const decorate = (link: HTMLAnchorElement) => {
    const original = originals.get(link) ?? link.href;
    originals.set(link, original);
    link.href = checkoutHref(original, campaign);
  };

  afterLoad(() => {
    send('view');
    if (page === '/upgrade' && (referrer || !document.referrer)) send('return');
  }, win);

  return {
    click(target) {
      const link = target.closest<HTMLAnchorElement>(CHECKOUT_LINKS);
      if (link) {
        decorate(link);
        send('checkout', { b: link.dataset.checkout ?? 'ebook' });
      } else if (isPlay(target.closest('[data-shows]'))) send('play');
    },
  };
}

/** The campaign's utm codes as a count carries them. */
function codes(campaign: Campaign | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (campaign?.source) out.s = campaign.source;
  if (campaign?.medium) out.m = campaign.medium;
  if (campaign?.campaign) out.c = campaign.campaign;
  return out;
}

/** The count function's address, from the build's Supabase URL; null when there is none. */
export function countEndpoint(supabaseUrl: string | undefined): string | null {
  if (!supabaseUrl || !/^https?:\/\//.test(supabaseUrl)) return null;
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/count`;
}
