// The account function's HTTP pieces: CORS, the JSON answer, the refusals it gives as they are,
// and reading the request (body, bearer, route).

/** Hosted functions answer CORS themselves; the site calls this one from the browser. */
export const CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': 'Content-Disposition',
};

/** Nothing this function answers may be kept by the browser or any proxy. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** An answer given as is: its status, a code the site reads, and a message for the member. */
export class AccountError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, ...NO_STORE, 'Content-Type': 'application/json', ...extra },
  });
}

const MAX_BODY_BYTES = 16 * 1024;

export async function readJson(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new AccountError(413, 'too_large', 'The request is too large.');
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new AccountError(400, 'bad_json', 'The request must be a JSON object.');
}

export function bearer(req: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  if (!match?.[1]) throw new AccountError(401, 'not_signed_in', 'Sign in first.');
  return match[1];
}

/** The route: the path segment after `account`. */
export function routeOf(url: URL): string {
  const parts = url.pathname.split('/').filter(Boolean);
  const at = parts.lastIndexOf('account');
  return (at >= 0 ? parts.slice(at + 1) : parts).join('/');
}
