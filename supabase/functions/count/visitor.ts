// What the count function reads from the request about who sent it: whether it is a crawler or a
// headless browser (never counted), the device kind, the caller's address, the site it was sent
// from, and the referring site's host. The address and the user agent go only into the database
// function's hash (count_visits), which never stores them.

/**
 * Crawlers, link previews, monitors, headless browsers and HTTP libraries, by their user agents.
 * `bot` also covers Googlebot, bingbot, Twitterbot, UptimeRobot and the like.
 */
const NOT_A_PERSON =
  /bot|crawl|spider|slurp|scrap|headless|lighthouse|phantomjs|pagespeed|google-inspectiontool|googleother|mediapartners|bingpreview|facebookexternalhit|facebookcatalog|meta-externalagent|embedly|whatsapp|skypeuripreview|vkshare|pingdom|monitor|preview|validator|python-|aiohttp|httpx|curl|wget|go-http-client|okhttp|java\/|apache-httpclient|libwww|node-fetch|axios|undici|postman|insomnia|chatgpt-user|claude-user|anthropic-ai|perplexity|ccbot|^node$|^deno\//i;

/** The user agent is a crawler, a headless browser or a script, or there is none. */
export function isBot(userAgent: string | null): boolean {
  return !userAgent?.trim() || NOT_A_PERSON.test(userAgent);
}

export type Device = 'phone' | 'tablet' | 'desktop';

/** iPads, tablets and Android without "Mobile" are tablets; other mobiles, iPhones and Androids phones. */
export function deviceOf(userAgent: string): Device {
  if (/iPad|Tablet/i.test(userAgent) || (/Android/i.test(userAgent) && !/Mobile/i.test(userAgent))) return 'tablet';
  if (/Mobi|iPhone|Android/i.test(userAgent)) return 'phone';
  return 'desktop';
}

export { callerAddress } from '../_shared/caller-address.ts';

/** A host name lower-cased, without a leading `www.`. */
function bareHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '');
}

/** The host of an http(s) URL, bare; null for anything else. */
function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return bareHost(parsed.hostname) || null;
  } catch {
    return null;
  }
}

/** The site the count was sent from: the request's `Origin` host, else `siteUrl`'s, else empty. */
export function siteOf(req: Request, siteUrl: string | null): string {
  return hostOf(req.headers.get('origin')) ?? hostOf(siteUrl) ?? '';
}

/** The longest host name DNS allows. */
const MAX_HOST_CHARS = 253;

/**
 * The referring site's host; null when there is none, it is not a web address, it is longer than
 * a host name can be, or it is the site.
 */
export function referrerHost(referrer: string | null, site: string): string | null {
  const host = hostOf(referrer);
  return host && host !== site && host.length <= MAX_HOST_CHARS ? host : null;
}
