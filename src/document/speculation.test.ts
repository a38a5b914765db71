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
  const win = Object.assign(new EventTarget(), {
    document: { readyState: 'loading', visibilityState: 'visible' },
    HTMLScriptElement: { supports: (type: string) => speculationRules && type === 'speculationrules' },
    PerformanceObserver,
    setTimeout: () => 0,
    clearTimeout: () => {},
  }) as unknown as Window;
  return { win, paint };
}

const active = () => [...document.querySelectorAll('script[type="speculationrules"]')];

describe('speculateFromFirstPaint', () => {
  it('puts the rules in force at the first contentful paint, before the load event, with exactly the hashed text', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const { win, paint } = paintingWindow();
    speculateFromFirstPaint(document, win);
    await Promise.resolve();
    expect(active()).toEqual([]);
    paint();
    await vi.waitFor(() => expect(active()).toHaveLength(1));
    expect(active()[0]?.textContent).toBe(speculationRules());
  });

  it('puts them in force at once on a page already painted, and only once', async () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const { win, paint } = paintingWindow();
    paint();
    speculateFromFirstPaint(document, win);
    speculateFromFirstPaint(document, win);
    await vi.waitFor(() => expect(active()).toHaveLength(1));
    await Promise.resolve();
    expect(active()).toHaveLength(1);
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
      await vi.waitFor(() => expect(active()).toHaveLength(1));
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
