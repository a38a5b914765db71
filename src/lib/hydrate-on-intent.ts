// The public pages arrive prerendered: readable, and their links work, before any script.
// A first-time visitor's page therefore loads the app only when they first act on it (see
// main.tsx), and a tap on a button made before the app has taken over is kept and replayed
// once it has, so nothing the visitor did is lost. Kept free of React: this runs first.

/**
 * What counts as the visitor acting on the page: pointing, touching, scrolling, typing or
 * moving focus. A mouse user's first move is enough; a phone user's first touch.
 */
export const INTENT_EVENTS = ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'scroll', 'keydown', 'focusin'];

/** Calls `callback` once, on the first intent event on `target`. Returns a cancel function. */
export function onFirstIntent(callback: () => void, target: Window = window): () => void {
  const options: AddEventListenerOptions = { capture: true, passive: true };
  let done = false;
  const stop = () => {
    done = true;
    for (const type of INTENT_EVENTS) target.removeEventListener(type, fire, options);
  };
  function fire() {
    if (done) return;
    stop();
    callback();
  }
  for (const type of INTENT_EVENTS) target.addEventListener(type, fire, options);
  return stop;
}

/** Controls whose action needs the app: buttons and tabs (links work without it). */
const NEEDS_APP = 'button, input[type="submit"], input[type="button"], [role="button"], [role="tab"]';

/**
 * Calls back once the page's first contentful paint is recorded: a prerendered page is on
 * screen before the app's chunks are asked for, so their downloads do not compete with it
 * (nor count, in Lighthouse's simulation, as work the first paint waited for). A tab in the
 * background paints nothing: it calls back at once; `fallbackMs` bounds the wait otherwise.
 */
export function afterFirstPaint(
  callback: () => void,
  { fallbackMs = 1000 } = {},
  target: Window & { PerformanceObserver?: typeof PerformanceObserver } = window,
) {
  let observer: PerformanceObserver | undefined;
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    callback();
  };
  if (target.document.visibilityState === 'hidden') return once();
  const Observer = target.PerformanceObserver;
  if (Observer?.supportedEntryTypes?.includes('paint')) {
    const paints = new Observer((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) once();
    });
    observer = paints;
    paints.observe({ type: 'paint', buffered: true });
  } else {
    // A frame callback runs before that frame is painted; a task queued from it, after.
    target.requestAnimationFrame(() => target.setTimeout(once, 0));
  }
  target.setTimeout(once, fallbackMs);
}

export type HeldInteractions = {
  /** Whether a click is waiting for the app. */
  pending: () => boolean;
  /** Stops holding clicks and replays the last one held, now that the app handles it. */
  release: () => void;
  /** Stops holding clicks and drops the one held: the app will not come (it failed to load). */
  abandon: () => void;
};

/**
 * Until `release`, a click on a button inside `root` is stopped before it reaches anything
 * (a submit button would otherwise post the prerendered form to the static host) and the
 * last such click is kept. `release` replays it as the pointer sequence a tap makes, so a
 * control that acts on pointerdown or mousedown (menus, tabs) acts as well as one that acts
 * on click. Meanwhile the page shows a progress cursor and the control says it is busy.
 */
export function holdInteractions(root: HTMLElement, doc: Document = root.ownerDocument): HeldInteractions {
  let held: Element | null = null;
  let released = false;

  function onClick(event: MouseEvent) {
    const target = event.target instanceof Element ? event.target.closest(NEEDS_APP) : null;
    if (!target || !root.contains(target)) return;
    event.preventDefault();
    event.stopPropagation();
    held?.removeAttribute('aria-busy');
    held = target;
    held.setAttribute('aria-busy', 'true');
    doc.documentElement.style.cursor = 'progress';
  }
  // On the document, capturing: before the app's own listeners on its root see the click.
  doc.addEventListener('click', onClick, true);

  /** Stops holding; returns the control that was held, if any. */
  function stop(): Element | null {
    if (released) return null;
    released = true;
    doc.removeEventListener('click', onClick, true);
    doc.documentElement.style.cursor = '';
    const target = held;
    held = null;
    target?.removeAttribute('aria-busy');
    return target;
  }

  return {
    pending: () => held !== null,
    release() {
      const target = stop();
      if (target?.isConnected) replayTap(target);
    },
    abandon() {
      // Not replayed: without the app, a held submit would post the form to the static host.
      stop();
    },
  };
}

/** Dispatches what a primary-button tap on `target` dispatches, ending in a real click. */
export function replayTap(target: Element) {
  const init: MouseEventInit = { bubbles: true, cancelable: true, composed: true, button: 0 };
  const Pointer = typeof PointerEvent === 'function' ? PointerEvent : null;
  const pointer = (type: string) =>
    Pointer ? new Pointer(type, { ...init, pointerType: 'mouse', isPrimary: true }) : new MouseEvent(type, init);
  target.dispatchEvent(pointer('pointerdown'));
  target.dispatchEvent(new MouseEvent('mousedown', init));
  target.dispatchEvent(pointer('pointerup'));
  target.dispatchEvent(new MouseEvent('mouseup', init));
  // click(): the element's activation behaviour runs, as for the visitor's own click (a
  // submit button submits its form, through the app's handler now).
  if (target instanceof HTMLElement) target.click();
  else target.dispatchEvent(new MouseEvent('click', init));
}
