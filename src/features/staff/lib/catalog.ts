import { z } from '@/config/zod-config';
import { tiers, type Tier } from '@/content/tiers';

/**
 * The staff catalog page's data (public.staff_catalog(), untyped jsonb, checked at the edge)
 * and its form: what staff type, checked the way the database checks it
 * (migration 20261127020200_catalog_staff.sql), so a mistake is shown at its field before
 * anything is sent, and the database's own refusal lands at the same field.
 */
export const providerIdKinds = ['shopify_product', 'shopify_variant', 'stripe_price', 'stripe_product'] as const;
export type ProviderIdKind = (typeof providerIdKinds)[number];

export const providerIdKindLabels: Record<ProviderIdKind, string> = {
  shopify_product: 'Shopify product',
  shopify_variant: 'Shopify variant',
  stripe_price: 'Stripe price',
  stripe_product: 'Stripe product',
};

const tier = z.enum(tiers);
/** A JSON boolean, spelled with the zod parts /auth's forms already load (z.boolean would add to them). */
const flag = z.union([z.literal(true), z.literal(false)]);
const providerIdSchema = z.object({ kind: z.enum(providerIdKinds), id: z.string() });
export type ProviderId = z.infer<typeof providerIdSchema>;

const productSchema = z.object({
  tier,
  name: z.string(),
  price_cents: z.number(),
  total_value_cents: z.number().nullable(),
  total_value_is_floor: flag,
  savings_cents: z.number().nullable(),
  savings_is_floor: flag,
  checkout_url: z.string(),
  sales_video_url: z.string().nullable(),
  updated_at: z.string(),
  provider_ids: z.array(providerIdSchema),
});
export type CatalogProduct = z.infer<typeof productSchema>;

const unmatchedSchema = z.object({
  id: z.string(),
  provider: z.enum(['shopify', 'stripe']),
  order_id: z.string(),
  email: z.string(),
  amount_cents: z.number(),
  currency: z.string(),
  /** Each provider id of the sale's line items once (the database flattens them). */
  provider_ids: z.array(providerIdSchema),
  occurred_at: z.string(),
  refunded_at: z.string().nullable(),
});
export type UnmatchedSale = z.infer<typeof unmatchedSchema>;

const auditSchema = z.object({
  id: z.number(),
  changed_at: z.string(),
  changed_by_email: z.string().nullable(),
  tier,
  what: z.enum(['product', 'provider_id', 'coaching', 'benefit']),
  operation: z.enum(['insert', 'update', 'delete']),
  /** "field: old → new; …", computed by the database (private.catalog_audit_changes). */
  changes: z.string().nullable(),
});
export type CatalogAuditRow = z.infer<typeof auditSchema>;

const catalogSchema = z.object({
  products: z.array(productSchema),
  unmatched_count: z.number(),
  unmatched: z.array(unmatchedSchema),
  audit: z.array(auditSchema),
});
export type StaffCatalog = z.infer<typeof catalogSchema>;

export function parseStaffCatalog(data: unknown): StaffCatalog {
  return catalogSchema.parse(data);
}

