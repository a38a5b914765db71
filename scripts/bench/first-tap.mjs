// @ts-check
/* global document, window, requestAnimationFrame, addEventListener -- the scenarios' checks and watchForAnswer run in the page */
// `npm run perf`'s first-tap table: how soon the page answers a visitor who acts
// as soon as it shows, on a mid-range phone: 4x CPU slowdown, 150 ms round trips, 1.6 Mbps
// down, 412 px wide, touch. Lighthouse never taps, so this does: for each scenario a fresh
// browser opens the page, waits for its first contentful paint, acts, and times from the
// action's event (its timeStamp, where INP starts counting) to just after the first frame
// that shows the answer has been painted (as INP ends at the next paint).

/** The answer must be on screen within this long: INP's "good" line. */
export const FIRST_TAP_BUDGET_MS = 200;

/** The emulated phone. */
export const PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
  viewport: { width: 412, height: 823, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true },
};

/**
 * What each scenario does and what counts as its answer. `answered` runs in the page, on
 * each frame after the action, until it returns true.
 * @typedef {{ name: string, path: string, event: string, act: (page: import('puppeteer-core').Page) => Promise<void>, answered: () => boolean }} Scenario
 */

/** @type {Scenario[]} */
export const SCENARIOS = [
  {
    name: 'tap Sign Up: the tab has switched',
    path: '/auth',
    event: 'pointerdown',
    act: (page) => tapText(page, '[role="tab"]', 'Sign Up'),
    answered: () => {
      const tab = [...document.querySelectorAll('[role="tab"]')].find((each) => each.textContent === 'Sign Up');
      const panel = tab && document.getElementById(tab.getAttribute('aria-controls') ?? '');
      return tab?.getAttribute('aria-selected') === 'true' && !!panel?.checkVisibility();
    },
  },
  {
    name: 'arrow key on the tabs: the next tab is chosen',
    path: '/auth',
    event: 'keydown',
    act: async (page) => {
      await page.focus('[role="tab"][aria-selected="true"]');
      await page.keyboard.press('ArrowRight');
    },
    answered: () =>
      document.activeElement?.getAttribute('aria-selected') === 'true' &&
      document.activeElement?.textContent === 'Sign Up',
  },
  {
    name: 'tap Forgot password?: the form is open',
    path: '/auth',
    event: 'pointerdown',
    act: (page) => tapText(page, 'button', 'Forgot password?'),
    answered: () =>
      [...document.querySelectorAll('h3')].some(
        (heading) => heading.textContent === 'Reset your password' && heading.checkVisibility(),
      ),
  },
  {
    name: 'tap Play: the video area shows it is loading',
    path: '/',
    event: 'pointerdown',
    act: (page) => tapText(page, 'button', 'Play video'),
    // The loading line (shown once Play has hidden itself) or the player's frame over it.
    answered: () =>
      [...document.querySelectorAll('.video-loading, iframe')].some((element) => element.checkVisibility()),
  },
  {
    name: 'type, tap Sign In: the button shows it is working',
    path: '/auth',
    event: 'pointerdown',
    act: async (page) => {
      await page.type('input[type="email"]', 'reader@example.com');
      await page.type('input[type="password"]', 'password123');
      await tapText(page, 'button[type="submit"]', 'Sign In');
    },
    answered: () =>
      [...document.querySelectorAll('button[type="submit"]')].some(
        (button) =>
          button.checkVisibility() &&
          (button.getAttribute('aria-busy') === 'true' || button.textContent === 'Signing in...'),
      ),
  },
];

/**
 * Taps the first visible `selector` whose text starts with `text`.
 * @param {import('puppeteer-core').Page} page
 * @param {string} selector
 * @param {string} text
 */
async function tapText(page, selector, text) {
  const handles = await page.$$(selector);
  for (const handle of handles) {
    const match = await handle.evaluate(
      (element, wanted) => element.checkVisibility() && (element.textContent ?? '').trim().startsWith(wanted),
      text,
    );
    if (match) return handle.tap();
  }
  throw new Error(`no visible ${selector} with text ${text}`);
}

