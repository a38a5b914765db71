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
const providerIdSchema = z.object({ kind: z.enum(providerIdKinds), id: z.string() });
export type ProviderId = z.infer<typeof providerIdSchema>;

const productSchema = z.object({
  tier,
  name: z.string(),
  price_cents: z.number(),
  total_value_cents: z.number().nullable(),
  total_value_is_floor: z.boolean(),
  savings_cents: z.number().nullable(),
  savings_is_floor: z.boolean(),
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
  line_ids: z.array(z.record(z.string(), z.string())),
  occurred_at: z.string(),
  refunded_at: z.string().nullable(),
});
export type UnmatchedSale = z.infer<typeof unmatchedSchema>;

const auditSchema = z.object({
  id: z.number(),
  changed_at: z.string(),
  changed_by_email: z.string().nullable(),
  tier,
  what: z.enum(['product', 'provider_id']),
  operation: z.enum(['insert', 'update', 'delete']),
  old_value: z.record(z.string(), z.unknown()).nullable(),
  new_value: z.record(z.string(), z.unknown()).nullable(),
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

const httpsUrl = /^https:\/\/[^\s/?#@]+\.[^\s/?#@]+(\/\S*)?$/;
const priceMessage = 'must be an amount in dollars and cents, like 49 or 24.95';

function amount(label: string, required: boolean) {
  return z.string().transform((text, ctx) => {
    if (text.trim() === '') {
      if (required) ctx.addIssue({ code: 'custom', message: `${label} is required` });
      return null;
    }
    const cents = parseDollars(text);
    if (cents === null || (required && cents < 1))
      ctx.addIssue({ code: 'custom', message: `${label} ${priceMessage}` });
    return cents;
  });
}

function link(label: string, required: boolean) {
  return z.string().transform((text, ctx) => {
    const url = text.trim();
    if (url === '') {
      if (required) ctx.addIssue({ code: 'custom', message: `${label} is required` });
      return null;
    }
    if (!httpsUrl.test(url) || url.length > 2000)
      ctx.addIssue({ code: 'custom', message: `${label} must be an https:// link` });
    return url;
  });
}

/** One provider id a line: "stripe_price price_123" or a bare id with the line's kind chosen. */
function providerIds(otherProducts: ReadonlyMap<string, string>) {
  return z.string().transform((text, ctx) => {
    const ids: ProviderId[] = [];
    for (const line of text.split('\n')) {
      const [kind, id, extra] = line.trim().split(/\s+/);
      if (!kind) continue;
      if (!providerIdKinds.includes(kind as ProviderIdKind) || !id || extra || !/^[A-Za-z0-9_.:-]{1,255}$/.test(id)) {
        ctx.addIssue({
          code: 'custom',
          message: `“${line.trim()}” is not a kind and an id, like “stripe_price price_123”`,
        });
        return ids;
      }
      const holder = otherProducts.get(`${kind}:${id}`);
      if (holder) {
        ctx.addIssue({ code: 'custom', message: `${id} already grants ${holder}: one provider id grants one product` });
        return ids;
      }
      ids.push({ kind: kind as ProviderIdKind, id });
    }
    return ids;
  });
}

/** The product form's checks; `otherProducts` maps each id another product holds to its name. */
export function productFormSchema(otherProducts: ReadonlyMap<string, string>) {
  return z.object({
    name: z.string().trim().min(1, 'A name is required').max(80, 'A name is at most 80 characters'),
    price: amount('The price', true),
    total_value: amount('The total value', false),
    savings: amount('The savings', false),
    checkout_url: link('A checkout link', true),
    sales_video_url: link('The sales video', false),
    provider_ids: providerIds(otherProducts),
    total_value_is_floor: z.boolean(),
    savings_is_floor: z.boolean(),
  });
}

export type ProductFormData = z.output<ReturnType<typeof productFormSchema>>;

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

/** Every provider id of an unmatched sale, as kind and id pairs (duplicates removed). */
export function unmatchedIds(sale: UnmatchedSale): ProviderId[] {
  const seen = new Set<string>();
  const ids: ProviderId[] = [];
  for (const line of sale.line_ids) {
    for (const [kind, id] of Object.entries(line)) {
      if (!providerIdKinds.includes(kind as ProviderIdKind) || seen.has(`${kind}:${id}`)) continue;
      seen.add(`${kind}:${id}`);
      ids.push({ kind: kind as ProviderIdKind, id });
    }
  }
  return ids;
}

/** Minor units as money: 4900 USD → "$49.00 USD"; currencies without decimals keep none. */
export function formatMoney(cents: number, currency: string): string {
  const exponent = ['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'HUF'].includes(currency) ? 0 : 2;
  const value = exponent === 0 ? String(cents) : (cents / 100).toFixed(2);
  return `${currency === 'USD' ? '$' : ''}${value} ${currency}`;
}
