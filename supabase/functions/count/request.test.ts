import { describe, expect, it } from 'vitest';
import { CountError } from './http.ts';
import { cleanCode, parseCount } from './request.ts';

function refusal(text: string): { status: number; code: string } {
  try {
    parseCount(text);
  } catch (error) {
    if (error instanceof CountError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error(`accepted ${text}`);
}

describe('parseCount', () => {
  it('reads a view with its referrer and utm codes, cleaned', () => {
    expect(
      parseCount(
        JSON.stringify({
          k: 'view',
          p: '/',
          r: 'https://www.YouTube.com/watch',
          s: ' Podcast ',
          m: 'Audio',
          c: 'LAUNCH',
        }),
      ),
    ).toEqual({
      kind: 'view',
      page: '/',
      referrer: 'https://www.YouTube.com/watch',
      source: 'podcast',
      medium: 'audio',
      campaign: 'launch',
      bundle: null,
    });
  });

  it('reads a checkout with its bundle, and every page and kind', () => {
    expect(parseCount('{"k":"checkout","p":"/bundles","b":"foundation"}')).toMatchObject({
      kind: 'checkout',
      bundle: 'foundation',
      referrer: null,
      source: null,
    });
    for (const p of ['/', '/bundles', '/upgrade', '/privacy', '/auth']) {
      for (const k of ['view', 'checkout', 'play', 'return']) {
        expect(parseCount(JSON.stringify({ k, p }))).toMatchObject({ kind: k, page: p });
      }
    }
  });

  it('refuses bad JSON, anything but an object, unknown keys and wrong types with 400', () => {
    for (const text of [
      '',
      'not json',
      '[]',
      'null',
      '"view"',
      '{"k":"view"}',
      '{"p":"/"}',
      '{"k":"view","p":"/","x":1}',
      '{"k":"view","p":"/","__proto__":{}}',
      '{"k":1,"p":"/"}',
      '{"k":"view","p":"/","r":null}',
      '{"k":"view","p":"/","s":["a"]}',
      JSON.stringify({ k: 'view', p: '/', r: `https://a.test/${'x'.repeat(500)}` }),
    ]) {
      expect(refusal(text), text).toEqual({ status: 400, code: 'bad_request' });
    }
  });

  it('refuses an unknown kind, page or bundle, and a bundle on anything but a checkout, with 422', () => {
    for (const text of [
      '{"k":"click","p":"/"}',
      '{"k":"view","p":"/staff"}',
      '{"k":"view","p":"/bundles/"}',
      '{"k":"view","p":"https://site.test/"}',
      '{"k":"checkout","p":"/bundles","b":"platinum"}',
      '{"k":"view","p":"/bundles","b":"ebook"}',
    ]) {
      expect(refusal(text), text).toEqual({ status: 422, code: 'unknown_value' });
    }
  });
});

describe('cleanCode', () => {
  it('trims, lower-cases, drops control characters, cuts to 100 characters; empty is null', () => {
    expect(cleanCode(undefined)).toBeNull();
    expect(cleanCode('   ')).toBeNull();
    expect(cleanCode('\u0000\u001f')).toBeNull();
    expect(cleanCode(' Spring\u0007Sale ')).toBe('springsale');
    expect(cleanCode('A'.repeat(150))).toBe('a'.repeat(100));
    expect(cleanCode('É'.repeat(101))).toBe('é'.repeat(100));
  });
});
