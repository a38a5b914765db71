import { afterNextPaint, answerActivation, selectTab, tabForKey } from './answer-before-app';
import { NEEDS_APP, NEEDS_APP_IN_FRAME } from './needs-app';

// The public pages arrive prerendered: readable, and their links work, before any script.
// A first-time visitor's page therefore loads the app only when they first act on it (see
// main.ts), and a tap on a button made before the app has taken over is kept and replayed
// once it has, so nothing the visitor did is lost. Kept free of React: this runs first.

/**
 * What counts as the visitor acting on the page: pointing, touching, scrolling, typing or
 * moving focus. A mouse user's first move is enough; a phone user's first touch.
 */
export const INTENT_EVENTS = ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'scroll', 'keydown', 'focusin'];

/** Pointer events that start a tap or a click: on a link, they lead away from the page. */
const PRESS_EVENTS = new Set(['pointerdown', 'touchstart']);

/** What a visitor uses on the page itself: a field, or a control that needs the app. */
const PAGE_CONTROLS = `${NEEDS_APP}, input, select, textarea, label, summary, [contenteditable]`;

/**
 * Whether the first intent was a reader's: a scroll, a wheel, a pointer moving, or a touch
 * or press that is not on one of the page's controls (a finger's scroll starts with a touch).
 * A reader may well tap one of the page's links next, so the next pages are still got ready
 * while the app starts. A key, a focus or a press on a control is the visitor using this
 * page: its app comes first (speculation.ts).
 */
export function isReading(event: Event): boolean {
  if (event.type === 'keydown' || event.type === 'focusin') return false;
  const target = event.target instanceof Element ? event.target : null;
  return target?.closest(PAGE_CONTROLS) == null;
}

/**
 * Calls `callback` once, with the first intent event on `target`. Returns a cancel function.
 * A press on a link (and the focus it gives that link) is not one: the visitor is leaving
 * for the next page, which may already be waiting (Speculation Rules), and starting the app
 * here would only compete with it for the phone's processor and network.
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

/** An input the page's inline head script held before the boot script ran (early-input.mjs). */
export type EarlyInput = { type: 'click' | 'keydown'; target: Element; key?: string };

/**
 * Stops the inline head script's holding and returns what it held, oldest first: a visitor
 * who acts between the first paint and the boot script (a round trip or more on a phone)
 * loses nothing. Every page calls this at start, prerendered or not.
 */
export function takeEarlyInput(target: Window & { __earlyInput?: () => EarlyInput[] } = window): EarlyInput[] {
  const take = target.__earlyInput;
  delete target.__earlyInput;
  return typeof take === 'function' ? take() : [];
}

export type HeldInteractions = {
  /** Whether a click is waiting for the app. */
  pending: () => boolean;
  /**
   * Stops holding, now that the app handles the page, and replays what the visitor did
   * meanwhile, in order: the actions the page answered itself (tabs, swaps), so the app
   * adopts the state the page is in, and the last click held. Focus stays where it was.
   */
  release: () => void;
  /** Stops holding clicks and drops the one held: the app will not come (it failed to load). */
  abandon: () => void;
};

/**
 * Until `release`, a click on a control inside `root` that needs the app is stopped before it
 * reaches anything (a submit button would otherwise post the prerendered form to the static
 * host). A control the markup says how to answer (a tab, a swap: answer-before-app.ts) is
 * answered at once, as are the arrow keys on a tab; any other click is held, the last one
 * only, and the control says it is busy meanwhile (aria-busy, which index.css shows).
 * `release` replays them all as the pointer sequence a tap makes, so a control that acts on
 * pointerdown or mousedown (menus, tabs) acts as well as one that acts on click.
 */
export function holdInteractions(
  root: HTMLElement,
  { early = [], doc = root.ownerDocument }: { early?: EarlyInput[]; doc?: Document } = {},
): HeldInteractions {
  const win = doc.defaultView;
  const framed = win !== null && isFramed(win);
  const needsApp = framed ? `${NEEDS_APP}, ${NEEDS_APP_IN_FRAME}` : NEEDS_APP;
  const actions = pageActions(doc);

  // What the page's inline head script held before this ran (early-input.mjs). Focus follows
  // a held arrow key only if it is still on that tab: a visitor who has since tapped or typed
  // elsewhere stays there (taking focus would also hand the app, when it puts focus back on
  // release, a tab to select that the visitor left).
  for (const input of early) {
    if (!root.contains(input.target)) continue;
    if (input.type === 'click') actions.take(input.target);
    else actions.move(input.target, input.key ?? '', doc.activeElement === input.target);
  }

  const stopListening = listenBeforeApp(root, doc, needsApp, actions);
  let released = false;
  /** Stops holding; returns what to replay. */
  function stop(): Element[] {
    if (released) return [];
    released = true;
    stopListening();
    return actions.clear();
  }

  return {
    pending: actions.pending,
    release() {
      const replay = stop();
      // The visitor may have moved on (into a field, typing) since: a replayed tab takes focus
      // on mousedown, and a swap focuses what it shows; put focus back where they are.
      const focused = doc.activeElement;
      for (const action of replay) if (action.isConnected) replayTap(action);
      if (focused instanceof HTMLElement && focused.isConnected && doc.activeElement !== focused) focused.focus();
    },
    abandon() {
      // Not replayed: without the app, a held submit would post the form to the static host.
      // What the page answered itself stays as it is.
      stop();
    },
  };
}

