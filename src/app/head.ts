// The <head> tags of every page (title, description, canonical URL, robots, Open Graph and
// Twitter card), from one place: the build writes them into the prerendered HTML
// (src/app/entry-server.tsx) and `PageTitle` keeps them right on client-side navigation.
// Relative imports only: vite.config.ts imports this file for the page list and the origin.
import { paths } from '../config/paths';
import { site } from '../content/site';

/** What a route may declare in its `handle`. Pages are `noindex` unless they say `indexable`. */
export type RouteHandle = { title?: string; description?: string; indexable?: boolean };

/**
 * The origin canonical and share URLs are built on when `VITE_SITE_URL` is not set at build
 * time. Set it to the deployed site's origin (README, .env.example).
 */
export const DEFAULT_SITE_URL = 'https://app.yesyoucanbook.com';

/** The site's origin from `VITE_SITE_URL` (else the default), without a trailing slash. */
export function siteOrigin(value: unknown): string {
  const raw = typeof value === 'string' && value.trim() !== '' ? value.trim() : DEFAULT_SITE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`VITE_SITE_URL must be a full URL such as ${DEFAULT_SITE_URL}, got "${raw}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`VITE_SITE_URL must start with http:// or https://, got "${raw}".`);
  }
  return url.origin;
}

/** The picture a shared link shows (public/, made by scripts/build/render-share-image.mjs). */
export const shareImage = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: `${site.productName} Finish your book in ${site.ebook.daysToFinish} days: a Christian author-coaching programme for first-time writers.`,
} as const;

/** The pages the build renders to HTML (the public ones), and their file in dist/. */
export const prerenderedPages = [paths.home, paths.bundles, paths.upgrade, paths.privacy, paths.auth] as const;

function isPublicPage(pathname: string): boolean {
  return (prerenderedPages as readonly string[]).includes(pathname);
}

export function pageFile(pathname: string): string {
  return pathname === '/' ? 'index.html' : `${pathname.replace(/^\/+|\/+$/g, '')}.html`;
}

/** Paths crawlers are asked to stay out of (robots.txt); their pages are `noindex` too. */
export const privatePaths = [paths.auth, paths.resources, paths.adminUpload, '/staff/'] as const;

/** The landing page's title: what search results and shared links show. */
export const homeTitle = `${site.productName} Finish Your Book in ${site.ebook.daysToFinish} Days`;

export const defaultDescription = `${site.productName} A Christian author-coaching programme that helps first-time writers silence fear and finish a book in ${site.ebook.daysToFinish} days.`;

function deepest<K extends keyof RouteHandle>(handles: readonly unknown[], key: K): RouteHandle[K] | undefined {
  for (let index = handles.length - 1; index >= 0; index -= 1) {
    const handle = handles[index] as RouteHandle | null | undefined;
    if (handle && handle[key] !== undefined) return handle[key];
  }
  return undefined;
}

/** The title of the deepest route that names one, with the product name; the home title otherwise. */
export function documentTitle(handles: readonly unknown[]): string {
  const title = deepest(handles, 'title');
  return typeof title === 'string' ? `${title} | ${site.productName}` : homeTitle;
}

export type HeadTag =
  | { tag: 'title'; text: string }
  | { tag: 'meta'; attribute: 'name' | 'property'; key: string; content: string }
  | { tag: 'link'; rel: 'canonical'; href: string };

/**
 * The tags of the page at `pathname`, from its matched routes' handles. Any page that is not
 * indexable (sign-in, member pages, not found) gets `noindex`. Indexable pages and every
 * public (prerendered) page get their canonical URL: /auth is shared and linked, so it names
 * its one address even though search engines are asked not to list it. Every page gets the share tags, so a link to it still previews well.
 */
export function headTags(handles: readonly unknown[], pathname: string, origin: string): HeadTag[] {
  const title = documentTitle(handles);
  const description = deepest(handles, 'description') ?? defaultDescription;
  const indexable = deepest(handles, 'indexable') === true;
  const url = `${origin}${pathname}`;
  const image = `${origin}${shareImage.path}`;
  const name = (key: string, content: string): HeadTag => ({ tag: 'meta', attribute: 'name', key, content });
  const property = (key: string, content: string): HeadTag => ({ tag: 'meta', attribute: 'property', key, content });

  return [
    { tag: 'title', text: title },
    name('description', description),
    ...(indexable || isPublicPage(pathname) ? [{ tag: 'link', rel: 'canonical', href: url } as const] : []),
    ...(indexable ? [] : [name('robots', 'noindex')]),
    property('og:type', 'website'),
    property('og:site_name', site.productName),
    property('og:title', title),
    property('og:description', description),
    property('og:url', url),
    property('og:image', image),
    property('og:image:width', String(shareImage.width)),
    property('og:image:height', String(shareImage.height)),
    property('og:image:alt', shareImage.alt),
    name('twitter:card', 'summary_large_image'),
    name('twitter:title', title),
    name('twitter:description', description),
    name('twitter:image', image),
    name('twitter:image:alt', shareImage.alt),
  ];
}

/** Marks the tags this module owns, so a navigation replaces exactly those. */
export const HEAD_ATTRIBUTE = 'data-page-head';

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The tags as HTML, for the prerendered page's <head>. */
export function renderHeadTags(tags: readonly HeadTag[]): string {
  return tags
    .map((tag) => {
      switch (tag.tag) {
        case 'title':
          return `<title>${escapeHtml(tag.text)}</title>`;
        case 'meta':
          return `<meta ${tag.attribute}="${escapeHtml(tag.key)}" content="${escapeHtml(tag.content)}" ${HEAD_ATTRIBUTE} />`;
        case 'link':
          return `<link rel="${tag.rel}" href="${escapeHtml(tag.href)}" ${HEAD_ATTRIBUTE} />`;
      }
    })
    .join('\n    ');
}

/**
 * Puts the tags into `doc`'s head: the title, and the meta and link tags this module owns
 * (the prerendered ones or an earlier page's), replaced; the head's other tags stay.
 */
export function applyHeadTags(doc: Document, tags: readonly HeadTag[]): void {
  for (const old of Array.from(doc.head.querySelectorAll(`[${HEAD_ATTRIBUTE}]`))) old.remove();
  // index.html's own description (a page without prerendered tags: the dev server, the shell).
  doc.head.querySelector(`meta[name="description"]:not([${HEAD_ATTRIBUTE}])`)?.remove();
  for (const tag of tags) {
    if (tag.tag === 'title') {
      doc.title = tag.text;
      continue;
    }
    const element = doc.createElement(tag.tag);
    if (tag.tag === 'meta') {
      element.setAttribute(tag.attribute, tag.key);
      element.setAttribute('content', tag.content);
    } else {
      element.setAttribute('rel', tag.rel);
      element.setAttribute('href', tag.href);
    }
    element.setAttribute(HEAD_ATTRIBUTE, '');
    doc.head.append(element);
  }
}
