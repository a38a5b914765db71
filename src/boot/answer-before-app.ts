// What a prerendered page does by itself when the visitor acts before the app runs.
// The app loads on the visitor's first action, which on a phone is a second or more of
// download and hydration. A tab, a "Forgot password?" or a Play tapped meanwhile must answer
// at once, so that what the visitor does next (tap a field, type) lands where they now see
// it. These answers change only what the app would render for the same action (attributes
// React writes itself once it runs), so the app adopts them by replaying the action (see
// hydrate-on-intent.ts). Kept free of React: this runs first, on every page.
//
// The contract with the markup, so that any page prerendered later gets the same answers:
// - tabs: WAI-ARIA tabs as Radix renders them (`role="tablist"`, `role="tab"` with
//   `aria-controls`, `data-state`); every panel is in the page (forceMount), the inactive
//   ones `hidden`;
// - swaps: a button with `data-shows="<id>"` and/or `data-hides="<id>"` shows one element
//   and hides another. A frame slot in what it shows (an element with `data-frame-src`, its
//   content React's to leave alone) gets its iframe then. Focus goes to
//   `data-focuses="<id>"` if the button names one, else into what it shows.

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

/** What a swap shows first gets focus: the frame, else the first field, else the first button. */
function focusTargetIn(shown: HTMLElement): HTMLElement | null {
  if (shown instanceof HTMLIFrameElement || shown instanceof HTMLInputElement) return shown;
  return shown.querySelector<HTMLElement>('iframe, input:not([type="hidden"]), textarea, select, button');
}

/** Whether `control` is a swap: a button that shows and/or hides an element by id. */
export function isSwap(control: Element): boolean {
  return control.hasAttribute('data-shows') || control.hasAttribute('data-hides');
}

/**
 * Does what a swap button does: hides one element, shows another (loading a frame in it) and
 * focuses it. A frame comes once what the swap shows has been painted: making one costs a
 * document of its own, tens of milliseconds on a phone, and meanwhile the place it goes says
 * it is loading (the sales video's loading line, index.css), so that is the answer the visitor
 * sees first.
 */
export function swap(control: Element) {
  const doc = control.ownerDocument;
  const byAttribute = (name: string) => {
    const id = control.getAttribute(name);
    const element = id ? doc.getElementById(id) : null;
    return element instanceof HTMLElement ? element : null;
  };
  const shown = byAttribute('data-shows');
  const hidden = byAttribute('data-hides');
  if (hidden) hidden.hidden = true;
  if (!shown) return;
  shown.hidden = false;
  const focus = () => (byAttribute('data-focuses') ?? focusTargetIn(shown))?.focus();
  const slots = [shown, ...shown.querySelectorAll<HTMLElement>('[data-frame-src]')].filter(
    (slot) => slot.dataset.frameSrc,
  );
  if (slots.length === 0) {
    focus();
    return;
  }
  afterNextPaint(doc, () => {
    for (const slot of slots) loadFrame(slot);
    focus();
  });
}

/**
 * Calls `callback` just after the next frame has been painted: a frame callback runs before
 * that frame is painted, a task queued from it after. A page in the background paints nothing:
 * there it calls back at once.
 */
export function afterNextPaint(doc: Document, callback: () => void) {
  const win = doc.defaultView;
  if (!win || doc.visibilityState === 'hidden') callback();
  else win.requestAnimationFrame(() => win.setTimeout(callback, 0));
}

/**
 * Puts the click-to-load frame `slot` describes into it (`data-frame-src`, `data-frame-title`,
 * `data-frame-allow`), once: the app calls this too, and finds the frame the page already
 * made. The frame is made here, not rendered hidden in the page: an iframe in the HTML costs
 * its parse a document of its own, main-thread work before the page is interactive (TBT).
 */
export function loadFrame(slot: HTMLElement): HTMLIFrameElement | null {
  const existing = slot.querySelector('iframe');
  const src = slot.dataset.frameSrc;
  if (existing || !src) return existing;
  const frame = slot.ownerDocument.createElement('iframe');
  frame.src = src;
  frame.title = slot.dataset.frameTitle ?? '';
  if (slot.dataset.frameAllow) frame.setAttribute('allow', slot.dataset.frameAllow);
  // The slot sizes it (index.css); the attributes give it its ratio before any style applies.
  frame.width = '560';
  frame.height = '315';
  slot.append(frame);
  return frame;
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
