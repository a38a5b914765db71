/**
 * Runs `callback` once the page has finished loading (at once if it has): work that may
 * wait, such as fetching the Supabase client on a page that does not need it to paint.
 * Returns a clean-up that cancels a callback still waiting (for an effect).
 */
export function afterLoad(callback: () => void, target: Window = window): () => void {
  if (target.document.readyState === 'complete') {
    callback();
    return () => {};
  }
  target.addEventListener('load', callback, { once: true });
  return () => target.removeEventListener('load', callback);
}

/**
 * Runs `callback` when the browser is next idle (within `timeout` ms at most): work that
 * must happen soon but not in the task that renders the page, such as opening a realtime
 * socket. Returns a clean-up that cancels a callback still waiting (for an effect).
 */
export function whenIdle(callback: () => void, { timeout = 2000 } = {}, target: Window = window): () => void {
  if (typeof target.requestIdleCallback === 'function') {
    const handle = target.requestIdleCallback(callback, { timeout });
    return () => target.cancelIdleCallback(handle);
  }
  // Safari has no requestIdleCallback: a new task still keeps it out of the render's task.
  const handle = target.setTimeout(callback, 0);
  return () => target.clearTimeout(handle);
}

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
