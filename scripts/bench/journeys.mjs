// @ts-check
/* global document, location, requestAnimationFrame, addEventListener -- the watcher runs in the page */
// `npm run perf`'s second steps, on the same emulated phone as the first-tap table
// (first-tap.mjs): a tap on a public page's link, made 2 seconds after the page's first
// contentful paint (the page is opened without waiting for its load event, as a visitor
// reads what is on screen), until the next page's heading is painted; and Enter on the
// sign-in form, until the first download link of /resources is painted, for a member whose
// tier opens files. Each ends just after the first frame that shows the answer, across the
// navigation: a watcher in every document of the tab keeps the moments in sessionStorage, on
// the clock all the tab's documents share (timeOrigin). A link's tap is timed from the moment
// the driver dispatches the touch (the machine's clock, which the page's shares), the sign-in
// from the Enter key's event timeStamp; each link's run also reports the event's own clock,
// to compare (docs/decisions/098-public-pages-are-documents.md).
import { openAtCommit, phonePage } from './first-tap.mjs';

/** A tap on an internal link shows the next page within this long. */
export const NEXT_PAGE_BUDGET_MS = 300;
/** Enter on the sign-in form shows the first download link within this long. */
export const SIGN_IN_TO_FILES_BUDGET_MS = 1000;
/** How long the page has been on screen when the visitor taps. */
export const READ_MS = 2000;

/**
 * Every internal link of the public pages, by the page it goes to: each page's links to
 * another page of the site (the footer's /privacy, the Sign In corner's /auth, …). A link
 * with a query (/upgrade's `/auth?next=/resources`) leads to a page listed already.
 * e2e/budgets.spec.ts holds this list to the links the built pages have.
 */
export const LINKS = [
  { from: '/', to: '/auth' },
  { from: '/', to: '/bundles' },
  { from: '/', to: '/privacy' },
  { from: '/', to: '/resources' },
  { from: '/bundles', to: '/' },
  { from: '/bundles', to: '/auth' },
  { from: '/upgrade', to: '/bundles' },
  { from: '/upgrade', to: '/auth' },
  { from: '/upgrade', to: '/resources' },
  { from: '/privacy', to: '/' },
  { from: '/privacy', to: '/auth' },
];

/** A seeded member whose tier opens files (supabase/seed.sql). */
export const FOUNDATION_MEMBER = { email: 'foundation@example.com', password: 'password123' };

const START = '__journeyStart';
const SHOWN = '__journeyShown';

/**
 * Runs in every document of the tab: notes the first `eventType` (with `key`, if given) as
 * the start, then watches each frame, in this document and in the next one, until
 * `arrived` holds; notes the moment just after that frame was painted.
 * @param {string} eventType
 * @param {string | null} key
 * @param {() => boolean} arrived
 * @param {string} startKey where the start is kept
 * @param {string} shownKey where the end is kept
 */
function watchJourney(eventType, key, arrived, startKey, shownKey) {
  const watch = () => {
    if (sessionStorage.getItem(shownKey)) return;
    if (arrived())
      setTimeout(() => sessionStorage.setItem(shownKey, String(performance.timeOrigin + performance.now())));
    else requestAnimationFrame(watch);
  };
  addEventListener(
    eventType,
    (event) => {
      if (sessionStorage.getItem(startKey) || (key && /** @type {KeyboardEvent} */ (event).key !== key)) return;
      sessionStorage.setItem(startKey, String(performance.timeOrigin + event.timeStamp));
      requestAnimationFrame(watch);
    },
    { capture: true },
  );
  if (sessionStorage.getItem(startKey)) requestAnimationFrame(watch);
}

/** The watcher's source for `evaluateOnNewDocument` (a string: the page's CSP allows no eval). */
function watcherSource(
  /** @type {string} */ eventType,
  /** @type {string | null} */ key,
  /** @type {() => boolean} */ arrived,
) {
  const args = [
    JSON.stringify(eventType),
    JSON.stringify(key),
    arrived.toString(),
    JSON.stringify(START),
    JSON.stringify(SHOWN),
  ];
  return `(${watchJourney.toString()})(${args.join(', ')})`;
}

/** The journey's start (the event's time) and end, once the watcher has noted both (ms since the epoch). */
async function journeyMoments(/** @type {import('puppeteer-core').Page} */ page) {
  const shown = `sessionStorage.getItem(${JSON.stringify(SHOWN)})`;
  await page.waitForFunction(shown, { polling: 50, timeout: 60_000 });
  return /** @type {Promise<{ start: number, end: number }>} */ (
    page.evaluate(
      `({ start: Number(sessionStorage.getItem(${JSON.stringify(START)})), end: Number(sessionStorage.getItem(${JSON.stringify(SHOWN)})) })`,
    )
  );
}

