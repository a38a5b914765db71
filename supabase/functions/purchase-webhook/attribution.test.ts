import { describe, expect, it } from 'vitest';
import { encodeReference, type Campaign } from '../../../src/lib/campaign.ts';
import { referrerHost, shopifyCampaign } from './attribution.ts';

describe('referrerHost', () => {
  it('is the host, lower-cased, without www.', () => {
    expect(referrerHost('https://www.YouTube.com/watch?v=1')).toBe('youtube.com');
    expect(referrerHost('http://m.facebook.com/')).toBe('m.facebook.com');
    expect(referrerHost('instagram.com/p/1')).toBe('instagram.com');
  });

  it('is null for no URL or an absurdly long host', () => {
    for (const value of [null, undefined, 42, '', '  ', 'http://', `https://${'a'.repeat(120)}.com`]) {
      expect(referrerHost(value), String(value)).toBeNull();
    }
  });
});

describe('shopifyCampaign', () => {
  const launch: Campaign = { source: 'podcast', medium: 'audio', campaign: 'launch', referrer: 'youtube.com' };

  it('prefers the client_reference_id the site’s link put on the landing URL', () => {
    const landing = `https://shop.test/cart/1:1?client_reference_id=${encodeReference(launch)}&utm_source=other`;
    expect(shopifyCampaign({ landing_site: landing, referring_site: 'https://site.test/' }, 'site.test')).toEqual(
      launch,
    );
  });

  it('takes the landing URL’s utm codes, ignoring its fragment', () => {
    const order = { landing_site: 'https://shop.test/?utm_source=IG&utm_campaign=reel#top' };
    expect(shopifyCampaign(order, null)).toEqual({ source: 'ig', medium: null, campaign: 'reel', referrer: null });
  });

  it('falls back to note_attributes, skipping malformed ones', () => {
    const order = {
      landing_site: null,
      note_attributes: [null, { name: 'utm_source', value: 7 }, { name: 'UTM_Source', value: 'Flyer' }],
    };
    expect(shopifyCampaign(order, null)).toEqual({ source: 'flyer', medium: null, campaign: null, referrer: null });
  });

  it('a referrer alone is a campaign; the site itself is not a referrer', () => {
    expect(shopifyCampaign({ referring_site: 'https://www.bing.com/' }, 'site.test')).toEqual({
      source: null,
      medium: null,
      campaign: null,
      referrer: 'bing.com',
    });
    expect(shopifyCampaign({ referring_site: 'https://site.test/bundles' }, 'site.test')).toBeNull();
    expect(shopifyCampaign({}, null)).toBeNull();
  });
});
