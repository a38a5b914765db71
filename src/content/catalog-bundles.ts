import type { PublicCatalogRow } from './catalog-overrides';

/**
 * The bundles' rows of the catalog as the build read them (scripts/build/vite-catalog.mjs
 * serves this module's body); empty as committed. See catalog-overrides.ts.
 */
export const bundleRows: readonly PublicCatalogRow[] = [];
