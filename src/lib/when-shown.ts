/**
 * Calls `callback` once the page is shown to the visitor: at once, or, for a page the
 * browser is prerendering (Speculation Rules), when it is activated by the visitor's
 * navigation. Until then nothing may start that the visitor has not asked for: the app, its
 * session check, any request to Supabase. A page that is never shown never calls back.
 * See docs/decisions/076-speculation-rules-for-public-links.md.
 */
export function whenShown(
  callback: () => void,
  doc: Pick<Document, 'addEventListener'> & { prerendering?: boolean } = document,
) {
  if (!doc.prerendering) {
    callback();
    return;
  }
  doc.addEventListener('prerenderingchange', () => callback(), { once: true });
}