/** "49", "24.95", "$1,495.00" → cents; null when it is not an amount in dollars and cents. */
export function parseDollars(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Cents as the form shows them: 4900 → "49", 2495 → "24.95". */
export function centsToDollars(cents: number | null): string {
  if (cents === null) return '';
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/** The one player the site's Content-Security-Policy frames (scripts/build/security-headers.mjs). */
const videoEmbed = /^https:\/\/www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{1,100}$/;
/** An https link as the catalog tables' check constraints accept it. */
export const httpsUrl = /^https:\/\/[^\s/?#@]+\.[^\s/?#@]+(\/\S*)?$/;
const priceMessage = 'must be an amount in dollars and cents, like 49 or 24.95';
const videoMessage = 'The sales video must be a YouTube embed link: https://www.youtube-nocookie.com/embed/<video id>';

/** What staff typed in a product's form. */
export type ProductFormValues = {
  name: string;
  price: string;
  total_value: string;
  savings: string;
  checkout_url: string;
  sales_video_url: string;
  provider_ids: string;
  total_value_is_floor: boolean;
  savings_is_floor: boolean;
};

export type ProductFormData = {
  name: string;
  price: number;
  total_value: number | null;
  savings: number | null;
  checkout_url: string;
  sales_video_url: string | null;
  provider_ids: ProviderId[];
  total_value_is_floor: boolean;
  savings_is_floor: boolean;
};

type Checked<T> = { value: T; error?: string };

function amount(text: string, label: string, required: boolean): Checked<number | null> {
  if (text.trim() === '') return required ? { value: null, error: `${label} is required` } : { value: null };
  const cents = parseDollars(text);
  if (cents === null || (required && cents < 1)) return { value: null, error: `${label} ${priceMessage}` };
  return { value: cents };
}

function link(text: string, label: string, required: boolean): Checked<string | null> {
  const url = text.trim();
  if (url === '') return required ? { value: null, error: `${label} is required` } : { value: null };
  if (!httpsUrl.test(url) || url.length > 2000) return { value: null, error: `${label} must be an https:// link` };
  return { value: url };
}

/** One provider id a line: "stripe_price price_123"; an id another product holds is refused. */
function providerIds(text: string, otherProducts: ReadonlyMap<string, string>): Checked<ProviderId[]> {
  const ids: ProviderId[] = [];
  for (const line of text.split('\n')) {
    const [kind, id, extra] = line.trim().split(/\s+/);
    if (!kind) continue;
    if (!providerIdKinds.includes(kind as ProviderIdKind) || !id || extra || !/^[A-Za-z0-9_.:-]{1,255}$/.test(id)) {
      return { value: ids, error: `“${line.trim()}” is not a kind and an id, like “stripe_price price_123”` };
    }
    const holder = otherProducts.get(`${kind}:${id}`);
    if (holder) return { value: ids, error: `${id} already grants ${holder}: one provider id grants one product` };
    ids.push({ kind: kind as ProviderIdKind, id });
  }
  return { value: ids };
}

/**
 * The product form's checks, the database's own (staff_save_product): each field's first
 * problem, or the data to save. `otherProducts` maps each id another product holds to its name.
 */
export function checkProductForm(
  values: ProductFormValues,
  otherProducts: ReadonlyMap<string, string>,
): { ok: true; data: ProductFormData } | { ok: false; errors: Partial<Record<string, string>> } {
  const name = values.name.trim();
  const video = link(values.sales_video_url, 'The sales video', false);
  if (!video.error && video.value !== null && !videoEmbed.test(video.value)) video.error = videoMessage;
  const fields = {
    name: {
      value: name,
      error: name === '' ? 'A name is required' : name.length > 80 ? 'A name is at most 80 characters' : undefined,
    },
    price: amount(values.price, 'The price', true),
    total_value: amount(values.total_value, 'The total value', false),
    savings: amount(values.savings, 'The savings', false),
    checkout_url: link(values.checkout_url, 'A checkout link', true),
    sales_video_url: video,
    provider_ids: providerIds(values.provider_ids, otherProducts),
  };
  const errors = Object.fromEntries(
    Object.entries(fields).flatMap(([key, field]) => (field.error ? [[key, field.error]] : [])),
  );
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    data: {
      name,
      price: fields.price.value ?? 0,
      total_value: fields.total_value.value,
      savings: fields.savings.value,
      checkout_url: fields.checkout_url.value ?? '',
      sales_video_url: fields.sales_video_url.value,
      provider_ids: fields.provider_ids.value,
      total_value_is_floor: values.total_value_is_floor,
      savings_is_floor: values.savings_is_floor,
    },
  };
}

/** Provider ids as the form's text: one "kind id" a line. */
export function providerIdsText(ids: readonly ProviderId[]): string {
  return ids.map((p) => `${p.kind} ${p.id}`).join('\n');
}

/** Every id held by a product other than `tier`, to its product's name. */
export function idsHeldElsewhere(products: readonly CatalogProduct[], tierOfForm: Tier): Map<string, string> {
  return new Map(
    products
      .filter((p) => p.tier !== tierOfForm)
      .flatMap((p) => p.provider_ids.map((id) => [`${id.kind}:${id.id}`, p.name] as const)),
  );
}

/** The form's data as staff_save_product's p_product. */
export function productPayload(data: ProductFormData) {
  return {
    name: data.name,
    price_cents: data.price,
    total_value_cents: data.total_value,
    total_value_is_floor: data.total_value_is_floor,
    savings_cents: data.savings,
    savings_is_floor: data.savings_is_floor,
    checkout_url: data.checkout_url,
    sales_video_url: data.sales_video_url,
    provider_ids: data.provider_ids,
  };
}

/**
 * The form field a database refusal names in its hint (the staff RPC error carries it), or
 * null when the refusal names none.
 */
export function refusedField(error: unknown): string | null {
  const hint = typeof error === 'object' && error !== null && 'hint' in error ? error.hint : null;
  const fields = ['name', 'price', 'total_value', 'savings', 'checkout_url', 'sales_video_url', 'provider_ids'];
  return typeof hint === 'string' && fields.includes(hint) ? hint : null;
}

/** Minor units as money: 4900 USD → "$49.00 USD"; currencies without decimals keep none. */
export function formatMoney(cents: number, currency: string): string {
  const exponent = ['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'HUF'].includes(currency) ? 0 : 2;
  const value = exponent === 0 ? String(cents) : (cents / 100).toFixed(2);
  return `${currency === 'USD' ? '$' : ''}${value} ${currency}`;
}