/** The page's window while a scenario runs: `__firstTap` is set by watchForAnswer. */
/** @typedef {Window & { __firstTap?: Promise<number> }} FirstTapWindow */

/**
 * Runs in the page: resolves `window.__firstTap` with the time from the first `eventType`
 * event to the paint of the first frame in which `answered()` holds.
 * @param {string} eventType
 * @param {() => boolean} answered
 */
function watchForAnswer(eventType, answered) {
  /** @type {number | null} */
  let start = null;
  /** @type {FirstTapWindow} */ (window).__firstTap = new Promise((resolve) => {
    // A frame callback runs before that frame's paint; a task queued from it, after it.
    const frame = () => {
      if (answered()) setTimeout(() => resolve(performance.now() - /** @type {number} */ (start)), 0);
      else requestAnimationFrame(frame);
    };
    addEventListener(
      eventType,
      (event) => {
        if (start !== null) return;
        start = event.timeStamp;
        requestAnimationFrame(frame);
      },
      { capture: true },
    );
  });
}

/**
 * A new page on the emulated phone: its viewport and touch, `cpuSlowdown` times slower
 * processing, and its network. Set through the page's own DevTools session (Puppeteer's
 * `emulate*` calls): a second session attached to the page target alone, as
 * `createCDPSession()` makes, is one Chrome counts as a debugger that cannot follow a
 * prerendered page, and while it is attached Chrome starts no prerender
 * (`PrerenderingDisabledByDevTools`); a phone has no such session.
 * @param {import('puppeteer-core').Browser} browser
 * @param {number} cpuSlowdown
 */
export async function phonePage(browser, cpuSlowdown = PHONE.cpuSlowdown) {
  const page = await browser.newPage();
  await page.setViewport(PHONE.viewport);
  await page.emulateCPUThrottling(cpuSlowdown);
  await page.emulateNetworkConditions({
    latency: PHONE.latencyMs,
    download: PHONE.downloadBytesPerSecond,
    upload: PHONE.uploadBytesPerSecond,
  });
  return page;
}

/**
 * Opens `url` in `page` and returns once the navigation has committed (the browser has the
 * page's response and shows its document as it arrives), without waiting for anything the
 * page loads: Playwright's `waitUntil: 'commit'`, which Puppeteer's `goto` lacks. Sent on a
 * DevTools session of its own, detached at once (while one is attached Chrome starts no
 * prerender: see phonePage).
 * @param {import('puppeteer-core').Page} page
 * @param {string} url
 */
export async function openAtCommit(page, url) {
  const session = await page.createCDPSession();
  try {
    const { errorText } = await session.send('Page.navigate', { url });
    if (errorText) throw new Error(`${url} did not open: ${errorText}`);
  } finally {
    await session.detach();
  }
}

/**
 * Opens `site + scenario.path` on the emulated phone, acts at first paint and returns the
 * milliseconds from the action's event to the frame that showed the answer.
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} site
 * @param {Scenario} scenario
 * @param {number} [cpuSlowdown]
 */
export async function measureFirstTap(browser, site, scenario, cpuSlowdown = PHONE.cpuSlowdown) {
  const page = await phonePage(browser, cpuSlowdown);
  // Before the page's own scripts: note when the first such event came in, then watch the
  // frames that follow it for the answer. Given as source, so the page's CSP (no eval) holds.
  await page.evaluateOnNewDocument(
    `(${watchForAnswer.toString()})(${JSON.stringify(scenario.event)}, ${scenario.answered.toString()})`,
  );
  await openAtCommit(page, `${site}${scenario.path}`);
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, {
    polling: 'raf',
  });
  await scenario.act(page);
  const ms = await page.evaluate(() => /** @type {FirstTapWindow} */ (window).__firstTap);
  await page.close();
  // Unset only if the watcher never ran in the page: a wrong figure, not a missing one.
  if (ms === undefined) throw new Error(`${scenario.name}: the page never started watching for the answer`);
  return ms;
}
