import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { speculationRules, speculationRulesTag } from '../../scripts/build/speculation-rules.mjs';
import { fakePaintTiming } from '@/testing/fake-window';
import { speculateAfterLoad as speculateAfterLoadOnce, type Speculation } from './speculation';

// Each test's rules and link listener end with it.
const started: Speculation[] = [];
const speculateAfterLoad = (...args: Parameters<typeof speculateAfterLoadOnce>) => {
  const speculation = speculateAfterLoadOnce(...args);
  started.push(speculation);
  return speculation;
};

afterEach(() => {
  for (const speculation of started.splice(0)) speculation.stop();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

/**
 * A window whose page is still loading until `load()`, which puts its first contentful paint
 * on screen and then loads it; `loadBeforePaint()` loads it with that paint still to come, at
 * `paint()`. Idle at the next task after that. A Chromium by default; `speculationRules:
 * false` is a browser without them (jsdom has none).
 */
function loadingWindow({ speculationRules = true } = {}) {
  const target = new EventTarget();
  const { PerformanceObserver, paint } = fakePaintTiming();
  const win = Object.assign(target, {
    document: { readyState: 'loading', visibilityState: 'visible' },
    HTMLScriptElement: { supports: (type: string) => speculationRules && type === 'speculationrules' },
    PerformanceObserver,
    setTimeout: (callback: () => void, ms = 0) => setTimeout(callback, ms),
    clearTimeout: (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle),
  }) as unknown as Window;
  const loaded = () => target.dispatchEvent(new Event('load'));
  return {
    win,
    load: () => {
      paint();
      loaded();
    },
    loadBeforePaint: loaded,
    paint,
  };
}

const active = () => [...document.querySelectorAll('script[type="speculationrules"]')];

describe('speculateAfterLoad', () => {
  it('puts the page’s rules in force once it has loaded, with exactly the text the policy hashes', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const { win, load } = loadingWindow();
    speculateAfterLoad(document, win);
    expect(active()).toEqual([]);
    load();
    await vi.waitFor(() => expect(active().map((script) => script.textContent)).toEqual([speculationRules()]));
  });

  it('waits for the first contentful paint of a page that loaded before it was on screen', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const { win, loadBeforePaint, paint } = loadingWindow();
    speculateAfterLoad(document, win);
    loadBeforePaint();
    await new Promise((resolve) => win.setTimeout(resolve, 0));
    await new Promise((resolve) => win.setTimeout(resolve, 0));
    expect(active()).toEqual([]);
    paint();
    await vi.waitFor(() => expect(active()).toHaveLength(1));
  });

  it('puts nothing in force once held or stopped (the app has started), and takes away what was', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    for (const end of ['hold', 'stop'] as const) {
      const early = loadingWindow();
      const speculation = speculateAfterLoad(document, early.win);
      early.load();
      speculation[end]();
      // A task queued now runs after the idle callback the load queued.
      await new Promise((resolve) => early.win.setTimeout(resolve, 0));
      expect(active()).toEqual([]);
    }

    const loaded = loadingWindow();
    const speculation = speculateAfterLoad(document, loaded.win);
    loaded.load();
    await vi.waitFor(() => expect(active()).toHaveLength(1));
    // The app is on its way: a tap meanwhile still goes to the page Chrome got ready.
    speculation.hold();
    expect(active()).toHaveLength(1);
    // The app has shown another page: its router takes the taps.
    speculation.stop();
    expect(active()).toEqual([]);
  });

  it('sends a tap on a link to a page the rules got ready to the browser, not to the app, until stopped', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    document.body.innerHTML =
      '<div id="root"><a href="/bundles">Bundles</a><a href="/auth?next=/resources">Download</a>' +
      '<a href="/privacy">Privacy</a><a href="/bundles" target="_blank">New tab</a></div>';
    const root = document.getElementById('root')!;
    // The app's router, as React listens: on its root, taking the click from the browser.
    const routed: string[] = [];
    root.addEventListener('click', (event) => {
      event.preventDefault();
      routed.push((event.target as HTMLAnchorElement).getAttribute('href')!);
    });
    const click = (selector: string, init: MouseEventInit = {}) => {
      const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
      root.querySelector(selector)!.dispatchEvent(event);
    };
    const stopJsdom = new AbortController();
    onTestFinished(() => stopJsdom.abort());
    const { win, load } = loadingWindow();
    const speculation = speculateAfterLoad(document, win);
    // Before the rules are in force the router has every link.
    click('a[href="/bundles"]');
    expect(routed).toEqual(['/bundles']);

    load();
    await vi.waitFor(() => expect(active()).toHaveLength(1));
    // After the rules' own listener: what never reaches the root is the browser's to follow
    // (jsdom cannot, so it is stopped here).
    document.addEventListener('click', (event) => event.preventDefault(), { capture: true, signal: stopJsdom.signal });
    routed.length = 0;
    click('a[href="/bundles"]');
    click('a[href^="/auth"]');
    expect(routed).toEqual([]);
    // A page the rules did not get ready, a new tab or a modified click: as before.
    click('a[href="/privacy"]');
    click('a[target]');
    click('a[href="/bundles"]:not([target])', { ctrlKey: true });
    expect(routed).toEqual(['/privacy', '/bundles', '/bundles']);

    // The app has shown another page: this page's rules and links are the router's again.
    speculation.stop();
    routed.length = 0;
    click('a[href="/bundles"]:not([target])');
    expect(routed).toEqual(['/bundles']);
    expect(active()).toEqual([]);
  });

  it('in a browser without Speculation Rules, puts none in force and leaves every link to the router', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    document.body.innerHTML = '<div id="root"><a href="/bundles">Bundles</a></div>';
    const root = document.getElementById('root')!;
    const routed: string[] = [];
    root.addEventListener('click', (event) => {
      event.preventDefault();
      routed.push('/bundles');
    });
    const { win, load } = loadingWindow({ speculationRules: false });
    speculateAfterLoad(document, win);
    load();
    await new Promise((resolve) => win.setTimeout(resolve, 0));
    await new Promise((resolve) => win.setTimeout(resolve, 0));
    expect(active()).toEqual([]);
    root.querySelector('a')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(routed).toEqual(['/bundles']);
  });

  it('waits, on a page Chrome prerenders, until the visitor is shown it', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const prerendering = Object.defineProperty(document, 'prerendering', { value: true, configurable: true });
    try {
      const { win, load } = loadingWindow();
      speculateAfterLoad(document, win);
      load();
      await new Promise((resolve) => win.setTimeout(resolve, 0));
      await new Promise((resolve) => win.setTimeout(resolve, 0));
      expect(active()).toEqual([]);
      Object.defineProperty(prerendering, 'prerendering', { value: false, configurable: true });
      document.dispatchEvent(new Event('prerenderingchange'));
      await vi.waitFor(() => expect(active()).toHaveLength(1));
    } finally {
      delete (document as { prerendering?: boolean }).prerendering;
    }
  });

  it('does nothing on a page without rules (a member page)', async () => {
    const page = loadingWindow();
    speculateAfterLoad(document, page.win);
    page.load();
    await new Promise((resolve) => page.win.setTimeout(resolve, 0));
    expect(active()).toEqual([]);
  });
});
