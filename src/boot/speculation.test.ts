import { afterEach, describe, expect, it, vi } from 'vitest';
import { speculationRules, speculationRulesTag } from '../../scripts/build/speculation-rules.mjs';
import { speculateAfterLoad } from './speculation';

afterEach(() => {
  document.head.innerHTML = '';
});

/** A window whose page is still loading until `load()`; idle at the next task after that. */
function loadingWindow() {
  const target = new EventTarget();
  const win = Object.assign(target, {
    document: { readyState: 'loading' },
    setTimeout: (callback: () => void) => setTimeout(callback, 0),
    clearTimeout: (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle),
  }) as unknown as Window;
  return { win, load: () => target.dispatchEvent(new Event('load')) };
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
    // The app runs: its router takes the taps.
    speculation.stop();
    expect(active()).toEqual([]);
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
