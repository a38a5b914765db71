// @ts-check
// The public pages' Speculation Rules: Chrome fetches and renders the next public page while
// the visitor reads, so a tap on one of its links shows that page at once. Browsers without the API ignore the rules and navigate as before.
// Each document (a public page without React, scripts/build/vite-prerender.mjs) carries them as
// inert JSON; its script puts the first stage in force at the page's first contentful paint
// and the second at its load event (src/document/speculation.ts), so the next pages' HTML never
// competes with this page's own first paint, and is ready well before a reader taps.
// The scripts it adds are allowed by their hashes in the Content-Security-Policy
// (vite.config.ts): no 'unsafe-inline'.
// See docs/decisions/076-speculation-rules-for-public-links.md.

/**
 * The pages worth getting ready: every page the public pages link to (the documents, /auth,
 * and /resources, which the build prerenders as its shell), in two stages. First the pages
 * the top of a page links to (the logo's /, Sign In's /auth, the bundles), then the footer's.
 * Only pages that show static content until the visitor acts: none of them signs anyone in
 * or out, and both the documents' script and the app's boot wait for the page to be shown
 * before they start anything (src/document/main.ts, src/boot/main.ts), so a prerendered
 * page makes no request to Supabase.
 */
export const SPECULATION_STAGES = [
  ['/', '/auth', '/bundles'],
  ['/privacy', '/resources'],
];
export const SPECULATION_TARGETS = SPECULATION_STAGES.flat();

/**
 * The rules, one JSON text per stage (each script's hash must match its exact bytes).
 * Links only (document rules): a page names no URL its links do not. The first stage
 * prefetches every target's HTML (a few kB each) and renders the first stage's pages; the
 * second renders the footer's pages. All `immediate`, since Chrome's `eager` waits for a
 * hover or a scroll that a phone reader may never make; rendered on the tap itself
 * (`moderate`), the page was still being laid out when shown. Chrome itself renders nothing
 * ahead on a phone short of memory, or in data or battery saving; the prefetch then still
 * serves. A link with a query (`/auth?next=…`) matches too: it signs nobody in either.
 * See docs/decisions/085-prerender-the-next-page-and-measure-it.md and
 * docs/decisions/098-public-pages-are-documents.md.
 * @returns {string[]}
 */
export function speculationRules() {
  // Inline rules match against the page's own address: no `relative_to` needed (bytes in every page).
  const [first, later] = SPECULATION_STAGES;
  return [
    JSON.stringify({
      prefetch: [{ where: { href_matches: SPECULATION_TARGETS }, eagerness: 'immediate' }],
      prerender: [{ where: { href_matches: first }, eagerness: 'immediate' }],
    }),
    JSON.stringify({ prerender: [{ where: { href_matches: later }, eagerness: 'immediate' }] }),
  ];
}

/** The id of the inert element that carries a stage's rules (src/document/speculation.ts reads it). */
export const speculationRulesId = (/** @type {number} */ stage) => `speculation-rules-${stage}`;

/**
 * The inert elements for a page's head: JSON the browser neither runs nor acts on.
 * @param {string[]} rules from speculationRules
 */
export function speculationRulesTag(rules) {
  return rules
    .map((text, stage) => `<script type="application/json" id="${speculationRulesId(stage)}">${text}</script>`)
    .join('');
}
