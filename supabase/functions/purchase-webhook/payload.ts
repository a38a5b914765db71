// Reading the providers' JSON defensively: every field is checked before use, and a body that
// lacks what a sale needs is a 400, never a half-recorded purchase.
import { WebhookError, type LineIds } from './types.ts';

export type Json = Record<string, unknown>;

const decoder = new TextDecoder('utf-8', { fatal: true });

export function parseJsonObject(raw: Uint8Array): Json {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(raw));
  } catch {
    throw new WebhookError(400, 'body is not JSON');
  }
  if (!isObject(value)) throw new WebhookError(400, 'body is not a JSON object');
  return value;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An id sent as a number (Shopify) or a string; null when absent or blank. */
export function idString(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '' && value.length <= 255) return value.trim();
  return null;
}

export function requireId(value: unknown, what: string): string {
  const id = idString(value);
  if (id === null) throw new WebhookError(400, `${what} is missing`);
  return id;
}

/** The first present e-mail, trimmed and lower-cased; 400 when there is none that looks like one. */
export function requireEmail(...candidates: unknown[]): string {
  const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
  const email = typeof found === 'string' ? found.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 320) throw new WebhookError(400, 'buyer e-mail is missing');
  return email;
}

export function requireCurrency(value: unknown): string {
  const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!/^[A-Z]{3}$/.test(code)) throw new WebhookError(400, 'currency is missing or not ISO 4217');
  return code;
}

/** How many minor units a currency has (USD 2, JPY 0, KWD 3), from the platform's ICU data. */
export function currencyExponent(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    throw new WebhookError(400, `unknown currency ${currency}`);
  }
}

/** A decimal string ("49.00", "1495") in minor units, without floating point. */
export function decimalToMinorUnits(value: unknown, currency: string): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,15})(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) throw new WebhookError(400, 'amount is missing or not a decimal');
  const exponent = currencyExponent(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > exponent && /[^0]/.test(fraction.slice(exponent))) {
    throw new WebhookError(400, `amount has more decimals than ${currency} allows`);
  }
  const minor = Number(`${match[1]}${fraction.slice(0, exponent).padEnd(exponent, '0')}`);
  if (!Number.isSafeInteger(minor)) throw new WebhookError(400, 'amount is too large');
  return minor;
}

export function requireMinorUnits(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new WebhookError(400, 'amount is missing or not a whole number of minor units');
  }
  return value;
}

/** An ISO timestamp from an ISO string, else `fallback`. */
export function isoOr(value: unknown, fallback: Date): string {
  if (typeof value === 'string') {
    const time = Date.parse(value);
    if (!Number.isNaN(time)) return new Date(time).toISOString();
  }
  return fallback.toISOString();
}

/** A Shopify line item's product and variant ids (either may be absent); null when it has neither. */
export function shopifyLineIds(line: unknown): LineIds | null {
  if (!isObject(line)) return null;
  const ids: LineIds = {};
  const productId = idString(line.product_id);
  const variantId = idString(line.variant_id);
  if (productId !== null) ids.shopify_product = productId;
  if (variantId !== null) ids.shopify_variant = variantId;
  return productId === null && variantId === null ? null : ids;
}

/** A Stripe line item's price id and its product's id (a string, or the expanded product). */
export function stripeLineIds(item: unknown): LineIds | null {
  const price = isObject(item) && isObject(item.price) ? item.price : null;
  if (!price) return null;
  const ids: LineIds = {};
  const priceId = idString(price.id);
  const productId = idString(isObject(price.product) ? price.product.id : price.product);
  if (priceId !== null) ids.stripe_price = priceId;
  if (productId !== null) ids.stripe_product = productId;
  return priceId === null && productId === null ? null : ids;
}
