import { afterNextPaint } from '@/lib/swap';

// /auth arrives prerendered, complete for reading and typing, and answers its first taps
// itself (hold-until-app.ts): a visitor who has not acted on it yet is not kept waiting by
// the app's own start, which takes a slow phone's main thread for hundreds of milliseconds
// (its chunk's evaluation, the route's, the hydration's commit). So on a first-time visitor's
// /auth the app starts on their first action (main.ts says which pages start at once).

/**
 * What counts as the visitor acting on the page: pointing, touching, scrolling, typing or
 * moving focus. A mouse user's first move is enough; a phone user's first touch.
 */
export const INTENT_EVENTS = ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'scroll', 'keydown', 'focusin'];

/** Pointer events that start a tap or a click: on a link, they lead away from the page. */
const PRESS_EVENTS = new Set(['pointerdown', 'touchstart']);

/**
 * Calls `callback` once, with the first intent event on `target`. Returns a cancel function.
 * A press on a link (and the focus it gives that link) is not one: the visitor is leaving
 * for another page, and starting the app here would only compete with it for the phone's
 * processor and network.
 */
export function onFirstIntent(callback: (event: Event) => void, target: Window = window): () => void {
  const options: AddEventListenerOptions = { capture: true, passive: true };
  let done = false;
  let pressedLink: Element | null = null;
  const stop = () => {
    done = true;
    for (const type of INTENT_EVENTS) target.removeEventListener(type, fire, options);
  };
  function leaving(event: Event): boolean {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (link && PRESS_EVENTS.has(event.type)) pressedLink = link;
    return link !== null && (PRESS_EVENTS.has(event.type) || (event.type === 'focusin' && link === pressedLink));
  }
  function fire(event: Event) {
    if (done || leaving(event)) return;
    stop();
    callback(event);
  }
  for (const type of INTENT_EVENTS) target.addEventListener(type, fire, options);
  return stop;
}

/** What ends a press, for `afterPress`: its click, or the press given up (a scroll, a key). */
const PRESS_ENDS = ['click', 'pointercancel', 'touchcancel', 'contextmenu', 'scroll', 'keydown'];

/** A press held longer than this is not waited for. */
export const PRESS_WAIT_MS = 1000;

/**
 * Calls `callback` at once, unless `event` starts a press (a touch, a pointer going down):
 * then once the press has ended and the frame after it has been painted. Starting the app
 * (the import, its preload links, the module fetches) takes tens of milliseconds of a
 * slow phone's main thread; done on the press, it held the tap's own answer (a tab, a
 * swap, a held button's spinner), which comes on the click that ends the press. So the
 * tap is answered and shown first, and the app starts in the next task.
 */
export function afterPress(event: Event, callback: () => void, target: Window = window) {
  if (!PRESS_EVENTS.has(event.type)) return callback();
  const options: AddEventListenerOptions = { capture: true, passive: true };
  let done = false;
  const ended = () => {
    if (done) return;
    done = true;
    target.clearTimeout(timer);
    for (const type of PRESS_ENDS) target.removeEventListener(type, ended, options);
    afterNextPaint(target.document, callback);
  };
  for (const type of PRESS_ENDS) target.addEventListener(type, ended, options);
  const timer = target.setTimeout(ended, PRESS_WAIT_MS);
}
