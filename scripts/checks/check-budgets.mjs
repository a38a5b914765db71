#!/usr/bin/env node
// @ts-check
// The public pages' budgets, checked on a build. Fails, naming each problem, when:
//   - a page's initial JavaScript, its CSS or its HTML outgrows its budget (gzip sizes);
//   - supabase-js, zod, react-query or Radix dialog/tabs sits in the initial chunks of `/`,
//     `/bundles` or `/upgrade`;
//   - a prerendered page lacks its <h1>, <title>, description, canonical or Open Graph /
//     Twitter card tags;
//   - an <img> or <iframe> has no width and height, in the prerendered HTML or in the JSX.
//
// "First-load" JavaScript: the entry chunk and its static imports, what every page runs as it
// loads. A prerendered page for a first-time visitor runs only that, and loads the app when
// the visitor first acts (src/boot/main.ts). "Initial chunks" of a route: what hydrates it, the
// first-load chunks plus the app's chunk (src/app/start.tsx) and the route's own lazy chunk
// (src/app/routes/<name>.tsx), with their static imports; read from the module → chunk map
// that scripts/build/vite-chunk-map.mjs writes at build time. Sizes are gzip level 9, as Vite
// reports them. Runs in the test command through e2e/budgets.spec.ts, on the dist/ that the
// end-to-end suite has just built; by hand: `npx vite build && node scripts/checks/check-budgets.mjs`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { CHUNK_MAP_FILE } from '../build/vite-chunk-map.mjs';

// Kilobytes as Vite reports them (1 kB = 1000 bytes), so the budgets read like its build output.
const KB = 1000;

/**
 * The public routes: where their prerendered HTML may be (the static hosts serve either
 * form), the module of their lazy route chunk, and whether the page is a document (it runs
 * its own script and never the app: everything it loads is its first load).
 */
export const PUBLIC_ROUTES = [
  { path: '/', html: ['index.html'], module: 'src/app/routes/home.tsx', document: true },
  {
    path: '/bundles',
    html: ['bundles/index.html', 'bundles.html'],
    module: 'src/app/routes/bundles.tsx',
    document: true,
  },
  {
    path: '/upgrade',
    html: ['upgrade/index.html', 'upgrade.html'],
    module: 'src/app/routes/upgrade.tsx',
    document: true,
  },
  {
    path: '/privacy',
    html: ['privacy/index.html', 'privacy.html'],
    module: 'src/app/routes/privacy.tsx',
    document: true,
  },
  { path: '/auth', html: ['auth/index.html', 'auth.html'], module: 'src/app/routes/auth.tsx', document: false },
];

/** The module the boot script imports to start the app (a chunk of its own). */
export const APP_MODULE = 'src/app/start.tsx';

/**
 * Budgets in gzip bytes (docs/testing.md gives each page's current figure).
 * - The documents (/, /bundles, /upgrade, /privacy) run their own script and never the app:
 *   its first load is all a visitor's page runs (the video's swap, the speculation rules, the
 *   loaders of the framed purchase, of the member's island and of the count): 3.8 KB. That is
 *   3.2 KB before visits were counted plus the 0.6 KB counting may add to the first load
 *   (3.4 KB with it; the count's own chunk, 1.4 KB, comes after the load event:
 *   docs/decisions/099-counting-visits-without-cookies.md).
 * - /auth: first load, the boot script alone, 5 KB: what a first-time visitor's /auth runs
 *   until they act. Then the app: React DOM, the router, the form, zod, Radix tabs and the
 *   label, not supabase-js, which loads after the form shows: 165 KB (159.9 KB when set, from
 *   175 KB before the landing page left the app's entry: docs/decisions/078-auth-budget-175.md).
 * - The public pages are prerendered and their scripts are deferred modules, so first paint
 *   needs no JavaScript: the `blocking` check below keeps it that way.
 * - CSS: one Tailwind file for the whole site: 9 KB.
 * - HTML: 14 KB for every page: the first screen in one round trip.
 * See docs/decisions/098-public-pages-are-documents.md.
 */
export const BUDGETS = {
  firstLoad: { '/': 3.8 * KB, '/bundles': 3.8 * KB, '/upgrade': 3.8 * KB, '/privacy': 3.8 * KB, '/auth': 5 * KB },
  js: { '/': 3.8 * KB, '/bundles': 3.8 * KB, '/upgrade': 3.8 * KB, '/privacy': 3.8 * KB, '/auth': 165 * KB },
  css: { '/': 9 * KB, '/bundles': 9 * KB, '/upgrade': 9 * KB, '/privacy': 9 * KB, '/auth': 9 * KB },
  html: { '/': 14 * KB, '/bundles': 14 * KB, '/upgrade': 14 * KB, '/privacy': 14 * KB, '/auth': 14 * KB },
};

