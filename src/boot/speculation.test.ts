import { afterEach, describe, expect, it } from 'vitest';
import { speculationRules, speculationRulesTag } from '../../scripts/build/speculation-rules.mjs';
import { speculateAfterLoad } from './speculation';

afterEach(() => {
  document.head.innerHTML = '';
});

/** A window whose page is still loading until `load()`. */
function loadingWindow() {
  const target = new EventTarget();
  const win = Object.assign(target, { document: { readyState: 'loading' } }) as unknown as Window;
  return { win, load: () => target.dispatchEvent(new Event('load')) };
}

const active = () => [...document.querySelectorAll('script[type="speculationrules"]')];

describe('speculateAfterLoad', () => {
  it('puts the page’s rules in force once it has loaded, with exactly the text the policy hashes', () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const { win, load } = loadingWindow();
    speculateAfterLoad(document, win);
    expect(active()).toEqual([]);
    load();
    expect(active().map((script) => script.textContent)).toEqual([speculationRules()]);
  });

  it('puts nothing in force once stopped (the app has started), and takes away what was', () => {
    document.head.innerHTML = speculationRulesTag(speculationRules());
    const early = loadingWindow();
    speculateAfterLoad(document, early.win)();
    early.load();
    expect(active()).toEqual([]);

    const stop = speculateAfterLoad(document, window);
    expect(active()).toHaveLength(1);
    stop();
    expect(active()).toEqual([]);
  });

  it('does nothing on a page without rules (a member page)', () => {
    speculateAfterLoad(document, window);
    expect(active()).toEqual([]);
  });
});
