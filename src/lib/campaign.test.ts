import { describe, expect, it } from 'vitest';
import {
  campaignFromSearch,
  checkoutHref,
  decodeReference,
  encodeReference,
  REFERENCE_MAX,
  type Campaign,
} from './campaign';

const launch: Campaign = { source: 'podcast', medium: 'audio', campaign: 'launch', referrer: 'youtube.com' };

describe('campaignFromSearch', () => {
  it('reads the utm codes, trimmed and lower-cased, with or without the ?', () => {
    const expected = { source: 'podcast', medium: 'audio', campaign: 'launch', referrer: null };
    expect(campaignFromSearch('?utm_source=%20Podcast%20&utm_medium=AUDIO&utm_campaign=Launch&x=1')).toEqual(expected);
    expect(campaignFromSearch('utm_source=podcast&utm_medium=audio&utm_campaign=launch')).toEqual(expected);
  });

  it('a source or a campaign alone is enough; the others are null', () => {
    expect(campaignFromSearch('?utm_campaign=spring')).toEqual({
      source: null,
      medium: null,
      campaign: 'spring',
      referrer: null,
    });
    expect(campaignFromSearch('?utm_source=newsletter&utm_campaign=')).toEqual({
      source: 'newsletter',
      medium: null,
      campaign: null,
      referrer: null,
    });
  });

  it('is null with no source and no campaign', () => {
    expect(campaignFromSearch('')).toBeNull();
    expect(campaignFromSearch('?utm_medium=email')).toBeNull();
    expect(campaignFromSearch('?utm_source=%20%20&utm_campaign=%0A')).toBeNull();
    expect(campaignFromSearch('?q=1')).toBeNull();
  });

  it('removes control and format characters and keeps at most 100 characters', () => {
    const c = campaignFromSearch(`?utm_source=a%00b%1Fc%E2%80%AEd&utm_campaign=${'é'.repeat(150)}`);
    expect(c?.source).toBe('abcd');
    expect(Array.from(c?.campaign ?? '')).toHaveLength(100);
  });
});

describe('encodeReference / decodeReference', () => {
  it('round-trips a campaign, as c1_ and base64url only', () => {
    const id = encodeReference(launch);
    expect(id).toMatch(/^c1_[A-Za-z0-9_-]+$/);
    expect(decodeReference(id)).toEqual(launch);
  });

  it('round-trips nulls and text beyond ASCII', () => {
    const c: Campaign = { source: 'café', medium: null, campaign: '春の本', referrer: null };
    expect(decodeReference(encodeReference(c))).toEqual(c);
  });

  it('is the JSON array [source, medium, campaign, referrer] in UTF-8', () => {
    const id = encodeReference(launch);
    const base64 = id.slice(3).replaceAll('-', '+').replaceAll('_', '/');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0)));
    expect(JSON.parse(json)).toEqual(['podcast', 'audio', 'launch', 'youtube.com']);
  });

  it('shortens the longest values until the id fits Stripe’s 200 characters', () => {
    const long: Campaign = {
      source: 's'.repeat(100),
      medium: 'email',
      campaign: 'ü'.repeat(100),
      referrer: 'example.com',
    };
    const id = encodeReference(long);
    expect(id.length).toBeLessThanOrEqual(REFERENCE_MAX);
    expect(id).toMatch(/^c1_[A-Za-z0-9_-]+$/);
    const back = decodeReference(id);
    expect(back?.medium).toBe('email');
    expect(back?.referrer).toBe('example.com');
    expect(long.source?.startsWith(back?.source ?? '-')).toBe(true);
    expect(long.campaign?.startsWith(back?.campaign ?? '-')).toBe(true);
  });

  it('decodes anything else to null and never throws', () => {
    const json = (value: unknown) => `c1_${btoa(JSON.stringify(value)).replaceAll('=', '')}`;
    for (const id of [
      '',
      'user_42',
      'c1_',
      'c1_!!!',
      'c1_a',
      'c2_' + encodeReference(launch).slice(3),
      encodeReference(launch) + 'x'.repeat(REFERENCE_MAX),
      json({ source: 'x' }),
      json(['a', 'b', 'c']),
      json(['a', 1, 'c', null]),
      json([null, null, null, null]),
      `c1_${btoa('\xff\xfe')}`.replaceAll('=', ''),
    ]) {
      expect(decodeReference(id), id).toBeNull();
    }
    expect(decodeReference(null as unknown as string)).toBeNull();
  });

  it('cleans what it decodes, as campaignFromSearch does', () => {
    const id = `c1_${btoa(JSON.stringify([' Podcast ', null, 'LAUNCH', null])).replaceAll('=', '')}`;
    expect(decodeReference(id.replaceAll('+', '-').replaceAll('/', '_'))).toEqual({
      source: 'podcast',
      medium: null,
      campaign: 'launch',
      referrer: null,
    });
  });
});

describe('checkoutHref', () => {
  it('adds client_reference_id and the utm codes to the link', () => {
    const href = checkoutHref('https://buy.stripe.com/test_abc?prefilled_email=a%40b.c', launch);
    const url = new URL(href);
    expect(url.origin + url.pathname).toBe('https://buy.stripe.com/test_abc');
    expect(url.searchParams.get('prefilled_email')).toBe('a@b.c');
    expect(decodeReference(url.searchParams.get('client_reference_id') ?? '')).toEqual(launch);
    expect(url.searchParams.get('utm_source')).toBe('podcast');
    expect(url.searchParams.get('utm_medium')).toBe('audio');
    expect(url.searchParams.get('utm_campaign')).toBe('launch');
  });

  it('replaces what the link already carries, and drops a utm code the campaign has not', () => {
    const c: Campaign = { source: 'newsletter', medium: null, campaign: null, referrer: null };
    const url = new URL(
      checkoutHref('https://shop.test/cart/1:1?utm_source=old&utm_medium=old&client_reference_id=old', c),
    );
    expect(url.searchParams.getAll('utm_source')).toEqual(['newsletter']);
    expect(url.searchParams.has('utm_medium')).toBe(false);
    expect(url.searchParams.has('utm_campaign')).toBe(false);
    expect(url.searchParams.getAll('client_reference_id')).toHaveLength(1);
    expect(decodeReference(url.searchParams.get('client_reference_id') ?? '')).toEqual(c);
  });

  it('a referrer alone goes in the reference only', () => {
    const c: Campaign = { source: null, medium: null, campaign: null, referrer: 'youtube.com' };
    const url = new URL(checkoutHref('https://buy.stripe.com/x', c));
    expect(decodeReference(url.searchParams.get('client_reference_id') ?? '')).toEqual(c);
    expect([...url.searchParams.keys()]).toEqual(['client_reference_id']);
  });

  it('leaves the link alone with no campaign or no absolute http(s) URL', () => {
    const none: Campaign = { source: null, medium: null, campaign: null, referrer: null };
    expect(checkoutHref('https://buy.stripe.com/x?a=1', null)).toBe('https://buy.stripe.com/x?a=1');
    expect(checkoutHref('https://buy.stripe.com/x?a=1', none)).toBe('https://buy.stripe.com/x?a=1');
    expect(checkoutHref('/bundles', launch)).toBe('/bundles');
    expect(checkoutHref('not a url', launch)).toBe('not a url');
    expect(checkoutHref('mailto:a@b.c', launch)).toBe('mailto:a@b.c');
  });
});
