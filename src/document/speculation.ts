import { speculationRulesId } from '../../scripts/build/speculation-rules.mjs';
import { afterFirstPaint, afterLoad } from '@/lib/after-load';
import { whenShown } from '@/lib/when-shown';

/**
 * Puts the page's Speculation Rules (inert JSON the build put in the page,
 * scripts/build/speculation-rules.mjs) in force in two stages. The first once the page's
 * first contentful paint is on screen: the pages the top of the page links to are fetched
 * and rendered while the visitor reads the first screen, never ahead of this page's own
 * first paint. The footer's pages after the page's load event, so that four pages are not
 * rendered at once beside this one. A page Chrome prerenders does it only once shown. Each
 * script added has exactly its JSON's text, which the Content-Security-Policy allows by its
 * hash. A browser without the API gets no script: its links are plain links.
 * See docs/decisions/098-public-pages-are-documents.md.
 */
export function speculateFromFirstPaint(doc: Document = document, win: Window = window) {
  whenShown(
    () =>
      afterFirstPaint(
        () => {
          inForce(0, doc, win);
          afterLoad(() => inForce(1, doc, win), win);
        },
        {},
        win,
      ),
    doc,
  );
}

/** Adds the script that puts a stage's rules in force, unless the page has none or it is there. */
function inForce(stage: number, doc: Document, win: Window) {
  const id = speculationRulesId(stage);
  const rules = doc.getElementById(id)?.textContent;
  const supported = (win as Window & typeof globalThis).HTMLScriptElement?.supports?.('speculationrules');
  if (!rules || !supported || doc.querySelector(`script[type="speculationrules"][data-stage="${stage}"]`)) return;
  const script = doc.createElement('script');
  script.type = 'speculationrules';
  script.dataset.stage = String(stage);
  script.textContent = rules;
  doc.head.append(script);
}
