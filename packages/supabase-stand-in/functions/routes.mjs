// @ts-check
// /functions/v1/<name>[/…]'s route: Edge Functions in Deno (service.mjs), as supabase/edge-runtime
// serves them behind `supabase functions serve`. Mounted after the gateway's
// preflight and before its CORS headers: a function's answer reaches the browser as it sent it.
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { nodeRequest, subPath, urlOf } from '../gateway/kong.mjs';

/**
 * @param {{ serve: (req: any, res: any, sub: string, url: URL) => Promise<Response | null> }} functions
 */
export function functionsRoutes(functions) {
  /** @type {Hono<{ Bindings: import('@hono/node-server').HttpBindings }>} */
  const app = new Hono();
  app.all('*', async (c) => {
    const answer = await functions.serve(nodeRequest(c), c.env.outgoing, subPath(c, '/functions/v1'), urlOf(c));
    // The proxied answer was streamed to the Node response already.
    return answer ?? RESPONSE_ALREADY_SENT;
  });
  return app;
}
