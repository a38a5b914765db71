import { describe, expect, it } from 'vitest';
import { robotsTxt, sitemapXml } from './seo-files.mjs';

describe('sitemapXml', () => {
  it('lists each page as an absolute URL on the origin', () => {
    const xml = sitemapXml('https://books.example', ['/', '/bundles', '/upgrade']);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual([
      'https://books.example/',
      'https://books.example/bundles',
      'https://books.example/upgrade',
    ]);
  });

  it('escapes what XML would misread', () => {
    expect(sitemapXml('https://books.example', ['/a?b=1&c=2'])).toContain(
      '<loc>https://books.example/a?b=1&amp;c=2</loc>',
    );
  });
});

describe('robotsTxt', () => {
  it('disallows the private paths for every crawler and points to the sitemap', () => {
    expect(robotsTxt('https://books.example', ['/auth', '/resources', '/staff/'])).toBe(
      [
        'User-agent: *',
        'Disallow: /auth',
        'Disallow: /resources',
        'Disallow: /staff/',
        '',
        'Sitemap: https://books.example/sitemap.xml',
        '',
      ].join('\n'),
    );
  });
});
