// The campaign of a Shopify order, from what the order keeps of the buyer's way in: the query of
// its landing_site (the checkout link the site built: its client_reference_id, else its utm
// codes), else its note_attributes named utm_source / utm_medium / utm_campaign; the referrer is
// the reference's, else the host of referring_site unless that is the site itself.
import { CAMPAIGN_VALUE_MAX, campaignFromSearch, decodeReference, type Campaign } from '../../../src/lib/campaign.ts';
import { isObject } from './payload.ts';

/**
 * A URL's host name, lower-cased, without `www.`; null when it is not a URL with a host or the
 * host is longer than a campaign's value may be.
 */
export function referrerHost(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  return host === '' || host.length > CAMPAIGN_VALUE_MAX ? null : host;
}

/** The query of a landing_site: a full URL or a path, `?` included. */
function landingQuery(landingSite: unknown): string {
  if (typeof landingSite !== 'string') return '';
  const start = landingSite.indexOf('?');
  if (start < 0) return '';
  const end = landingSite.indexOf('#', start);
  return landingSite.slice(start, end < 0 ? undefined : end);
}

/** note_attributes (`[{ name, value }]`) named utm_…, as a query string. */
function noteAttributesQuery(attributes: unknown): string {
  if (!Array.isArray(attributes)) return '';
  const params = new URLSearchParams();
  for (const attribute of attributes) {
    if (!isObject(attribute) || typeof attribute.name !== 'string' || typeof attribute.value !== 'string') continue;
    const name = attribute.name.trim().toLowerCase();
    if (name === 'utm_source' || name === 'utm_medium' || name === 'utm_campaign') params.set(name, attribute.value);
  }
  return params.toString();
}

/** The reference the landing URL carries, or the utm codes of the landing URL or of the note attributes. */
function orderCodes(order: Record<string, unknown>): Campaign | null {
  const query = landingQuery(order.landing_site);
  let reference: string | null = null;
  try {
    reference = new URLSearchParams(query).get('client_reference_id');
  } catch {
    reference = null;
  }
  return (
    (reference === null ? null : decodeReference(reference)) ??
    campaignFromSearch(query) ??
    campaignFromSearch(noteAttributesQuery(order.note_attributes))
  );
}

/**
 * The campaign of a Shopify order; null when it carries no campaign and no outside referrer.
 * `siteHost`: the site's own host, never a referrer.
 */
export function shopifyCampaign(order: Record<string, unknown>, siteHost: string | null): Campaign | null {
  const codes = orderCodes(order);
  const referred = referrerHost(order.referring_site);
  const outside = referred !== null && referred !== siteHost ? referred : null;
  const referrer = codes?.referrer ?? outside;
  if (codes === null && referrer === null) return null;
  return {
    source: codes?.source ?? null,
    medium: codes?.medium ?? null,
    campaign: codes?.campaign ?? null,
    referrer,
  };
}
