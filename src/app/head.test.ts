import { afterEach, describe, expect, it } from 'vitest';
import {
  applyHeadTags,
  DEFAULT_SITE_URL,
  defaultDescription,
  HEAD_ATTRIBUTE,
  headTags,
  homeTitle,
  pageFile,
  renderHeadTags,
  siteOrigin,
  type HeadTag,
} from './head';

const origin = 'https://books.example';

function content(tags: HeadTag[], key: string): string | undefined {
  const tag = tags.find((candidate) => candidate.tag === 'meta' && candidate.key === key);
  return tag?.tag === 'meta' ? tag.content : undefined;
}

describe('siteOrigin', () => {
  it('takes the origin of VITE_SITE_URL, without path or trailing slash', () => {
    expect(siteOrigin('https://books.example/')).toBe('https://books.example');
    expect(siteOrigin(' https://books.example/some/path ')).toBe('https://books.example');
  });

  it('falls back to the documented default when unset or blank', () => {
    expect(siteOrigin(undefined)).toBe(DEFAULT_SITE_URL);
    expect(siteOrigin('  ')).toBe(DEFAULT_SITE_URL);
  });

  it('refuses a value that is not an http(s) URL', () => {
    expect(() => siteOrigin('books.example')).toThrow(/VITE_SITE_URL must be a full URL/);
    expect(() => siteOrigin('ftp://books.example')).toThrow(/http:\/\/ or https:\/\//);
  });
});

describe('headTags', () => {
  it('gives an indexable page its title, description, canonical URL and share tags', () => {
    const tags = headTags(
      [undefined, { title: 'Compare Our Bundles', description: 'Three bundles.', indexable: true }],
      '/bundles',
      origin,
    );
    expect(tags[0]).toEqual({ tag: 'title', text: 'Compare Our Bundles | Yes, You Can!' });
    expect(content(tags, 'description')).toBe('Three bundles.');
    expect(tags).toContainEqual({ tag: 'link', rel: 'canonical', href: 'https://books.example/bundles' });
    expect(content(tags, 'robots')).toBeUndefined();
    expect(content(tags, 'og:title')).toBe('Compare Our Bundles | Yes, You Can!');
    expect(content(tags, 'og:description')).toBe('Three bundles.');
    expect(content(tags, 'og:url')).toBe('https://books.example/bundles');
    expect(content(tags, 'og:type')).toBe('website');
    expect(content(tags, 'og:image')).toBe('https://books.example/og-image.png');
    expect([content(tags, 'og:image:width'), content(tags, 'og:image:height')]).toEqual(['1200', '630']);
    expect(content(tags, 'og:image:alt')).toMatch(/Yes, You Can!/);
    expect(content(tags, 'twitter:card')).toBe('summary_large_image');
    expect(content(tags, 'twitter:image')).toBe('https://books.example/og-image.png');
  });

  it('makes any page that does not say indexable noindex, with no canonical URL', () => {
    for (const handles of [[{ title: 'Subscriber Access' }], [{ title: 'Page not found' }], []]) {
      const tags = headTags(handles, '/somewhere', origin);
      expect(content(tags, 'robots')).toBe('noindex');
      expect(tags.some((tag) => tag.tag === 'link')).toBe(false);
    }
  });

  it('uses the home title and the default description where a route names neither', () => {
    const tags = headTags([{ indexable: true }], '/', origin);
    expect(tags[0]).toEqual({ tag: 'title', text: homeTitle });
    expect(content(tags, 'description')).toBe(defaultDescription);
    expect(tags).toContainEqual({ tag: 'link', rel: 'canonical', href: 'https://books.example/' });
  });

  it('lets the deepest route decide each field', () => {
    const tags = headTags(
      [
        { description: 'Outer', indexable: true },
        { title: 'Inner', indexable: false },
      ],
      '/x',
      origin,
    );
    expect(content(tags, 'description')).toBe('Outer');
    expect(content(tags, 'robots')).toBe('noindex');
  });
});

describe('renderHeadTags', () => {
  it('writes escaped HTML the client can find and replace', () => {
    const html = renderHeadTags([
      { tag: 'title', text: 'Fear & <Faith>' },
      { tag: 'meta', attribute: 'property', key: 'og:title', content: 'Say "yes"' },
      { tag: 'link', rel: 'canonical', href: 'https://books.example/?a=1&b=2' },
    ]);
    expect(html).toContain('<title>Fear &amp; &lt;Faith&gt;</title>');
    expect(html).toContain(`<meta property="og:title" content="Say &quot;yes&quot;" ${HEAD_ATTRIBUTE} />`);
    expect(html).toContain(`<link rel="canonical" href="https://books.example/?a=1&amp;b=2" ${HEAD_ATTRIBUTE} />`);
  });
});

describe('applyHeadTags', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('replaces the tags it owns (prerendered or from the last page) and leaves the others', () => {
    document.head.innerHTML = [
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width">',
      renderHeadTags(headTags([{ indexable: true }], '/', origin)),
    ].join('');

    applyHeadTags(document, headTags([{ title: 'Subscriber Access' }], '/auth', origin));

    expect(document.title).toBe('Subscriber Access | Yes, You Can!');
    expect(document.head.querySelector('meta[name="viewport"]')).not.toBeNull();
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull();
    expect(document.head.querySelectorAll('meta[name="description"]')).toHaveLength(1);
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    expect(document.head.querySelector('meta[property="og:url"]')).toHaveAttribute(
      'content',
      'https://books.example/auth',
    );
    expect(document.head.querySelectorAll('title')).toHaveLength(1);
  });

  it('drops index.html’s own description so the page has one', () => {
    document.head.innerHTML = '<title>Old</title><meta name="description" content="index.html">';
    applyHeadTags(document, headTags([{ description: 'New', indexable: true }], '/', origin));
    const descriptions = document.head.querySelectorAll('meta[name="description"]');
    expect([...descriptions].map((tag) => tag.getAttribute('content'))).toEqual(['New']);
  });
});

describe('pageFile', () => {
  it('names the prerendered file a clean URL is served from', () => {
    expect(pageFile('/')).toBe('index.html');
    expect(pageFile('/bundles')).toBe('bundles.html');
  });
});
