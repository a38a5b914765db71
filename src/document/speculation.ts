import { SPECULATION_RULES_ID } from '../../scripts/build/speculation-rules.mjs';
import { afterFirstPaint } from '@/lib/after-load';
import { whenShown } from '@/lib/when-shown';

/**
 * Puts the page's Speculation Rules (inert JSON the build put in the page,
 * scripts/build/speculation-rules.mjs) in force once the page's first contentful paint is on
 * screen: the next public pages are fetched and rendered while the visitor reads the first
 * screen, never ahead of this page's own first paint. A page Chrome prerenders does it only
 * once shown. The script added has exactly the JSON's text, which the Content-Security-Policy
 * allows by its hash. A browser without the API gets no script: its links are plain links.
 * See docs/decisions/098-public-pages-are-documents.md.
 */
export function speculateFromFirstPaint(doc: Document = document, win: Window = window) {
  whenShown(() => afterFirstPaint(() => inForce(doc, win), {}, win), doc);
}

/** Adds the script that puts the page's rules in force, unless the page has none or it is there. */
function inForce(doc: Document, win: Window) {
  const rules = doc.getElementById(SPECULATION_RULES_ID)?.textContent;
  const supported = (win as Window & typeof globalThis).HTMLScriptElement?.supports?.('speculationrules');
  if (!rules || !supported || doc.querySelector('script[type="speculationrules"]')) return;
  const script = doc.createElement('script');
  script.type = 'speculationrules';
  script.textContent = rules;
  doc.head.append(script);
}
