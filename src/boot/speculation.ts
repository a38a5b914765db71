import { SPECULATION_TARGETS } from '../../scripts/build/speculation-rules.mjs';
import { afterFirstPaint, afterLoad, whenIdle } from './after-load';
import { whenShown } from './when-shown';

/** The inert JSON the build puts in each public page (scripts/build/speculation-rules.mjs). */
const RULES_ID = 'speculation-rules';
const ACTIVE = 'script[type="speculationrules"]';

/** What the boot script does with the rules once the app starts, and once it leaves the page. */
export interface Speculation {
  /** Puts no rules in force that are not already: the visitor is using this page, and the app comes first. */
  hold: () => void;
  /**
   * Takes the rules away: the app's router takes the links from now on (the app runs for a
   * visitor using the page, or has shown another page), and pages got ready would go unused.
   */
  stop: () => void;
}

/**
 * Puts the page's Speculation Rules in force once the page has loaded, its first contentful
 * paint is on screen and the browser is idle: the next public page is fetched and rendered
 * while the visitor reads, never while this page's own files or first work are still under
 * way. The script added has exactly the JSON's text, which the Content-Security-Policy allows
 * by its hash. A prerendered page puts its rules in force only once shown (and idle after
 * that).
 *
 * While they are in force, a tap on a link to a page they got ready goes to that page, the
 * app running or not: the browser follows the link and Chrome shows the page it rendered, where
 * the app's router would render it again on the phone's processor. They stay in force until
 * `stop` (main.ts says when). See docs/decisions/085 and 089.
 */
export function speculateAfterLoad(doc: Document = document, win: Window = window): Speculation {
  let held = false;
  let cancelIdle = () => {};
  // A page Chrome prerenders loads in the background; its own next pages wait until it is
  // shown and idle, or their rendering would compete with its first frame on the tap. A page
  // can finish loading before its first frame is on screen (a fast link, a busy processor):
  // its next pages wait for that paint too.
  const cancelLoad = afterLoad(() => {
    whenShown(() => {
      afterFirstPaint(
        () => {
          if (!held)
            cancelIdle = whenIdle(() => inForce(doc, win) && doc.addEventListener('click', toReadyPage, true), {}, win);
        },
        {},
        win,
      );
    }, doc);
  }, win);

  /**
   * Capturing, on the document: keeps a plain click on a link to a page the rules got ready
   * from the app's root, where the router would take it from the browser.
   */
  function toReadyPage(event: MouseEvent) {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href]') : null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(link.href);
    const here = new URL(doc.URL);
    const ready = SPECULATION_TARGETS.includes(url.pathname) && url.pathname !== here.pathname;
    if (ready && url.origin === here.origin && (link.target || '_self') === '_self') event.stopPropagation();
  }

  const hold = () => {
    held = true;
    cancelLoad();
    cancelIdle();
  };
  return {
    hold,
    stop: () => {
      hold();
      doc.removeEventListener('click', toReadyPage, true);
      for (const script of doc.querySelectorAll(ACTIVE)) script.remove();
    },
  };
}

/**
 * Adds the script that puts the page's rules in force, in a browser that has them, unless the
 * page has none or it is there. Returns whether it added it.
 */
function inForce(doc: Document, win: Window): boolean {
  const rules = doc.getElementById(RULES_ID)?.textContent;
  const supported = (win as Window & typeof globalThis).HTMLScriptElement?.supports?.('speculationrules');
  if (!rules || !supported || doc.querySelector(ACTIVE)) return false;
  const script = doc.createElement('script');
  script.type = 'speculationrules';
  script.textContent = rules;
  doc.head.append(script);
  return true;
}