type PageActions = ReturnType<typeof pageActions>;

/**
 * What the visitor did before the app runs, to replay once it does: each control once, where
 * it was last used, oldest first. At most one of them is held (waiting for the app, busy).
 */
function pageActions(doc: Document) {
  let actions: Element[] = [];
  let held: Element | null = null;

  function record(control: Element) {
    actions = actions.filter((action) => action !== control);
    actions.push(control);
  }

  return {
    pending: () => held !== null,

    /** A click on `control`, which needs the app: answered now if the markup says how, else held. */
    take(control: Element) {
      if (answerActivation(control)) {
        record(control);
        return;
      }
      if (held) {
        held.removeAttribute('aria-busy');
        const previous = held;
        actions = actions.filter((action) => action !== previous);
      }
      held = control;
      held.setAttribute('aria-busy', 'true');
      record(control);
      doc.documentElement.style.cursor = 'progress';
    },

    /**
     * A key pressed on `tab`: selects the tab it leads to, if any, and moves focus to it unless
     * `focus` is false (a key the head script held: the visitor may have moved on since).
     */
    move(tab: Element, key: string, focus = true): boolean {
      const next = tabForKey(tab, key);
      if (!next) return false;
      if (focus) next.focus();
      selectTab(next);
      record(next);
      return true;
    },

    /** Drops the held click's busy state and returns every action to replay, oldest first. */
    clear(): Element[] {
      doc.documentElement.style.cursor = '';
      held?.removeAttribute('aria-busy');
      held = null;
      const replay = actions;
      actions = [];
      return replay;
    },
  };
}

/**
 * Listens, on the document and capturing (before the app's own listeners on its root), for
 * clicks on `needsApp` controls and keys on tabs inside `root`. Returns a function that stops.
 */
function listenBeforeApp(root: HTMLElement, doc: Document, needsApp: string, actions: PageActions): () => void {
  function onClick(event: MouseEvent) {
    const target = event.target instanceof Element ? event.target.closest(needsApp) : null;
    if (!target || !root.contains(target)) return;
    // A modified click on a link (a new tab) is the browser's, as the app leaves it.
    if (target instanceof HTMLAnchorElement && isModified(event)) return;
    event.preventDefault();
    event.stopPropagation();
    actions.take(target);
  }

  function onKeyDown(event: KeyboardEvent) {
    const tab = event.target instanceof Element && event.target.getAttribute('role') === 'tab' ? event.target : null;
    if (!tab || !root.contains(tab) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!actions.move(tab, event.key)) return;
    event.preventDefault();
    event.stopPropagation();
  }

  function keepFromApp(event: Event) {
    if (event.target instanceof Node && root.contains(event.target)) event.stopPropagation();
  }

  doc.addEventListener('click', onClick, true);
  doc.addEventListener('keydown', onKeyDown, true);
  for (const type of HYDRATE_AT_ONCE_EVENTS) doc.addEventListener(type, keepFromApp, PASSIVE_CAPTURE);
  return () => {
    doc.removeEventListener('click', onClick, true);
    doc.removeEventListener('keydown', onKeyDown, true);
    for (const type of HYDRATE_AT_ONCE_EVENTS) doc.removeEventListener(type, keepFromApp, PASSIVE_CAPTURE);
  };
}

const PASSIVE_CAPTURE: AddEventListenerOptions = { capture: true, passive: true };

/**
 * The events React answers, while it is still hydrating the page, by hydrating all of it at
 * once in that event's task (react-dom's `discreteReplayableEvents`, heard by its capturing
 * listener on the root), so that it can hand the event to the right handlers. On a slow phone
 * that is hundreds of milliseconds: a visitor typing or tapping as the app arrives would wait
 * that long for the page to show their key or their tap. Until the app is ready, these are
 * kept from reaching React (their default actions still happen: focus moves, text lands in
 * the field), so its hydration stays in slices that yield to the visitor. The page answers
 * them meanwhile, as before the app came. Clicks are left out: the ones the page holds it
 * stops itself (onClick above); the rest (a link) are the app's to take as soon as it can.
 */
export const HYDRATE_AT_ONCE_EVENTS = [
  'pointerdown',
  'pointerup',
  'pointercancel',
  'mousedown',
  'mouseup',
  'touchstart',
  'touchend',
  'touchcancel',
  'auxclick',
  'dblclick',
  'contextmenu',
  'keydown',
  'keypress',
  'keyup',
  'input',
  'textInput',
  'change',
  'compositionstart',
  'compositionend',
  'copy',
  'cut',
  'paste',
  'dragstart',
  'dragend',
  'drop',
  'reset',
];

/** Whether `win` is inside a frame (a frame of another origin may not be read: it is). */
export function isFramed(win: Window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
}

function isModified(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
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
