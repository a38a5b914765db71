import { afterLoad, whenIdle } from './after-load';
import { whenShown } from './when-shown';

/** The inert JSON the build puts in each public page (scripts/build/speculation-rules.mjs). */
const RULES_ID = 'speculation-rules';
const ACTIVE = 'script[type="speculationrules"]';

/** What the boot script does with the rules once the app starts, and once it leaves the page. */
export interface Speculation {
  /** Puts no rules in force that are not already: the visitor is using this page, and the app comes first. */
  hold: () => void;
  /**
   * Takes the rules away: the app shows another page now (its router), and the pages got
   * ready for this one's links would go unused.
   */
  stop: () => void;
}

/**
 * Puts the page's Speculation Rules in force once the page has loaded and the browser is
 * idle: the next public page is fetched and rendered while the visitor reads, never while
 * this page's own files or first work are still under way. The script added has exactly the
 * JSON's text, which the Content-Security-Policy allows by its hash. A prerendered page puts
 * its rules in force only once shown (and idle after that).
 *
 * While they are in force, a tap on a link to a page they got ready goes to that page, the
 * app running or not: the browser follows the link and Chrome shows the page it rendered, where
 * the app's router would render it again on the phone's processor. They stay in force until
 * `stop` (the app has gone to another page). See docs/decisions/085 and 089.
 */
export function speculateAfterLoad(doc: Document = document, win: Window = window): Speculation {
  let held = false;
  let cancelIdle = () => {};
  let ready: readonly string[] = [];
  // A page Chrome prerenders loads in the background; its own next pages wait until it is
  // shown and idle, or their rendering would compete with its first frame on the tap.
  const cancelLoad = afterLoad(() => {
    whenShown(() => {
      if (held) return;
      cancelIdle = whenIdle(
        () => {
          ready = inForce(doc);
          if (ready.length > 0) doc.addEventListener('click', toReadyPage, true);
        },
        {},
        win,
      );
    }, doc);
  }, win);

  /**
   * Capturing, on the document: stops a plain click on a link to a page the rules got ready
   * from reaching the app's root, where the router would take it (and prevent the browser's
   * own navigation). Anything else goes on as before.
   */
  function toReadyPage(event: MouseEvent) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || (link.target !== '' && link.target !== '_self') || link.hasAttribute('download'))
      return;
    const url = new URL(link.href);
    const here = new URL(doc.URL);
    if (url.origin !== here.origin || url.pathname === here.pathname || !ready.includes(url.pathname)) return;
    event.stopPropagation();
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
      ready = [];
      doc.removeEventListener('click', toReadyPage, true);
      for (const script of doc.querySelectorAll(ACTIVE)) script.remove();
    },
  };
}

/**
 * Adds the script that puts the page's rules in force, unless there are none or it is there.
 * Returns the paths of the pages they prerender (none if it added nothing).
 */
function inForce(doc: Document): string[] {
  const rules = doc.getElementById(RULES_ID)?.textContent;
  if (!rules || doc.querySelector(ACTIVE)) return [];
  const script = doc.createElement('script');
  script.type = 'speculationrules';
  script.textContent = rules;
  doc.head.append(script);
  return prerenderedPaths(rules);
}

/** The paths a page's rules prerender: each prerender rule's `href_matches` (plain paths). */
function prerenderedPaths(rules: string): string[] {
  const parsed = JSON.parse(rules) as { prerender?: { where?: { href_matches?: unknown } }[] };
  return (parsed.prerender ?? []).flatMap(({ where }) =>
    Array.isArray(where?.href_matches) ? where.href_matches.filter((path) => typeof path === 'string') : [],
  );
}