/** The milliseconds between the journey's start and its end, once the watcher has noted both. */
async function journeyTime(/** @type {import('puppeteer-core').Page} */ page) {
  const { start, end } = await journeyMoments(page);
  return end - start;
}

/**
 * Tracks the page's own requests from now on; the function returned resolves once none has
 * been in flight for `idleMs`. Speculative loads (`Sec-Purpose: prefetch`, the next pages
 * the speculation rules fetch or prerender, and a prerendered page's own requests) are not
 * the page's: Chrome may drop them unfinished, and nobody waits for them.
 * @param {import('puppeteer-core').Page} page
 */
function ownNetworkIdle(page) {
  const inFlight = new Set();
  let last = Date.now();
  page.on('request', (request) => {
    if ((request.headers()['sec-purpose'] ?? '').startsWith('prefetch')) return;
    inFlight.add(request);
  });
  const done = (/** @type {import('puppeteer-core').HTTPRequest} */ request) => {
    if (inFlight.delete(request)) last = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async (/** @type {number} */ idleMs) => {
    const deadline = Date.now() + 60_000;
    while (inFlight.size > 0 || Date.now() - last < idleMs) {
      if (Date.now() > deadline) throw new Error(`the page's requests never settled: ${inFlight.size} in flight`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}

/** Waits for the page's first contentful paint; returns its time on the page's clock. */
async function firstPaint(/** @type {import('puppeteer-core').Page} */ page) {
  const paint = await page.waitForFunction(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? false,
    { polling: 'raf' },
  );
  return /** @type {number} */ (await paint.jsonValue());
}

/**
 * Opens `link.from` on the phone without waiting for its load event, scrolls the link into
 * view if it is below the fold (as a reader gets to it), taps it READ_MS after the page's
 * first contentful paint, and returns the milliseconds until the next page's heading is
 * painted: `ms` from the moment the driver dispatched the touch, `eventMs` from the touch
 * event's own timeStamp (which Chrome stamps when the input arrives in the page).
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} site
 * @param {{ from: string, to: string }} link
 * @param {number} cpuSlowdown
 * @returns {Promise<{ ms: number, eventMs: number }>}
 */
export async function measureLinkTap(browser, site, link, cpuSlowdown) {
  const page = await phonePage(browser, cpuSlowdown);
  const arrived = new Function(
    `return location.pathname === ${JSON.stringify(link.to)} && [...document.querySelectorAll('h1:not([data-journey-from])')].some((h) => h.checkVisibility());`,
  );
  await page.evaluateOnNewDocument(watcherSource('pointerdown', null, /** @type {() => boolean} */ (arrived)));
  await openAtCommit(page, `${site}${link.from}`);
  const painted = await firstPaint(page);
  const target = await visibleLink(page, link);
  if (!(await target.isIntersectingViewport())) await target.evaluate((a) => a.scrollIntoView({ block: 'center' }));
  const box = await target.boundingBox();
  if (!box) throw new Error(`${link.from}: the link to ${link.to} has no box on screen`);
  // What the page shows now: the next page's heading is a new one. Marked here, before the
  // tap, so that no work of the bench's own falls between the touch and the next page.
  await page.evaluate(() => {
    for (const heading of document.querySelectorAll('h1')) heading.setAttribute('data-journey-from', '');
  });
  await page.waitForFunction(`performance.now() >= ${painted + READ_MS}`, { polling: 16 });
  // The touch, at the link's centre, as the phone's screen sends it: nothing asked of the
  // page first (an element's own tap() scrolls it and measures it in the page, round trips
  // that a busy phone answers late and that would count as the visitor's wait).
  const tapped = Date.now();
  // A prerendered page can take over the tab before the tap's last touch event is answered.
  // Its session closes with the page: the tap was made, and what the tab shows is timed below.
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2).catch((/** @type {unknown} */ error) => {
    if (!(error instanceof Error && error.name === 'TargetCloseError')) throw error;
  });
  const { start, end } = await linkJourneyMoments(browser, page, link.to);
  await page.close();
  return { ms: end - tapped, eventMs: end - start };
}

/** The first visible link on the page to `link.to` (the page's first screen may hide some). */
async function visibleLink(
  /** @type {import('puppeteer-core').Page} */ page,
  /** @type {{ from: string, to: string }} */ link,
) {
  const handles = await page.$$(`a[href="${link.to}"]`);
  const visible = await Promise.all(handles.map((handle) => handle.evaluate((a) => a.checkVisibility())));
  const target = handles.find((_, i) => visible[i]);
  if (!target) throw new Error(`${link.from} has no visible link to ${link.to}`);
  return target;
}

/**
 * The tap's start and the next page on screen. A page loaded by the tap (from the
 * prefetch, or the host) runs the watcher, which notes the frame that shows its
 * heading. A prerendered page was loaded before the tap, in a document of its own that the
 * watcher does not reach (Chrome gives the page's DevTools scripts to the documents it
 * loads, not to prerendered ones), and it is painted only once shown: there the end is the
 * first contentful paint its document reports (never before its activation), the frame that
 * shows the whole prerendered page, heading included.
 * @param {import('puppeteer-core').Browser} browser
 * @param {import('puppeteer-core').Page} page the tab the link was tapped in
 * @param {string} to the next page's path
 */
async function linkJourneyMoments(browser, page, to) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const shown = await page.evaluate(`sessionStorage.getItem(${JSON.stringify(SHOWN)})`).catch(() => undefined); // between two documents, or the tab's page was replaced
    if (shown) return journeyMoments(page);
    // A prerendered page takes the tab over: the page the tap was made in is gone, or (as
    // Puppeteer sometimes follows the tab) the page now is the prerendered one, which the
    // watcher never reached. Either way that document says when it was shown.
    const prerendered = await prerenderedJourneyMoments(browser, to).catch(() => null);
    if (prerendered !== null) return prerendered;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seen = browser.targets().map((target) => `${target.type()} ${target.url()}`);
  throw new Error(`the tap on the link to ${to} showed no page; the browser has: ${seen.join(', ')}`);
}

/**
 * In the prerendered page the tab now shows: the tap's time, which the watcher kept in
 * sessionStorage before the page was shown (a prerendered page's sessionStorage is the tab's
 * from its activation on), and its first contentful paint (or its activation, if later).
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} to
 * @returns {Promise<{ start: number, end: number }>}
 */
async function prerenderedJourneyMoments(browser, to) {
  const measure = `new Promise((resolve) => {
    new PerformanceObserver((list, observer) => {
      const paint = list.getEntriesByName('first-contentful-paint')[0];
      if (!paint) return;
      observer.disconnect();
      const activation = performance.getEntriesByType('navigation')[0].activationStart;
      const end = performance.timeOrigin + Math.max(paint.startTime, activation);
      resolve({ start: Number(sessionStorage.getItem(${JSON.stringify(START)})), end });
    }).observe({ type: 'paint', buffered: true });
  })`;
  const shown = `!document.prerendering && performance.getEntriesByType('navigation')[0].activationStart > 0`;
  for (const target of browser.targets()) {
    if (target.type() !== 'page' || new URL(target.url()).pathname !== to) continue;
    const session = await target.createCDPSession();
    try {
      const active = await session.send('Runtime.evaluate', { expression: shown, returnByValue: true });
      if (active.result.value !== true) continue;
      const result = await session.send('Runtime.evaluate', {
        expression: measure,
        awaitPromise: true,
        returnByValue: true,
      });
      return result.result.value;
    } finally {
      await session.detach();
    }
  }
  throw new Error(`no prerendered ${to} was shown`);
}

/**
 * Opens /auth on the phone, types the member's address and password as a person does (the
 * app starts on the first tap; by the time a person has typed both, what the page fetches
 * meanwhile has arrived: the wait for the network to settle stands for that), presses Enter
 * and returns the milliseconds until the first download link of /resources is painted.
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} site
 * @param {{ email: string, password: string }} member
 * @param {number} cpuSlowdown
 */
export async function measureSignInToFiles(browser, site, member, cpuSlowdown) {
  const page = await phonePage(browser, cpuSlowdown);
  const arrived = () =>
    location.pathname === '/resources' &&
    [...document.querySelectorAll('a[aria-label^="Download "]')].some((link) => link.checkVisibility());
  await page.evaluateOnNewDocument(watcherSource('keydown', 'Enter', arrived));
  const networkIdle = ownNetworkIdle(page);
  await openAtCommit(page, `${site}/auth`);
  await firstPaint(page);
  await page.tap('input[type="email"]');
  await page.keyboard.type(member.email);
  await page.tap('input[type="password"]');
  await page.keyboard.type(member.password);
  // The app has taken over the page (its head tags follow the inlined stylesheet), and what
  // it fetched meanwhile has come.
  await page.waitForSelector('head > style ~ [data-page-head]', { timeout: 60_000 });
  await networkIdle(500);
  await page.keyboard.press('Enter');
  const ms = await journeyTime(page);
  await page.close();
  return ms;
}
