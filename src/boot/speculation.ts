import { afterLoad, whenIdle } from './after-load';

/** The inert JSON the build puts in each public page (scripts/build/speculation-rules.mjs). */
const RULES_ID = 'speculation-rules';
const ACTIVE = 'script[type="speculationrules"]';

/**
 * Puts the page's Speculation Rules in force once the page has loaded and the browser is
 * idle: the next public page is fetched (and, on a first sign of a tap, rendered) while the
 * visitor reads, never while this page's own files or first work are still under way. The script added has exactly the JSON's text, which
 * the Content-Security-Policy allows by its hash. Returns `stop`: once the app runs, its
 * router takes link taps itself, and pages fetched for them would go unused.
 * See docs/decisions/076-speculation-rules-for-public-links.md.
 */
export function speculateAfterLoad(doc: Document = document, win: Window = window): () => void {
  let cancelIdle = () => {};
  const cancelLoad = afterLoad(() => {
    cancelIdle = whenIdle(() => inForce(doc), {}, win);
  }, win);
  return () => {
    cancelLoad();
    cancelIdle();
    for (const script of doc.querySelectorAll(ACTIVE)) script.remove();
  };
}

/** Adds the script that puts the page's rules in force, unless there are none or it is there. */
function inForce(doc: Document) {
  const rules = doc.getElementById(RULES_ID)?.textContent;
  if (!rules || doc.querySelector(ACTIVE)) return;
  const script = doc.createElement('script');
  script.type = 'speculationrules';
  script.textContent = rules;
  doc.head.append(script);
}
