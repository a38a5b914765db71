import type { EarlyInput } from '@/lib/take-early-input';
import { answerActivation, selectTab, tabForKey } from './answer-before-app';
import { NEEDS_APP, NEEDS_APP_IN_FRAME } from '@/config/needs-app';

// /auth and the member pages' shells arrive prerendered, and the app starts on them as soon
// as they have painted (main.ts). Until it has hydrated the page, a tap on a button is kept
// here and replayed once it has, and what React would hydrate all at once for is kept from
// it, so nothing the visitor does is lost and nothing waits for a whole hydration. Kept free
// of React: this runs first.

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

  // What the page's inline head script held before this ran (scripts/build/early-input.mjs). Focus follows
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
