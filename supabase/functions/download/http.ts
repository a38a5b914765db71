// The download function's HTTP pieces: CORS, JSON answers, the refusals it gives as they are,
// and what it reads from the request (the file's path, the bearer, the caller's address).

/** Hosted functions answer CORS themselves; the site calls this one from the browser. */
export const CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Expose-Headers': 'Server-Timing',
};

/** A link handed to one member for one download is never kept by a browser or a proxy. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** A refusal given as is: its status, a code the site reads, and a message for the member. */
export class DownloadError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, ...NO_STORE, 'Content-Type': 'application/json' },
  });
}

export function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { ...CORS, ...NO_STORE, Location: location } });
}

export const NOT_FOUND = () => new DownloadError(404, 'not_found', 'That file is not in your library.');

/**
 * The object's path in the resources bucket, `{tier}/{slug}/{file}`, from `?path=`. Empty, dot
 * or empty segments, backslashes and control characters are refused here; whether the path is
 * a real file of a tier folder the database decides (authorize_download).
 */
export function requestedPath(url: URL): string {
  const path = url.searchParams.get('path') ?? '';
  const segments = path.split('/');
  const bad =
    path.length === 0 ||
    path.length > 1024 ||
    path.includes('\\') ||
    [...path].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad) throw NOT_FOUND();
  return path;
}

export function bearer(req: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  if (!match?.[1]) throw new DownloadError(401, 'not_signed_in', 'Sign in to download your files.');
  return match[1];
}

export { callerAddress } from '../_shared/caller-address.ts';

export function userAgent(req: Request): string | null {
  return req.headers.get('user-agent')?.slice(0, 512) || null;
}

/** The browser asked for the link itself (the site's click), not to be sent to it. */
export function wantsJson(req: Request): boolean {
  return (req.headers.get('accept') ?? '').includes('application/json');
}
