// @ts-check
// Runs in Deno, one process per Edge Function (started by workers.mjs): imports the
// function's index.ts, which calls Deno.serve(handler) as on Supabase, and serves that handler
// on a free loopback port, which it reports on stdout for the stand-in to proxy to. The edge
// runtime does the same: the function's own Deno.serve options (port, hostname) do not apply.
//
//   deno run … packages/supabase-stand-in/functions/host.mjs file:///…/supabase/functions/<name>/index.ts <marker>
// prints `<marker> <port>` once the function serves.

/** @typedef {(request: Request) => Response | Promise<Response>} Handler */
/** @typedef {{ hostname?: string, port?: number, onListen?: (addr: { port: number }) => void, handler?: Handler }} ServeOptions */
/**
 * The part of Deno's API this host uses (Deno's own lib.deno.ns.d.ts; the repo's tsc knows only
 * supabase/functions/tsc-deno-shim.d.ts, which declares what the Edge Functions call).
 * @typedef {{
 *   args: string[],
 *   serve: (...args: unknown[]) => unknown,
 *   env: { delete(name: string): void },
 *   stdin: { readable: AsyncIterable<Uint8Array> },
 *   exit(code: number): never,
 * }} DenoHost
 */
const Deno = /** @type {DenoHost} */ (/** @type {unknown} */ (Reflect.get(globalThis, 'Deno')));

const [entry, marker = 'ready'] = Deno.args;

const serve = Deno.serve.bind(Deno);
let served = false;

Deno.serve = (/** @type {unknown[]} */ ...args) => {
  if (served) throw new Error('an Edge Function calls Deno.serve once');
  served = true;
  const [first, second] = args;
  const handler =
    typeof first === 'function'
      ? first
      : typeof second === 'function'
        ? second
        : /** @type {ServeOptions | undefined} */ (first)?.handler;
  if (typeof handler !== 'function') throw new Error('Deno.serve was called without a handler');
  return serve(
    {
      hostname: '127.0.0.1',
      port: 0,
      onListen: (/** @type {{ port: number }} */ { port }) => console.log(`${marker} ${port}`),
    },
    handler,
  );
};

// As the edge runtime does, the function does not see the machine's own variables (Deno needed
// HOME to find its cache, and adds PATH itself; both were read at start-up).
for (const name of [
  'HOME',
  'PATH',
  'PWD',
  'HOSTNAME',
  'DENO_DIR',
  'DENO_NODE_SHIM_ACTIVE',
  'DENO_NO_UPDATE_CHECK',
  'NO_COLOR',
]) {
  Deno.env.delete(name);
}

// The stand-in holds this process's stdin open: when the stand-in dies without stopping it (a
// crash, a killed test worker), stdin ends and so does this process, rather than living on.
void (async () => {
  for await (const _chunk of Deno.stdin.readable) {
    // nothing is ever sent; the loop only waits for the end
  }
  Deno.exit(0);
})();

if (entry) {
  await import(entry);
  if (!served) {
    console.error(`${entry} never called Deno.serve`);
    Deno.exit(1);
  }
}
