// @ts-check
// The public pages' Speculation Rules: Chrome fetches and renders the next public page while
// the visitor reads, so a tap on one of its links shows that page at once. Browsers without the API ignore the rules and navigate as before.
// Each document (a public page without React, scripts/build/vite-prerender.mjs) carries them as
// inert JSON; its script puts them in force at the page's first contentful paint
// (src/document/speculation.ts), so the next pages' HTML never competes with this page's own
// first paint, and is ready well before a reader taps.
// The script it adds is allowed by its hash in the Content-Security-Policy (vite.config.ts):
// no 'unsafe-inline'.
// See docs/decisions/076-speculation-rules-for-public-links.md.

/**
 * The pages worth getting ready: every page the public pages link to (the documents, /auth,
 * and /resources, which the build prerenders as its shell). Only pages that show static
 * content until the visitor acts: none of them signs anyone in or out, and both the
 * documents' script and the app's boot wait for the page to be shown before they start
 * anything (src/document/main.ts, src/boot/main.ts), so a prerendered page makes no request
 * to Supabase.
 */
export const SPECULATION_TARGETS = ['/', '/auth', '/bundles', '/privacy', '/resources'];

/**
 * The rules, as the JSON text the script holds (its hash must match these exact bytes).
 * Links only (document rules): a page names no URL its links do not. Both `immediate`, since
 * Chrome's `eager` waits for a hover or a scroll that a phone reader may never make: the
 * next page's HTML (a few kB) as soon as the page has its link, and the page rendered from
 * it, so a tap shows a page already laid out. Rendered on the tap itself (`moderate`), the
 * page was still being laid out when shown. Chrome itself renders nothing ahead on a phone
 * short of memory, or in data or battery saving; the prefetch then still serves. A link
 * with a query (`/auth?next=…`) matches too: it signs nobody in either.
 * See docs/decisions/085-prerender-the-next-page-and-measure-it.md.
 */
export function speculationRules() {
  // Inline rules match against the page's own address: no `relative_to` needed (bytes in every page).
  const where = { href_matches: SPECULATION_TARGETS };
  return JSON.stringify({
    prefetch: [{ where, eagerness: 'immediate' }],
    prerender: [{ where, eagerness: 'immediate' }],
  });
}

/** The id of the inert element that carries the rules in a page (src/document/speculation.ts reads it). */
export const SPECULATION_RULES_ID = 'speculation-rules';

/**
 * The inert element for a page's head: JSON the browser neither runs nor acts on.
 * @param {string} rules from speculationRules
 */
export function speculationRulesTag(rules) {
  return `<script type="application/json" id="${SPECULATION_RULES_ID}">${rules}</script>`;
}