/** Modules kept out of the first load, each with the packages that make it up. */
export const FORBIDDEN_MODULES = [
  { name: 'supabase-js', packages: ['@supabase/'] },
  { name: 'zod', packages: ['zod'] },
  { name: '@tanstack/react-query', packages: ['@tanstack/react-query', '@tanstack/query-core'] },
  { name: '@radix-ui/react-dialog', packages: ['@radix-ui/react-dialog'] },
  { name: '@radix-ui/react-tabs', packages: ['@radix-ui/react-tabs'] },
  // cn's conflict check, for tests and dev only: its class map costs ~46 ms on the first render.
  { name: 'tailwind-merge', packages: ['tailwind-merge'] },
  // The documents run no React at all (docs/decisions/098-public-pages-are-documents.md).
  { name: 'react-dom', packages: ['react-dom'] },
  { name: 'react', packages: ['react', 'scheduler'] },
  { name: 'react-router', packages: ['react-router', 'react-router-dom'] },
];
/** The routes whose initial chunks must be free of them. */
export const LEAN_ROUTES = ['/', '/bundles', '/upgrade', '/privacy'];

/** What every prerendered page's <head> and <body> must carry. */
/**
 * What in a page's HTML would hold its first paint until a download finishes: a classic
 * `<script src>` without `defer` or `async`, or a stylesheet `<link>` (the CSS is inlined).
 * Module scripts are deferred by definition.
 * @param {string} html
 * @returns {string[]}
 */
export function renderBlocking(html) {
  const problems = [];
  for (const script of htmlTags(html, 'script')) {
    if (
      script.src !== undefined &&
      script.type !== 'module' &&
      script.defer === undefined &&
      script.async === undefined
    ) {
      problems.push(`a render-blocking <script src="${script.src}">`);
    }
  }
  for (const link of htmlTags(html, 'link')) {
    const rels = (link.rel ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('stylesheet') && (link.media === undefined || link.media === 'all' || link.media === 'screen')) {
      problems.push(`a render-blocking stylesheet <link href="${link.href ?? ''}">`);
    }
  }
  return problems;
}

export const REQUIRED_TAGS = [
  { name: '<h1>', test: (/** @type {string} */ html) => /<h1\b[^>]*>[\s\S]*?\S[\s\S]*?<\/h1>/i.test(html) },
  { name: '<title>', test: (/** @type {string} */ html) => /<title>\s*\S[\s\S]*?<\/title>/i.test(html) },
  { name: 'meta description', test: metaTest('name', 'description') },
  { name: 'canonical link', test: linkTest('canonical') },
  ...['og:title', 'og:description', 'og:url', 'og:type', 'og:image'].map((property) => ({
    name: property,
    test: metaTest('property', property),
  })),
  { name: 'twitter:card', test: metaTest('name', 'twitter:card') },
];

/**
 * @typedef {{ check: 'js' | 'css' | 'html' | 'forbidden' | 'prerender' | 'blocking' | 'media', route?: string, message: string }} Failure
 * @typedef {{ route: string, firstLoad: number, js: number, css: number, html: number | null, chunks: string[] }} Measurement
 */

/** @param {string | Buffer} data */
export function gzipSize(data) {
  return gzipSync(data, { level: 9 }).length;
}

/** @param {number} bytes */
export function kb(bytes) {
  return `${(bytes / KB).toFixed(1)} kB`;
}

/**
 * Attributes of every `<tag ...>` in an HTML string (names lower-cased).
 * @param {string} html
 * @param {string} tag
 * @returns {Record<string, string>[]}
 */
