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
