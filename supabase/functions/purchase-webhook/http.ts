// The HTTP pieces the webhook and the scheduled run share: the JSON answer and a body read
// that gives up as soon as it passes a limit.
import { readBodyUpTo } from '../_shared/read-body.ts';
import { WebhookError } from './types.ts';

export type LogEntry = { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>;

export function json(status: number, body: Record<string, unknown>): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (status === 405) headers.Allow = 'POST';
  return new Response(JSON.stringify(body), { status, headers });
}

/** The body, given up (413) as soon as it passes the limit (../_shared/read-body.ts). */
export function readBody(req: Request, maxBodyBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  return readBodyUpTo(req, maxBodyBytes, () => new WebhookError(413, 'body too large'));
}
