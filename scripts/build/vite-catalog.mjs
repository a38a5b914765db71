// @ts-check
// Vite plugin: the public pages show the catalog as the database has it. The build (and the
// prerender's server build, which takes the same instance) reads the catalog's public columns
// once through the project's REST API with the public (anon) key, and serves them as the modules
// src/content/catalog-overrides.ts (the ebook) and catalog-bundles.ts, whose committed bodies are
// empty: without the plugin (unit tests, the typecheck) the pages show the code's own figures. `npm run dev` reads it again on
// every page load, so a change on /staff/catalog shows at once.
// See docs/decisions/070-public-pages-follow-the-catalog.md.

/** The modules the plugin fills: the ebook's row, and the bundles' rows. */
export const EBOOK_MODULE = '/src/content/catalog-overrides.ts';
export const BUNDLES_MODULE = '/src/content/catalog-bundles.ts';

/** What anon may read of public.catalog_products (its column grants). */
export const PUBLIC_COLUMNS = [
  'tier',
  'name',
  'price_cents',
  'total_value_cents',
  'total_value_is_floor',
  'savings_cents',
  'savings_is_floor',
  'checkout_url',
  'sales_video_url',
];

/**
 * @typedef {{ tier: string, name: string, price_cents: number, total_value_cents: number | null,
 *   total_value_is_floor: boolean, savings_cents: number | null, savings_is_floor: boolean,
 *   checkout_url: string, sales_video_url: string | null }} PublicCatalogRow
 */

/**
 * Reads the catalog's public rows through PostgREST.
 * @param {string} supabaseUrl
 * @param {string} anonKey
 * @param {typeof fetch} [fetchImpl]
 * @returns {Promise<PublicCatalogRow[]>}
 */
export async function readPublicCatalog(supabaseUrl, anonKey, fetchImpl = fetch) {
  const url = `${supabaseUrl.replace(/\/+$/, '')}/rest/v1/catalog_products?select=${PUBLIC_COLUMNS.join(',')}`;
  const res = await fetchImpl(url, { headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` } });
  if (!res.ok) throw new Error(`reading the catalog: HTTP ${res.status} from ${url}`);
  const rows = /** @type {unknown} */ (await res.json());
  if (!Array.isArray(rows) || !rows.every(isPublicRow)) throw new Error('reading the catalog: unexpected answer');
  return rows;
}

/** @param {unknown} row @returns {row is PublicCatalogRow} */
function isPublicRow(row) {
  if (typeof row !== 'object' || row === null) return false;
  const r = /** @type {Record<string, unknown>} */ (row);
  return (
    typeof r.tier === 'string' &&
    typeof r.name === 'string' &&
    typeof r.price_cents === 'number' &&
    typeof r.checkout_url === 'string' &&
    r.checkout_url.startsWith('https://')
  );
}

/**
 * The ebook row's fields the pages show (src/content/site.ts, ebookOffer): every page carries
 * it, so nothing more.
 * @param {PublicCatalogRow | undefined} row
 */
function ebookFields(row) {
  if (!row) return null;
  const { price_cents, total_value_cents, checkout_url, sales_video_url } = row;
  return { price_cents, total_value_cents, checkout_url, sales_video_url };
}

/** A local stand-in or stack (http on this machine): there, a catalog it cannot read only warns. */
function isLocal(/** @type {string} */ supabaseUrl) {
  return /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(supabaseUrl);
}

/**
 * @param {{ fetchImpl?: typeof fetch, log?: (message: string) => void }} [options]
 * @returns {import('vite').Plugin}
 */
export function catalogPlugin({ fetchImpl = fetch, log = (m) => console.warn(m) } = {}) {
  /** @type {{ url: string, key: string }} */
  let project = { url: '', key: '' };
  let serving = false;
  /** Vitest runs this config too: its tests see the committed, empty module. */
  let testing = false;
  /** @type {Promise<PublicCatalogRow[]> | null} */
  let once = null;

  async function read() {
    if (!project.url || !project.key) return [];
    try {
      return await readPublicCatalog(project.url, project.key, fetchImpl);
    } catch (error) {
      // A hosted project's catalog is what the pages must show: never publish stale figures.
      if (!isLocal(project.url)) throw error;
      log(`catalog: ${error instanceof Error ? error.message : String(error)}; showing the code's figures`);
      return [];
    }
  }

  return {
    name: 'yyc-catalog',
    enforce: 'pre',
    configResolved(config) {
      serving = config.command === 'serve';
      testing = config.mode === 'test';
      project = {
        url: String(config.env.VITE_SUPABASE_URL ?? ''),
        key: String(config.env.VITE_SUPABASE_ANON_KEY ?? ''),
      };
    },
    async load(id) {
      const file = id.split('?')[0] ?? '';
      const isEbook = file.endsWith(EBOOK_MODULE);
      if (testing || !(isEbook || file.endsWith(BUNDLES_MODULE))) return null;
      const rows = serving ? await read() : await (once ??= read());
      if (isEbook)
        return `export const ebookRow = ${JSON.stringify(ebookFields(rows.find((row) => row.tier === 'ebook')))};\n`;
      return `export const bundleRows = ${JSON.stringify(rows.filter((row) => row.tier !== 'ebook'))};\n`;
    },
    configureServer(server) {
      // Each page load reads the catalog afresh: the module is dropped from the cache.
      server.middlewares.use((req, _res, next) => {
        if (req.headers.accept?.includes('text/html')) {
          for (const file of [EBOOK_MODULE, BUNDLES_MODULE]) {
            for (const module of server.moduleGraph.getModulesByFile(`${server.config.root}${file}`) ?? []) {
              server.moduleGraph.invalidateModule(module);
            }
          }
        }
        next();
      });
    },
  };
}
