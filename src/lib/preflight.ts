/**
 * Has the browser ask Supabase's gateway now, while the visitor is still typing, whether this
 * page may call `url` with these headers: the CORS preflight that every call of supabase-js
 * needs (it sends `apikey` and `Authorization`, which no browser sends unasked). The browser
 * keeps the answer for the gateway's `Access-Control-Max-Age` (3600 s on hosted Supabase), for
 * that address and those header names, so the call itself later goes out at once: on a phone,
 * one round trip less.
 *
 * `url` must be the call's own, query and all, and `headers` must name every header the call
 * sends; values do not count, bar `apikey`, which the gateway checks on the request that follows.
 * That request is an OPTIONS, which changes nothing wherever it lands; its answer is not read.
 * See docs/decisions/091-preflights-asked-at-the-form.md.
 */
export function preflight(url: string, headers: Record<string, string>): void {
  fetch(url, { method: 'OPTIONS', headers, priority: 'low' }).catch(() => {});
}
