// @ts-check
// Vite plugin: after the client build, renders the public pages to HTML with the app's own
// routes and components (src/app/entry-server.tsx, built for Node into .prerender-*, then removed) and
// writes them into dist/: index.html (/), bundles.html (/bundles), ..., and the member pages'
// shells (resources.html: /resources before the member's data, src/app/page-shells.ts). Each page gets its
// head tags, its CSS inlined (no render-blocking stylesheet) and the rendered markup in #root. Every other
// path is served spa.html, the untouched client shell. Also writes sitemap.xml and robots.txt.
import react from '@vitejs/plugin-react';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { SPA_SHELL } from './security-headers.mjs';
import { robotsTxt, sitemapXml } from './seo-files.mjs';

/**
 * Builds the page's HTML from the client's index.html.
 * @param {string} template dist/index.html as Vite wrote it
 * @param {{ html: string, head: string, css: string, preload: string[], headEnd?: string, script?: string, scriptImports?: string[] }} page
 *   headEnd: markup for the end of <head> (a document's speculation rules); script: the
 *   module that page loads instead of the app's boot script (a document's own script);
 *   scriptImports: the chunks that script imports statically, preloaded beside it
 */
export function pageHtml(template, { html, head, css, preload, headEnd = '', script, scriptImports = [] }) {
  const stylesheet = /<link rel="stylesheet"[^>]*href="[^"]+\.css"[^>]*>/;
  if (!stylesheet.test(template)) throw new Error('index.html has no stylesheet link to inline');
  if (!template.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root');
  const boot = /<script type="module" crossorigin src="[^"]+"><\/script>/;
  if (script && !boot.test(template)) throw new Error('index.html has no module script to replace');
  // The script's own static imports, asked for with it rather than after it has been parsed: a
  // round trip less before a Play tapped at first paint is answered.
  const scriptPreloads = scriptImports.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`).join('');
  const preloads = preload.map((href) => `\n    <link rel="modulepreload" crossorigin href="${href}">`).join('');
  return (
    template
      // The page's own tags take the place of index.html's title and description.
      .replace(/<title>[\s\S]*?<\/title>/, () => head)
      .replace(/\s*<meta\s+name="description"[\s\S]*?>/, '')
      // Functions, so a `$` in the CSS or the markup is not read as a replacement pattern.
      .replace(stylesheet, () => `${preloads ? `${preloads.trimStart()}\n    ` : ''}<style>${css}</style>`)
      .replace('<div id="root"></div>', () => `<div id="root">${html}</div>`)
      // async: it runs as soon as it arrives, not once the whole page is parsed (a 60 kB page
      // at 6x CPU is parsed long after its first paint), so a Play tapped at first paint is
      // answered then.
      .replace(boot, (tag) =>
        script ? `${scriptPreloads}<script type="module" async crossorigin src="${script}"></script>` : tag,
      )
      .replace('</head>', () => (headEnd ? `  ${headEnd}\n  </head>` : '</head>'))
  );
}

/**
 * The shell for every path that is not prerendered: index.html, kept out of search results.
 * @param {string} template
 */
export function shellHtml(template) {
  return template.replace('</head>', '  <meta name="robots" content="noindex" />\n  </head>');
}

/**
 * The documents' script in the client build (its entry chunk, by the module it was built from)
 * and the chunks it imports statically, as the page names them.
 * @param {Record<string, any>} bundle @param {string} moduleId
 * @returns {{ script: string, imports: string[] }}
 */
function documentScriptOf(bundle, moduleId) {
  const chunk = Object.values(bundle).find(
    (each) => each.type === 'chunk' && each.isEntry && each.facadeModuleId?.endsWith(moduleId),
  );
  if (!chunk) throw new Error(`the client build has no entry ${moduleId}`);
  return { script: `/${chunk.fileName}`, imports: staticImports(bundle, chunk.fileName).map((file) => `/${file}`) };
}

/**
 * Every chunk `file` imports statically, directly or through another, in the order found.
 * @param {Record<string, { type: string, imports?: string[] }>} bundle @param {string} file
 * @returns {string[]}
 */
function staticImports(bundle, file) {
  /** @type {Set<string>} */
  const found = new Set();
  const queue = [file];
  while (queue.length > 0) {
    const chunk = bundle[/** @type {string} */ (queue.shift())];
    if (chunk?.type !== 'chunk') continue;
    for (const imported of chunk.imports ?? []) {
      if (found.has(imported)) continue;
      found.add(imported);
      queue.push(imported);
    }
  }
  return [...found];
}

/**
 * Writes a prerendered page into the build and logs its sizes, as Vite logs its chunks.
 * @param {string} outDir @param {string} file @param {string} pathname @param {string} html
 * @param {import('vite').Logger} logger
 */
async function writePage(outDir, file, pathname, html, logger) {
  await writeFile(path.join(outDir, file), html);
  const gzip = gzipSync(html, { level: 9 }).length;
  const brotli = brotliCompressSync(html).length;
  logger.info(
    `prerendered ${pathname.padEnd(10)} dist/${file.padEnd(14)} ${kilobytes(html.length)} │ gzip: ${kilobytes(gzip)} │ brotli: ${kilobytes(brotli)}`,
  );
}

function kilobytes(/** @type {number} */ bytes) {
  return `${(bytes / 1000).toFixed(2)} kB`;
}

/**
 * @param {{ entry?: string, documentScript?: string, plugins?: import('vite').PluginOption[], documentHeadEnd?: string }} [options]
 *   documentScript: the client build's entry that the documents (the public pages without
 *   React) load instead of the app's boot script; plugins: the client build's plugins the
 *   server build needs too (the catalog's, so both show one catalog); documentHeadEnd: markup
 *   for the end of each document's <head> (not /auth, a member page's shell, nor spa.html)
 * @returns {import('vite').Plugin}
 */
export function prerenderPlugin({
  entry = 'src/app/entry-server.tsx',
  documentScript = 'src/document/main.ts',
  plugins = [],
  documentHeadEnd = '',
} = {}) {
  /** @type {import('vite').ResolvedConfig} */
  let config;
  return {
    name: 'yyc-prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle(options, bundle) {
      const documentScripts = documentScriptOf(bundle, documentScript);
      const outDir = options.dir ?? path.resolve(config.root, config.build.outDir);
      // Inside the project, so Node resolves the server build's packages from node_modules.
      const serverDir = await mkdtemp(path.join(config.root, '.prerender-'));
      try {
        await build({
          configFile: false,
          root: config.root,
          mode: config.mode,
          envDir: config.envDir,
          logLevel: 'warn',
          resolve: { alias: config.resolve.alias },
          plugins: [...plugins, react()],
          build: {
            ssr: entry,
            outDir: serverDir,
            emptyOutDir: true,
            copyPublicDir: false,
            minify: false,
            rollupOptions: { output: { format: 'es', entryFileNames: 'entry-server.mjs' } },
          },
        });
        /** @type {typeof import('../../src/app/entry-server')} */
        const server = await import(pathToFileURL(path.join(serverDir, 'entry-server.mjs')).href);

        const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
        const cssHref = /<link rel="stylesheet"[^>]*href="([^"]+\.css)"/.exec(template)?.[1];
        if (!cssHref) throw new Error('index.html has no stylesheet link to inline');
        const css = await readFile(path.join(outDir, cssHref), 'utf8');
        await writeFile(path.join(outDir, SPA_SHELL), shellHtml(template));

        const indexable = [];
        for (const pathname of server.builtPages) {
          const page = await server.render(pathname);
          if (page.indexable) indexable.push(pathname);
          const html = pageHtml(template, {
            ...page,
            css,
            // No modulepreload for the route's chunk: on a slow link the preloads took bandwidth
            // from the page and held its first paint (Lighthouse, see vite.config.ts). A
            // document loads its own script, and never the app.
            preload: [],
            headEnd: page.document ? documentHeadEnd : '',
            script: page.document ? documentScripts.script : undefined,
            scriptImports: page.document ? documentScripts.imports : [],
          });
          await writePage(outDir, server.pageFile(pathname), pathname, html, config.logger);
        }

        const origin = server.origin();
        await writeFile(path.join(outDir, 'sitemap.xml'), sitemapXml(origin, indexable));
        await writeFile(path.join(outDir, 'robots.txt'), robotsTxt(origin, server.privatePaths));
        if (!config.env.VITE_SITE_URL) {
          config.logger.warn(`VITE_SITE_URL is not set: canonical and share URLs use ${origin}.`);
        }
      } finally {
        await rm(serverDir, { recursive: true, force: true });
      }
    },
  };
}
