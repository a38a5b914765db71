// What /auth (or a member page's shell) does by itself when the visitor acts before the app
// runs. The app loads on the visitor's first action, which on a phone is a second or more of
// download and hydration. A tab or a "Forgot password?" tapped meanwhile must answer at once,
// so that what the visitor does next (tap a field, type) lands where they now see it. These
// answers change only what the app would render for the same action (attributes React writes
// itself once it runs), so the app adopts them by replaying the action (see
// hold-until-app.ts). Kept free of React: this runs first.
//
// The contract with the markup, so that any page prerendered later gets the same answers:
// - tabs: WAI-ARIA tabs as Radix renders them (`role="tablist"`, `role="tab"` with
//   `aria-controls`, `data-state`); every panel is in the page (forceMount), the inactive
//   ones `hidden`;
// - swaps: as src/lib/swap.ts describes.

import { isSwap, swap } from '@/lib/swap';

/**
 * Moves from a tab, as Radix's roving focus does (loop on): which key goes where.
 * answer-before-app.tabs.test.tsx presses the same keys on Radix Tabs and fails if these drift.
 */
const horizontalKeys: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1 };
const verticalKeys: Record<string, number> = { ArrowUp: -1, ArrowDown: 1 };

function tabsOf(list: Element): HTMLElement[] {
  return [...list.querySelectorAll<HTMLElement>('[role="tab"]')].filter(
    (tab) => !tab.hasAttribute('disabled') && tab.closest('[role="tablist"]') === list,
  );
}

/** The tab a key pressed on `tab` moves to (and, activation being automatic, selects), if any. */
export function tabForKey(tab: Element, key: string): HTMLElement | null {
  const list = tab.closest('[role="tablist"]');
  if (!list) return null;
  const tabs = tabsOf(list);
  const first = tabs[0];
  const last = tabs[tabs.length - 1];
  if (key === 'Home' || key === 'PageUp') return first ?? null;
  if (key === 'End' || key === 'PageDown') return last ?? null;
  const steps = list.getAttribute('aria-orientation') === 'vertical' ? verticalKeys : horizontalKeys;
  const step = steps[key];
  const at = tabs.indexOf(tab as HTMLElement);
  if (step === undefined || at < 0) return null;
  return tabs[(at + step + tabs.length) % tabs.length] ?? null;
}

/** Selects `tab` in its tablist: the tabs' state and roving tab stop, and which panel shows. */
export function selectTab(tab: Element) {
  const list = tab.closest('[role="tablist"]');
  if (!list) return;
  const doc = tab.ownerDocument;
  for (const each of tabsOf(list)) {
    const selected = each === tab;
    const state = selected ? 'active' : 'inactive';
    each.setAttribute('aria-selected', String(selected));
    each.setAttribute('data-state', state);
    each.tabIndex = selected ? 0 : -1;
    const panelId = each.getAttribute('aria-controls');
    const panel = panelId ? doc.getElementById(panelId) : null;
    if (panel) {
      panel.hidden = !selected;
      panel.setAttribute('data-state', state);
    }
  }
}

/**
 * Answers an activation of `control` (a click, or Enter or Space on it) the way the app
 * would, if the markup says how. Returns whether it did: the app must then adopt it.
 */
export function answerActivation(control: Element): boolean {
  if (control.getAttribute('role') === 'tab') {
    selectTab(control);
    return true;
  }
  if (isSwap(control)) {
    swap(control);
    return true;
  }
  return false;
}
