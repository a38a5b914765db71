// What a page sends, checked and cleaned: `{ k, p, r?, s?, m?, c?, b? }` as JSON (the body is
// `text/plain` so the page's `fetch(…, { keepalive })` needs no preflight).
//   k: the kind of count (view, checkout, play, return)
//   p: the page it happened on (/, /bundles, /upgrade, /privacy, /auth)
//   r: the page's referrer URL (at most 500 characters)
//   s, m, c: the utm source, medium and campaign codes
//   b: the bundle a checkout link sells (checkout only)
// Wrong JSON, an unknown key or a value of the wrong type is 400; an unknown kind, page or bundle
// (or a bundle on anything but a checkout) is 422.
import { countedPages } from '../../../src/config/paths.ts';
import { isTier, type Tier } from '../../../src/content/tiers.ts';
import { CountError } from './http.ts';

export const KINDS = ['view', 'checkout', 'play', 'return'] as const;
export type Kind = (typeof KINDS)[number];

/** The pages that count. */
export const PAGES = countedPages;

/** The longest body a count may have. */
export const MAX_BODY_BYTES = 1024;
/** The longest referrer URL a count may carry. */
export const MAX_REFERRER_CHARS = 500;
/** The longest utm code kept; a longer one is cut to this. */
export const MAX_CODE_CHARS = 100;

export type CountInput = {
  kind: Kind;
  page: string;
  referrer: string | null;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  bundle: Tier | null;
};

const KEYS = ['k', 'p', 'r', 's', 'm', 'c', 'b'];
const REQUIRED = ['k', 'p'];

const badRequest = (message: string) => new CountError(400, 'bad_request', message);
const unknown = (message: string) => new CountError(422, 'unknown_value', message);

function object(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('The body is not JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('The body is not a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Every key known, `k` and `p` present, every value a string. */
function checkShape(body: Record<string, unknown>): Record<string, string> {
  const extra = Object.keys(body).filter((key) => !KEYS.includes(key));
  if (extra.length) throw badRequest(`Unknown key: ${extra.join(', ')}.`);
  for (const key of REQUIRED) if (!(key in body)) throw badRequest(`"${key}" is missing.`);
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string') throw badRequest(`"${key}" is not a string.`);
  }
  const strings = body as Record<string, string>;
  if ((strings.r ?? '').length > MAX_REFERRER_CHARS) throw badRequest(`"r" is over ${MAX_REFERRER_CHARS} characters.`);
  return strings;
}

/** A utm code: control characters removed, trimmed, lower-cased, cut to 100 characters; empty is null. */
export function cleanCode(value: string | undefined): string | null {
  if (value === undefined) return null;
  const cleaned = [...value]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .toLowerCase();
  return [...cleaned].slice(0, MAX_CODE_CHARS).join('').trim() || null;
}

function isKind(value: string): value is Kind {
  return (KINDS as readonly string[]).includes(value);
}

function bundleOf(kind: Kind, b: string | undefined): Tier | null {
  if (b === undefined) return null;
  if (!isTier(b)) throw unknown(`Unknown bundle: ${b}.`);
  if (kind !== 'checkout') throw unknown('Only a checkout carries a bundle.');
  return b;
}

/** The count a body holds, or the refusal (400 or 422) that says why not. */
export function parseCount(text: string): CountInput {
  const body = checkShape(object(text));
  const { k = '', p = '', b } = body;
  if (!isKind(k)) throw unknown(`Unknown kind: ${k}.`);
  if (!PAGES.includes(p)) throw unknown(`Unknown page: ${p}.`);
  const bundle = bundleOf(k, b);
  return {
    kind: k,
    page: p,
    referrer: body.r || null,
    source: cleanCode(body.s),
    medium: cleanCode(body.m),
    campaign: cleanCode(body.c),
    bundle,
  };
}
