// A swap: a button with `data-shows="<id>"` and/or `data-hides="<id>"` shows one element and
// hides another, in the page itself, with no framework: the sales video's Play on the public
// pages (src/document/main.ts) and "Forgot password?" / Back on /auth before the app runs
// (src/boot/answer-before-app.ts). A frame slot in what it shows (an element with
// `data-frame-src`, its content React's to leave alone) gets its iframe then. Focus goes to
// `data-focuses="<id>"` if the button names one, else into what it shows.

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
