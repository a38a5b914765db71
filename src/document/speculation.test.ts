import { afterEach, describe, expect, it, vi } from 'vitest';
import { speculationRules, speculationRulesTag } from '../../scripts/build/speculation-rules.mjs';
import { fakePaintTiming } from '@/testing/fake-window';
import { speculateFromFirstPaint } from './speculation';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

/**
 * A window whose first contentful paint comes at `paint()`, still loading meanwhile (its load
 * event never comes: the rules must not wait for it). A Chromium by default;
 * `speculationRules: false` is a browser without them (jsdom has none).
 */
function paintingWindow({ speculationRules = true } = {}) {
  const { PerformanceObserver, paint } = fakePaintTiming();
  const doc = { readyState: 'loading', visibilityState: 'visible' };
  const win = Object.assign(new EventTarget(), {
    document: doc,
    HTMLScriptElement: { supports: (type: string) => speculationRules && type === 'speculationrules' },
    PerformanceObserver,
    setTimeout: () => 0,
    clearTimeout: () => {},
  }) as unknown as Window;
  /** The page's load event. */
  const load = () => {
    doc.readyState = 'complete';
    win.dispatchEvent(new Event('load'));
  };
  return { win, paint, load };
}

const active = () => [...document.querySelectorAll('script[type="speculationrules"]')].map((s) => s.textContent);
const [first, later] = speculationRules();

describe('speculateFromFirstPaint', () => {
  it('puts the first stage in force at the first contentful paint and the footer’s at the load event, each with exactly the hashed text', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const { win, paint, load } = paintingWindow();
    speculateFromFirstPaint(document, win);
    await Promise.resolve();
    expect(active()).toEqual([]);
    paint();
    await vi.waitFor(() => expect(active()).toEqual([first]));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(active()).toEqual([first]);
    load();
    expect(active()).toEqual([first, later]);
  });

  it('puts both in force at once on a page already painted and loaded, and only once', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const { win, paint, load } = paintingWindow();
    paint();
    load();
    speculateFromFirstPaint(document, win);
    speculateFromFirstPaint(document, win);
    await vi.waitFor(() => expect(active()).toEqual([first, later]));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(active()).toEqual([first, later]);
  });

  it('in a browser without Speculation Rules, adds nothing', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const { win, paint } = paintingWindow({ speculationRules: false });
    paint();
    speculateFromFirstPaint(document, win);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(active()).toEqual([]);
  });

  it('waits, on a page Chrome prerenders, until the visitor is shown it', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    Object.defineProperty(document, 'prerendering', { value: true, configurable: true });
    try {
      const { win, paint } = paintingWindow();
      paint();
      speculateFromFirstPaint(document, win);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(active()).toEqual([]);
      Object.defineProperty(document, 'prerendering', { value: false, configurable: true });
      document.dispatchEvent(new Event('prerenderingchange'));
      await vi.waitFor(() => expect(active()).toEqual([first]));
    } finally {
      delete (document as { prerendering?: boolean }).prerendering;
    }
  });

  it('does nothing on a page without rules', async () => {
    const { win, paint } = paintingWindow();
    paint();
    speculateFromFirstPaint(document, win);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(active()).toEqual([]);
  });
});
