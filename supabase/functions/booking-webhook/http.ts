// The HTTP pieces of the booking webhook: the JSON answer (with the CORS the staff dashboard's
// GET needs: hosted functions answer CORS themselves), the body read that gives up past a limit,
// and the caller's bearer token.
import { readBodyUpTo } from '../_shared/read-body.ts';
import { BookingError } from './types.ts';

export type LogEntry = { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>;

export const CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
};

export function json(status: number, body: Record<string, unknown>): Response {
  const headers: Record<string, string> = { ...CORS, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  if (status === 405) headers.Allow = 'GET, POST, OPTIONS';
  return new Response(JSON.stringify(body), { status, headers });
}

/** The body, given up (413) as soon as it passes the limit (../_shared/read-body.ts). */
export function readBody(req: Request, maxBodyBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  return readBodyUpTo(req, maxBodyBytes, () => new BookingError(413, 'body too large'));
}

/** The `Authorization: Bearer <token>` token; 401 without one. */
export function bearer(req: Request): string {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '')?.[1];
  if (!token) throw new BookingError(401, 'sign in as staff first');
  return token;
}
