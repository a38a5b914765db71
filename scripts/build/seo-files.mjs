// @ts-check
// sitemap.xml and robots.txt for the build (scripts/build/vite-prerender.mjs writes them into dist/).

/** @param {string} value */
function escapeXml(value) {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * The sitemap: one absolute URL per indexable page.
 * @param {string} origin the site's origin, e.g. https://app.example.com
 * @param {readonly string[]} pages paths such as '/' and '/bundles'
 */
export function sitemapXml(origin, pages) {
  const urls = pages.map((page) => `  <url><loc>${escapeXml(new URL(page, origin).href)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/**
 * robots.txt: everything but the private paths may be crawled; points to the sitemap.
 * A path ending in '/' covers everything under it; any other also covers its sub-paths and
 * query strings, as robots.txt prefixes do.
 * @param {string} origin
 * @param {readonly string[]} privatePaths
 */
export function robotsTxt(origin, privatePaths) {
  return [
    'User-agent: *',
    ...privatePaths.map((privatePath) => `Disallow: ${privatePath}`),
    '',
    `Sitemap: ${new URL('/sitemap.xml', origin).href}`,
    '',
  ].join('\n');
}
