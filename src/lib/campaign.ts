// A visit's campaign (its utm codes and the referring site) carried through a checkout link to
// the sale: the browser adds it to the link (checkoutHref), the provider keeps it on the order
// (Stripe's client_reference_id, Shopify's landing_site), and the purchase webhook reads it back
// (decodeReference, campaignFromSearch). No imports: Deno loads this file by its relative path.

/** Each value is 1–100 characters, trimmed, lower-cased, with no control characters; or null. */
export type Campaign = {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
};

/** The most characters (code points) a value keeps. */
export const CAMPAIGN_VALUE_MAX = 100;

/** Stripe's limit on client_reference_id: letters, digits, `-` and `_`, at most 200 characters. */
export const REFERENCE_MAX = 200;

const REFERENCE_PREFIX = 'c1_';
const FIELDS = ['source', 'medium', 'campaign', 'referrer'] as const;

/** A value cleaned: control and format characters removed, trimmed, lower-cased, at most 100 characters. */
function clean(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .toLowerCase();
  const kept = Array.from(text).slice(0, CAMPAIGN_VALUE_MAX).join('').trim();
  return kept === '' ? null : kept;
}

function cleanCampaign(c: Campaign): Campaign {
  return {
    source: clean(c.source),
    medium: clean(c.medium),
    campaign: clean(c.campaign),
    referrer: clean(c.referrer),
  };
}

function isEmpty(c: Campaign): boolean {
  return FIELDS.every((field) => c[field] === null);
}

/**
 * The utm codes of a query string (`?utm_source=…`, with or without the `?`), cleaned; null when
 * it names no source and no campaign. The referrer is not in a query string: always null here.
 */
export function campaignFromSearch(search: string): Campaign | null {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    return null;
  }
  const found: Campaign = {
    source: clean(params.get('utm_source')),
    medium: clean(params.get('utm_medium')),
    campaign: clean(params.get('utm_campaign')),
    referrer: null,
  };
  return found.source === null && found.campaign === null ? null : found;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function encoded(c: Campaign): string {
  const json = JSON.stringify(FIELDS.map((field) => c[field]));
  return REFERENCE_PREFIX + toBase64Url(new TextEncoder().encode(json));
}

/** The campaign with its longest value one character shorter (null once nothing is left). */
function shortened(c: Campaign): Campaign {
  const lengths = FIELDS.map((field) => Array.from(c[field] ?? '').length);
  const longest = FIELDS[lengths.indexOf(Math.max(...lengths))] ?? 'source';
  const value = Array.from(c[longest] ?? '')
    .slice(0, -1)
    .join('')
    .trim();
  return { ...c, [longest]: value === '' ? null : value };
}

/**
 * Stripe's `client_reference_id` for a campaign: `c1_` and the base64url of the UTF-8 JSON array
 * `[source, medium, campaign, referrer]`, at most 200 characters of `[A-Za-z0-9_-]` (the longest
 * values are shortened until it fits).
 */
export function encodeReference(c: Campaign): string {
  let current = cleanCampaign(c);
  let reference = encoded(current);
  while (reference.length > REFERENCE_MAX) {
    current = shortened(current);
    reference = encoded(current);
  }
  return reference;
}

/** The campaign a `client_reference_id` made by encodeReference carries; null for anything else. */
export function decodeReference(id: string): Campaign | null {
  if (typeof id !== 'string' || id.length > REFERENCE_MAX || !id.startsWith(REFERENCE_PREFIX)) return null;
  const body = id.slice(REFERENCE_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return null;
  try {
    const json = new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(body));
    const values: unknown = JSON.parse(json);
    if (!Array.isArray(values) || values.length !== FIELDS.length) return null;
    if (!values.every((value) => value === null || typeof value === 'string')) return null;
    const [source, medium, campaign, referrer] = values.map(clean);
    const c: Campaign = {
      source: source ?? null,
      medium: medium ?? null,
      campaign: campaign ?? null,
      referrer: referrer ?? null,
    };
    return isEmpty(c) ? null : c;
  } catch {
    return null;
  }
}

const UTM_PARAMS = { source: 'utm_source', medium: 'utm_medium', campaign: 'utm_campaign' } as const;

/**
 * The checkout link with the campaign on it: `client_reference_id` (Stripe Payment Links keep it
 * on the Checkout Session) and `utm_source`, `utm_medium`, `utm_campaign` (Shopify keeps the
 * landing URL as the order's landing_site), replacing any already there. `href` unchanged when
 * there is no campaign or it is not an absolute http(s) URL.
 */
export function checkoutHref(href: string, c: Campaign | null): string {
  if (c === null) return href;
  const cleaned = cleanCampaign(c);
  if (isEmpty(cleaned)) return href;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return href;
  url.searchParams.set('client_reference_id', encodeReference(cleaned));
  for (const field of ['source', 'medium', 'campaign'] as const) {
    const value = cleaned[field];
    if (value === null) url.searchParams.delete(UTM_PARAMS[field]);
    else url.searchParams.set(UTM_PARAMS[field], value);
  }
  return url.toString();
}
