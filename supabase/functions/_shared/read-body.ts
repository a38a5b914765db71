// A request body read with a limit, for the functions that take bodies from the open internet
// (the purchase webhook, the count): each answers too large in its own words.

/**
 * The body, read chunk by chunk and given up (`tooLarge()` thrown, the stream cancelled) as soon
 * as it passes `limit` bytes, whether or not it declared a length: a chunked body is never read
 * whole before it is measured.
 */
export async function readBodyUpTo(
  req: Request,
  limit: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel('body too large').catch(() => {});
      throw tooLarge();
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
