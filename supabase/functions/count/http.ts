// The count function's HTTP pieces: CORS for the site's pages, the JSON answers, the refusal it
// gives as it is, and a body read that gives up as soon as it passes the limit.
import { readBodyUpTo } from '../_shared/read-body.ts';

/**
 * Any page may send a count: it carries no credential and no cookie. A `text/plain` POST needs
 * no preflight; a browser that sends one anyway is answered with these.
 */
export const CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Max-Age': '86400',
};

/** A refusal given as is: its status, a code, and what was wrong. */
export class CountError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function json(status: number, body: Record<string, unknown>, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, 'Cache-Control': 'no-store', 'Content-Type': 'application/json', ...extra },
  });
}

export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS });
}

const tooLarge = () => new CountError(413, 'too_large', 'A count is at most 1,024 bytes.');

/** The body as UTF-8 text, given up (413) as soon as it passes `limit` bytes (../_shared/read-body.ts). */
export async function readText(req: Request, limit: number): Promise<string> {
  const body = await readBodyUpTo(req, limit, tooLarge);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new CountError(400, 'bad_request', 'The body is not UTF-8 text.');
  }
}
