// Reading a verified delivery's fields without trusting their types: each helper gives the value
// when it has the expected shape and fits what public.coaching_bookings keeps, else null.

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as a JSON object; null when it is not one. */
export function parseJsonObject(rawBody: Uint8Array<ArrayBuffer>): Json | null {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(rawBody));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** A non-empty trimmed string of at most `max` characters, else null. */
export function text(value: unknown, max = 500): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= max ? trimmed : null;
}

/** An e-mail address as the booking keeps it (at most 320 characters, with an @), else null. */
export function email(value: unknown): string | null {
  const address = text(value, 320);
  return address?.includes('@') ? address : null;
}

/** A person's name, cut to the 200 characters the booking keeps. */
export function personName(value: unknown): string | null {
  return text(value, 10_000)?.slice(0, 200) ?? null;
}

/** An instant as ISO 8601 in UTC; null when the value is not a date. */
export function instant(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

/** An https URL with no whitespace, at most 2000 characters (the booking's meeting link), else null. */
export function httpsUrl(value: unknown): string | null {
  const url = text(value, 2000);
  return url && /^https:\/\/\S+$/.test(url) ? url : null;
}

/** The first of `values` that `pick` accepts. */
export function firstOf<T>(pick: (value: unknown) => T | null, ...values: unknown[]): T | null {
  for (const value of values) {
    const picked = pick(value);
    if (picked !== null) return picked;
  }
  return null;
}
