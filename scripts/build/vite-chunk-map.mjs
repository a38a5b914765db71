// @ts-check
// Vite plugin: writes dist/.vite/chunk-map.json, which modules ended up in which chunk and how
// the chunks import each other. Vite's own manifest names chunks but not the modules inside
// them, and the budget check (scripts/checks/check-budgets.mjs) must tell whether supabase-js, zod,
// react-query or Radix dialog/tabs sit in a public page's initial chunks.
import path from 'node:path';

/** Where the map lands inside the build's output directory. */
export const CHUNK_MAP_FILE = '.vite/chunk-map.json';

/**
 * @typedef {object} ChunkEntry
 * @property {boolean} isEntry
 * @property {boolean} isDynamicEntry
 * @property {string | null} facadeModuleId relative to the project root
 * @property {string[]} imports chunk files it imports statically
 * @property {string[]} dynamicImports chunk files it imports with `import()`
 * @property {string[]} css CSS files Vite loads with the chunk
 * @property {string[]} modules modules with code in the chunk, relative to the project root
 *
 * @typedef {{ version: 1, chunks: Record<string, ChunkEntry> }} ChunkMap
 */

/**
 * A module id as a stable, machine-independent name: relative to the root, forward slashes,
 * Vite's query suffixes and the virtual-module marker dropped.
 * @param {string} root
 * @param {string} id
 */
export function moduleName(root, id) {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  if (!path.isAbsolute(clean)) return clean;
  return path.relative(root, clean).split(path.sep).join('/');
}

/**
 * The map for one bundle (Rollup's / Rolldown's output chunks, as `generateBundle` gets them).
 * Modules tree-shaken to nothing stay out: only code that ships counts.
 * @param {string} root
 * @param {Record<string, any>} bundle
 * @returns {ChunkMap}
 */
export function chunkMapOf(root, bundle) {
  /** @type {Record<string, ChunkEntry>} */
  const chunks = {};
  for (const output of Object.values(bundle)) {
    if (output.type !== 'chunk') continue;
    chunks[output.fileName] = {
      isEntry: Boolean(output.isEntry),
      isDynamicEntry: Boolean(output.isDynamicEntry),
      facadeModuleId: output.facadeModuleId ? moduleName(root, output.facadeModuleId) : null,
      imports: [...output.imports],
      dynamicImports: [...output.dynamicImports],
      css: [...(output.viteMetadata?.importedCss ?? [])],
      modules: Object.entries(output.modules ?? {})
        .filter(([, info]) => (info?.renderedLength ?? 1) > 0)
        .map(([id]) => moduleName(root, id))
        .sort(),
    };
  }
  return { version: 1, chunks };
}

/** @returns {import('vite').Plugin} */
export function chunkMapPlugin() {
  /** @type {import('vite').ResolvedConfig} */
  let config;
  return {
    name: 'yyc-chunk-map',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      // A server-side (prerender) build has no browser chunks to budget.
      if (config.build.ssr) return;
      const map = chunkMapOf(config.root, bundle);
      this.emitFile({ type: 'asset', fileName: CHUNK_MAP_FILE, source: `${JSON.stringify(map, null, 2)}\n` });
    },
  };
}
