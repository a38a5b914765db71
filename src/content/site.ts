import { ebookRow } from './catalog-overrides';

/**
 * Everything the owner may want to change without touching components: the product's name,
 * contact address, ebook price and every outside URL. Bundles live in `bundles.ts`.
 */
export const site = {
  productName: 'Yes, You Can!',
  tagline: 'Overcome fear, silence your inner critic and finish your book in 90 days.',
  contactEmail: 'hello@yesyoucanbook.com',
  ebook: {
    price: 24.95,
    originalPrice: 497,
    daysToFinish: 90,
    minutesToStart: 2,
    /**
     * Drawn in public/ as an SVG (the source) and served as a WebP made from it by
     * `node scripts/build/render-cover.mjs`: a picture decodes off the main thread, where the SVG's
     * text had to be laid out on it (a long task on `/`), and looks the same whatever fonts
     * the device has. Width and height reserve its box so nothing shifts.
     */
    cover: { src: '/yes-you-can-cover.webp', width: 320, height: 480, alt: 'Cover of the Yes, You Can! ebook' },
  },
  urls: {
    /** The ebook's product page on the storefront (purchase buttons). */
    storefrontProduct: 'https://shop.yesyoucanbook.com/products/yes-you-can-ebook',
    /** The storefront's home (View Special Offers, Special Offers, Visit Our Shop). */
    storefront: 'https://shop.yesyoucanbook.com',
    /** Hosted checkout for the bundles; each bundle adds its own path (see `bundles.ts`). */
    checkout: 'https://checkout.yesyoucanbook.com',
    /** The separate company site (Get Yes, You Can Now). */
    company: 'https://www.yesyoucanbook.com',
    /**
     * Sales video embed URL, loaded only after the visitor presses play. The spec names no
     * video: replace the id with the programme's own before launch
     * (see docs/decisions/015-placeholder-sales-video.md).
     */
    salesVideoEmbed: 'https://www.youtube-nocookie.com/embed/yes-you-can-sales-video',
    /** Marketplace SDK used when the site runs inside a marketplace frame. */
    marketplaceSdk: 'https://cdn.shopify.com/shopifycloud/app-bridge.js',
  },
} as const;

export function formatPrice(amount: number): string {
  // Thousands separators by hand: toLocaleString would load ICU's number formatting, tens of
  // milliseconds of main thread on the first price a page renders.
  return Number.isInteger(amount) ? `$${String(amount).replace(/\B(?=(\d{3})+$)/g, ',')}` : `$${amount.toFixed(2)}`;
}

/** Cents as the pages' dollar amounts (formatPrice shows whole dollars without decimals). */
export function dollars(cents: number): number {
  return cents / 100;
}

/**
 * The ebook as the catalog sells it (staff change it on /staff/catalog): price and value in
 * dollars, the storefront link and the sales video, as the build read them
 * (scripts/build/vite-catalog.mjs); the spec's figures above otherwise.
 */
export const ebookOffer = {
  price: ebookRow ? dollars(ebookRow.price_cents) : site.ebook.price,
  originalPrice: ebookRow?.total_value_cents != null ? dollars(ebookRow.total_value_cents) : site.ebook.originalPrice,
  storefrontUrl: ebookRow?.checkout_url ?? site.urls.storefrontProduct,
  salesVideoEmbed: ebookRow?.sales_video_url ?? site.urls.salesVideoEmbed,
};