export function htmlTags(html, tag) {
  const found = [];
  const open = new RegExp(`<${tag}\\b((?:[^>"']|"[^"]*"|'[^']*')*)>`, 'gi');
  for (const match of html.matchAll(open)) {
    /** @type {Record<string, string>} */
    const attrs = {};
    for (const attr of (match[1] ?? '').matchAll(/([^\s=/"'>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?/g)) {
      const name = (attr[1] ?? '').toLowerCase();
      attrs[name] = (attr[2] ?? '').replace(/^(["'])([\s\S]*)\1$/, '$2');
    }
    found.push(attrs);
  }
  return found;
}

/** @param {string} attribute @param {string} value */
function metaTest(attribute, value) {
  return (/** @type {string} */ html) =>
    htmlTags(html, 'meta').some((meta) => meta[attribute] === value && (meta.content ?? '').trim() !== '');
}

/** @param {string} rel */
function linkTest(rel) {
  return (/** @type {string} */ html) =>
    htmlTags(html, 'link').some((link) => (link.rel ?? '').split(/\s+/).includes(rel) && (link.href ?? '') !== '');
}

/**
 * The package a module belongs to (`@scope/name` or `name`), or null for the app's own code.
 * @param {string} moduleId
 */
export function packageOf(moduleId) {
  const at = moduleId.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const parts = moduleId.slice(at + 'node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? null);
}

/**
 * The chunk files a route loads to hydrate: its entry chunk(s) (`entries`, by default every
 * entry), the app's chunk, the route's own lazy chunk, and everything they import statically.
 * @param {ChunkMap} map
 * @param {string} routeModule
 * @param {string[]} [entries]
 * @returns {string[]}
 */
export function initialChunks(map, routeModule, entries = entryChunks(map)) {
  return withStaticImports(map, [
    ...entries,
    ...Object.entries(map.chunks)
      .filter(
        ([, chunk]) =>
          chunk.isDynamicEntry && (chunk.facadeModuleId === routeModule || chunk.facadeModuleId === APP_MODULE),
      )
      .map(([file]) => file),
  ]);
}

/**
 * The chunk files a page runs as it loads: its entry chunk(s) (`entries`, by default every
 * entry) and their static imports.
 * @param {ChunkMap} map
 * @param {string[]} [entries]
 * @returns {string[]}
 */
export function firstLoadChunks(map, entries = entryChunks(map)) {
  return withStaticImports(map, entries);
}

/** @param {ChunkMap} map @returns {string[]} every entry chunk of the build */
function entryChunks(map) {
  return Object.entries(map.chunks)
    .filter(([, chunk]) => chunk.isEntry)
    .map(([file]) => file);
}

/**
 * The entry chunk a page's HTML loads (its module script), when it names one of the build's.
 * @param {ChunkMap} map @param {string | null} html
 * @returns {string[]}
 */
function pageEntries(map, html) {
  const scripts = html ? htmlTags(html, 'script').filter((script) => script.type === 'module' && script.src) : [];
  const files = scripts
    .map((script) => (script.src ?? '').replace(/^\//, ''))
    .filter((file) => map.chunks[file]?.isEntry);
  return files.length > 0 ? files : entryChunks(map);
}

/**
 * @param {ChunkMap} map
 * @param {string[]} roots
 * @returns {string[]} the roots and every chunk they import statically, sorted
 */
function withStaticImports(map, roots) {
  const seen = new Set();
  const queue = [...roots];
  while (queue.length) {
    const file = /** @type {string} */ (queue.shift());
    if (seen.has(file) || !map.chunks[file]) continue;
    seen.add(file);
    queue.push(...map.chunks[file].imports);
  }
  return [...seen].sort();
}

/**
 * `<img>` and `<iframe>` elements in TSX source without both a width and a height.
 * A spread (`{...props}`) cannot be read statically, so it counts as missing.
 * @param {string} fileName for the messages
 * @param {string} source
 * @returns {string[]}
 */
export function unsizedMediaInJsx(fileName, source) {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  /** @type {string[]} */
  const problems = [];
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      const tag = node.tagName.getText(file);
      if (tag === 'img' || tag === 'iframe') {
        const names = node.attributes.properties.filter(ts.isJsxAttribute).map((attr) => attr.name.getText(file));
        const missing = ['width', 'height'].filter((name) => !names.includes(name));
        if (missing.length) {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
          problems.push(`${fileName}:${line + 1} <${tag}> has no ${missing.join(' or ')}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

/**
 * `<img>` and `<iframe>` elements in HTML without both a width and a height.
 * @param {string} label for the messages
 * @param {string} html
 * @returns {string[]}
 */
export function unsizedMediaInHtml(label, html) {
  return ['img', 'iframe'].flatMap((tag) =>
    htmlTags(html, tag)
      .filter((attrs) => !attrs.width || !attrs.height)
      .map((attrs) => `${label}: <${tag}${attrs.src ? ` src="${attrs.src}"` : ''}> has no width and height`),
  );
}

/** @param {string} dir @returns {string[]} every file under dir, relative to it */
export function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => statSync(path.join(dir, entry)).isFile())
    .map((entry) => entry.split(path.sep).join('/'));
}

/**
 * @typedef {import('../build/vite-chunk-map.mjs').ChunkMap} ChunkMap
 * @typedef {typeof PUBLIC_ROUTES[number]} PublicRoute
 * @typedef {(file: string) => Buffer} ReadDist
 */

/**
 * A page's CSS, gzip: what its HTML links or inlines, plus what its lazy chunks load. The
 * entry's own CSS counts only through the HTML (a prerendered page may inline it and drop the
 * link); without a page, the entry's CSS stands in.
 * @param {ChunkMap} map @param {string[]} chunks @param {string | null} html
 * @param {string} distDir @param {ReadDist} read
 */
function pageCssSize(map, chunks, html, distDir, read) {
  const cssFiles = new Set(
    chunks.flatMap((file) => (html && map.chunks[file]?.isEntry ? [] : (map.chunks[file]?.css ?? []))),
  );
  for (const link of html ? htmlTags(html, 'link') : []) {
    const rel = (link.rel ?? '').split(/\s+/);
    const href = (link.href ?? '').replace(/^\//, '');
    if ((rel.includes('stylesheet') || link.as === 'style') && existsSync(path.join(distDir, href))) {
      cssFiles.add(href);
    }
  }
  const inlineCss = html ? [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]).join('') : '';
  const cssText = [...cssFiles].map((file) => read(file).toString('utf8')).join('') + inlineCss;
  return cssText ? gzipSize(cssText) : 0;
}

/**
 * One route's sizes, with the HTML they were read from.
 * @param {ChunkMap} map @param {PublicRoute} route @param {string} distDir @param {ReadDist} read
 */
function measureRoute(map, route, distDir, read) {
  const htmlFile = route.html.find((candidate) => existsSync(path.join(distDir, candidate)));
  const html = htmlFile ? read(htmlFile).toString('utf8') : null;
  const entries = pageEntries(map, html);
  const bootChunks = firstLoadChunks(map, entries);
  // A document never loads the app: what it runs as it loads is all a visitor's page runs.
  const chunks = route.document ? bootChunks : initialChunks(map, route.module, entries);
  const js = chunks.reduce((sum, file) => sum + gzipSize(read(file)), 0);
  const firstLoad = bootChunks.reduce((sum, file) => sum + gzipSize(read(file)), 0);
  const css = pageCssSize(map, chunks, html, distDir, read);
  /** @type {Measurement} */
  const measurement = { route: route.path, firstLoad, js, css, html: html === null ? null : gzipSize(html), chunks };
  return { measurement, bootChunks, html, htmlFile };
}

/**
 * The sizes over their budgets.
 * @param {ReturnType<typeof measureRoute>} measured @param {typeof BUDGETS} budgets
 * @returns {Failure[]}
 */
function overBudget({ measurement, bootChunks, htmlFile }, budgets) {
  const { route, chunks } = measurement;
  /** @type {Failure[]} */
  const failures = [];
  const over = (
    /** @type {'firstLoad' | 'js' | 'css' | 'html'} */ kind,
    /** @type {number} */ size,
    /** @type {string} */ what,
  ) => {
    const budget = budgets[kind][/** @type {keyof typeof budgets.js} */ (route)];
    if (budget !== undefined && size > budget) {
      failures.push({
        check: kind === 'firstLoad' ? 'js' : kind,
        route,
        message: `${route}: ${what} ${kb(size)} > budget ${kb(budget)} (gzip)`,
      });
    }
  };
  over('firstLoad', measurement.firstLoad, `first-load JavaScript (${bootChunks.join(', ')})`);
  over('js', measurement.js, `initial JavaScript (${chunks.join(', ')})`);
  over('css', measurement.css, 'CSS');
  if (measurement.html !== null) over('html', measurement.html, `HTML (${htmlFile})`);
  return failures;
}

/**
 * The forbidden modules in a lean route's initial chunks.
 * @param {ChunkMap} map @param {string} route @param {string[]} chunks
 * @returns {Failure[]}
 */
function forbiddenIn(map, route, chunks) {
  if (!LEAN_ROUTES.includes(route)) return [];
  return FORBIDDEN_MODULES.flatMap((forbidden) => {
    const holders = chunks.filter((file) =>
      (map.chunks[file]?.modules ?? []).some((id) => {
        const pkg = packageOf(id);
        return pkg !== null && forbidden.packages.some((p) => (p.endsWith('/') ? pkg.startsWith(p) : pkg === p));
      }),
    );
    if (!holders.length) return [];
    return [
      /** @type {Failure} */ ({
        check: 'forbidden',
        route,
        message: `${route}: ${forbidden.name} is in the initial chunks (${holders.join(', ')})`,
      }),
    ];
  });
}

/**
 * What the prerendered HTML lacks or holds that it should not: missing HTML, render-blocking
 * resources, required tags, unsized media.
 * @param {PublicRoute} route @param {string | null} html @param {string | undefined} htmlFile
 * @returns {Failure[]}
 */
function prerenderProblems(route, html, htmlFile) {
  if (html === null) {
    return [
      {
        check: 'prerender',
        route: route.path,
        message: `${route.path}: no prerendered HTML (${route.html.map((file) => `dist/${file}`).join(' or ')})`,
      },
    ];
  }
  /** @type {Failure[]} */
  const failures = [];
  for (const message of renderBlocking(html)) {
    failures.push({ check: 'blocking', route: route.path, message: `${route.path} (${htmlFile}): ${message}` });
  }
  for (const tag of REQUIRED_TAGS) {
    if (!tag.test(html)) {
      failures.push({
        check: 'prerender',
        route: route.path,
        message: `${route.path}: the prerendered HTML (${htmlFile}) has no ${tag.name}`,
      });
    }
  }
  for (const message of unsizedMediaInHtml(`${route.path} (${htmlFile})`, html)) {
    failures.push({ check: 'media', route: route.path, message });
  }
  return failures;
}

/**
 * Unsized media in the app's JSX (test files aside).
 * @param {string} srcDir
 * @returns {Failure[]}
 */
function unsizedMediaInSources(srcDir) {
  const sources = filesUnder(srcDir).filter((file) => file.endsWith('.tsx') && !/\.test\.tsx$/.test(file));
  return sources.flatMap((file) => {
    const source = readFileSync(path.join(srcDir, file), 'utf8');
    return unsizedMediaInJsx(path.posix.join(path.basename(srcDir), file), source).map(
      (message) => /** @type {Failure} */ ({ check: 'media', message }),
    );
  });
}

/**
 * Checks a build. `srcDir` (the app's source) is scanned for unsized media when given.
 * @param {{ distDir: string, srcDir?: string, budgets?: typeof BUDGETS, routes?: typeof PUBLIC_ROUTES }} options
 * @returns {{ failures: Failure[], measurements: Measurement[] }}
 */
export function checkBudgets({ distDir, srcDir, budgets = BUDGETS, routes = PUBLIC_ROUTES }) {
  /** @type {Failure[]} */
  const failures = [];
  /** @type {Measurement[]} */
  const measurements = [];
  const mapFile = path.join(distDir, CHUNK_MAP_FILE);
  if (!existsSync(mapFile)) {
    failures.push({
      check: 'js',
      message: `${CHUNK_MAP_FILE} is missing from ${distDir}: build with the chunk-map plugin (vite.config.ts)`,
    });
    return { failures, measurements };
  }
  /** @type {ChunkMap} */
  const map = JSON.parse(readFileSync(mapFile, 'utf8'));
  /** @type {ReadDist} */
  const read = (file) => readFileSync(path.join(distDir, file));

  for (const route of routes) {
    const measured = measureRoute(map, route, distDir, read);
    measurements.push(measured.measurement);
    failures.push(...overBudget(measured, budgets));
    failures.push(...forbiddenIn(map, route.path, measured.measurement.chunks));
    failures.push(...prerenderProblems(route, measured.html, measured.htmlFile));
  }
  if (srcDir) failures.push(...unsizedMediaInSources(srcDir));
  return { failures, measurements };
}

/** A plain-text table of the measurements against the budgets. */
export function formatReport(
  /** @type {{ failures: Failure[], measurements: Measurement[] }} */ result,
  budgets = BUDGETS,
) {
  const rows = result.measurements.map((m) => {
    const key = /** @type {keyof typeof budgets.js} */ (m.route);
    return [
      m.route,
      `${kb(m.firstLoad)} / ${kb(budgets.firstLoad[key])}`,
      `${kb(m.js)} / ${kb(budgets.js[key])}`,
      `${kb(m.css)} / ${kb(budgets.css[key])}`,
      m.html === null ? 'not prerendered' : `${kb(m.html)} / ${kb(budgets.html[key])}`,
    ];
  });
  const header = ['page', 'first-load JS (gzip / budget)', 'all JS it runs', 'CSS', 'HTML'];
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]?.length ?? 0)));
  const lines = table.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '));
  const verdict = result.failures.length
    ? `\n${result.failures.length} budget failure(s):\n${result.failures.map((f) => `  - [${f.check}] ${f.message}`).join('\n')}`
    : '\nAll budgets met.';
  return `${lines.join('\n')}\n${verdict}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const distDir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
  const result = checkBudgets({ distDir, srcDir: path.join(root, 'src') });
  process.stdout.write(formatReport(result));
  process.exit(result.failures.length ? 1 : 0);
}
