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
