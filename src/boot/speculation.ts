import { afterLoad, whenIdle } from './after-load';
import { whenShown } from './when-shown';

/** The inert JSON the build puts in each public page (scripts/build/speculation-rules.mjs). */
const RULES_ID = 'speculation-rules';
const ACTIVE = 'script[type="speculationrules"]';

/** What the boot script does with the rules once the app starts, and once it runs. */
export interface Speculation {
  /** Puts no rules in force that are not already: the app is on its way. */
  hold: () => void;
  /** Takes the rules away: the app's router takes link taps now, and pages fetched for them would go unused. */
  stop: () => void;
}

/**
 * Puts the page's Speculation Rules in force once the page has loaded and the browser is
 * idle: the next public page is fetched and rendered while the visitor reads, never while
 * this page's own files or first work are still under way. The script added has exactly the
 * JSON's text, which the Content-Security-Policy allows by its hash. A prerendered page puts
 * its rules in force only once shown (and idle after that). Rules already in force
 * when the app starts stay until it runs: a tap on a link meanwhile still shows the page
 * Chrome rendered. See docs/decisions/085-prerender-the-next-page-and-measure-it.md.
 */
export function speculateAfterLoad(doc: Document = document, win: Window = window): Speculation {
  let held = false;
  let cancelIdle = () => {};
  // A page Chrome prerenders loads in the background; its own next pages wait until it is
  // shown and idle, or their rendering would compete with its first frame on the tap.
  const cancelLoad = afterLoad(() => {
    whenShown(() => {
      if (!held) cancelIdle = whenIdle(() => inForce(doc), {}, win);
    }, doc);
  }, win);
  const hold = () => {
    held = true;
    cancelLoad();
    cancelIdle();
  };
  return {
    hold,
    stop: () => {
      hold();
      for (const script of doc.querySelectorAll(ACTIVE)) script.remove();
    },
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
