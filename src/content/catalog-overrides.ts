/**
 * The catalog's public rows (public.catalog_products) as the build read them: the plugin
 * scripts/build/vite-catalog.mjs serves this module's body at build time and, under
 * `npm run dev`, on every page load. Null and empty as committed, so unit tests and the
 * typecheck see the code's own figures (site.ts, bundles.ts). Prices are in cents. Only data
 * lives here (the plugin replaces the whole module); the ebook's row is apart from the bundles'
 * (catalog-bundles.ts) so the pages that show only the ebook carry only its row.
 */
export type PublicCatalogRow = {
  tier: string;
  name: string;
  price_cents: number;
  total_value_cents: number | null;
  total_value_is_floor: boolean;
  savings_cents: number | null;
  savings_is_floor: boolean;
  checkout_url: string;
  sales_video_url: string | null;
};

/** The ebook's row: only what the pages show of it (every page carries it). */
export type EbookRow = Pick<PublicCatalogRow, 'price_cents' | 'total_value_cents' | 'checkout_url' | 'sales_video_url'>;

export const ebookRow: EbookRow | null = null;
