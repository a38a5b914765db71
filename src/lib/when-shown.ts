/**
 * Calls `callback` once the page is shown to the visitor: at once, or, for a page the
 * browser is prerendering (Speculation Rules), after the first frame the visitor sees once
 * their navigation has activated it. Until then nothing may start that the visitor has not
 * asked for: the app, its session check, any request to Supabase. The frame comes first
 * because the page was laid out while prerendered and only its paint is left: on a 6x phone,
 * the shown page's own start (storage read through the browser, module preloads) took 55 ms
 * when it ran in the activation's task, ahead of that paint. A page that is never shown never
 * calls back. See docs/decisions/076-speculation-rules-for-public-links.md and
 * docs/decisions/098-public-pages-are-documents.md.
 */
export function whenShown(
  callback: () => void,
  doc: Pick<Document, 'addEventListener'> & {
    prerendering?: boolean;
    visibilityState?: DocumentVisibilityState;
  } = document,
  win: Pick<Window, 'requestAnimationFrame' | 'setTimeout'> = window,
) {
  if (!doc.prerendering) {
    callback();
    return;
  }
  doc.addEventListener('prerenderingchange', () => afterNextFrame(callback, doc, win), { once: true });
}

/** The longest a shown page waits for its first frame (a tab hidden meanwhile paints none). */
export const SHOWN_FRAME_FALLBACK_MS = 1000;

/** Calls back once, in a task after the next frame is painted; at once in a tab that paints none. */
function afterNextFrame(
  callback: () => void,
  doc: { visibilityState?: DocumentVisibilityState },
  win: Pick<Window, 'requestAnimationFrame' | 'setTimeout'>,
) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    callback();
  };
  if (doc.visibilityState === 'hidden') {
    win.setTimeout(once, 0);
    return;
  }
  // A frame callback runs before that frame is painted; a task queued from it, after.
  win.requestAnimationFrame(() => win.setTimeout(once, 0));
  win.setTimeout(once, SHOWN_FRAME_FALLBACK_MS);
}
