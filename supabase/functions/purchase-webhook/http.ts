// The HTTP pieces the webhook and the scheduled run share: the JSON answer and a body read
// that gives up as soon as it passes a limit.
import { WebhookError } from './types.ts';

export type LogEntry = { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>;

export function json(status: number, body: Record<string, unknown>): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (status === 405) headers.Allow = 'POST';
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * The body, read chunk by chunk and given up (413) as soon as it passes the limit, whether or
 * not it declared a length: a chunked body is never read whole before it is measured.
 */
export async function readBody(req: Request, maxBodyBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBodyBytes) throw new WebhookError(413, 'body too large');
  if (!req.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBodyBytes) {
      await reader.cancel('body too large').catch(() => {});
      throw new WebhookError(413, 'body too large');
    }
    chunks.push(value);
  }
  const body = new Uint8Array(new ArrayBuffer(total));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
