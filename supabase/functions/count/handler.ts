// The count function, as a plain `(Request) => Response` function:
//
//   POST …/count   body (text/plain): {"k":"view","p":"/bundles","r":"https://…","s":"podcast",…}
//
// One count of a page's view, a checkout click, the sales video's Play or a buyer's return, with
// no cookie and nothing stored that names the visitor. In order: the method (POST; OPTIONS is a
// preflight), the body (at most 1 KB of JSON: 413, 400, 422, request.ts), crawlers and headless
// browsers (202, not counted, visitor.ts), the address's counts this minute in this isolate (429
// over 120), then the count goes into the isolate's buffer (buffer.ts) and is answered at once
// with 202. The buffer writes its counts with one `public.count_visits` call (service-role key)
// per batch, which hashes the address and user agent with the day's salt, resolves each count's
// attribution and holds each address to 120 counts a minute across isolates (the database drops
// the rest). A refused request writes nothing.
import {
  createCountBuffer,
  createMinuteLimit,
  type CountRpc,
  type LogEntry,
  type Timers,
  type VisitCount,
} from './buffer.ts';
import { CountError, json, preflight, readText } from './http.ts';
import { MAX_BODY_BYTES, parseCount, type CountInput } from './request.ts';
import { callerAddress, deviceOf, isBot, referrerHost, siteOf } from './visitor.ts';

export type { CountRpc, LogEntry } from './buffer.ts';

export type CountConfig = { supabaseUrl: string; serviceRoleKey: string; siteUrl: string | null };

export type CountHandlerOptions = {
  rpc: CountRpc;
  /** The site's origin, for a count that comes without an `Origin` header. */
  siteUrl: string | null;
  log?: (entry: LogEntry) => void;
  /** The clock of the per-minute limit (Date.now). */
  now?: () => number;
  /** The buffer's timer (setTimeout). */
  timers?: Timers;
  /** Keeps the isolate alive for a batch's wait and write (hosted: `EdgeRuntime.waitUntil`). */
  waitUntil?: (promise: Promise<unknown>) => void;
};

/** The handler, and `flush` to write the counts still waiting (a shutdown, a test). */
export type CountHandler = ((req: Request) => Promise<Response>) & { flush: () => Promise<void> };

/** What the function needs from its environment (`…/count/secrets` reports it). */
export const COUNT_SECRETS = {
  required: ['SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY'],
  optional: ['SITE_URL'],
} as const;

type Env = Record<string, string | undefined>;

export function readCountConfig(env: Env): CountConfig {
  const required = (name: string) => {
    const value = env[name]?.trim();
    if (!value) throw new Error(`count: ${name} is not set`);
    return value;
  };
  return {
    supabaseUrl: required('SUPABASE_URL'),
    serviceRoleKey: required('SUPABASE_SERVICE_ROLE_KEY'),
    siteUrl: env.SITE_URL?.trim() || null,
  };
}

/** One count of one request, as `count_visits` takes it. */
export function countOf(req: Request, input: CountInput, siteUrl: string | null): VisitCount {
  const userAgent = (req.headers.get('user-agent') ?? '').slice(0, 512);
  const site = siteOf(req, siteUrl);
  return {
    kind: input.kind,
    page: input.page,
    source: input.source,
    medium: input.medium,
    campaign: input.campaign,
    referrer: referrerHost(input.referrer, site),
    bundle: input.bundle,
    device: deviceOf(userAgent),
    // Hosted, Cloudflare always sets the address; without one the count is hashed without it.
    address: callerAddress(req) ?? '',
    user_agent: userAgent,
    site,
  };
}

type Counting = { siteUrl: string | null; take: (address: string) => boolean; add: (count: VisitCount) => void };

async function serve(counting: Counting, req: Request): Promise<Response> {
  if (req.method !== 'POST') throw new CountError(405, 'method_not_allowed', 'Use POST.');
  const input = parseCount(await readText(req, MAX_BODY_BYTES));
  if (isBot(req.headers.get('user-agent'))) return json(202, { counted: false });
  const count = countOf(req, input, counting.siteUrl);
  if (!counting.take(count.address)) {
    return json(429, { counted: false, reason: 'rate' }, { 'Retry-After': '60' });
  }
  counting.add(count);
  return json(202, { counted: true });
}

export function createCountHandler(options: CountHandlerOptions): CountHandler {
  const log = options.log ?? (() => {});
  const buffer = createCountBuffer({ rpc: options.rpc, log, timers: options.timers, waitUntil: options.waitUntil });
  const limit = createMinuteLimit(options.now);
  const counting: Counting = { siteUrl: options.siteUrl, take: limit.take, add: buffer.add };
  const handle = async function handle(req: Request): Promise<Response> {
    if (req.method === 'OPTIONS') return preflight();
    const started = performance.now();
    let response: Response;
    try {
      response = await serve(counting, req);
    } catch (error) {
      if (error instanceof CountError) {
        const allow: Record<string, string> = error.status === 405 ? { Allow: 'POST, OPTIONS' } : {};
        response = json(error.status, { counted: false, error: error.code, message: error.message }, allow);
      } else {
        log({ level: 'error', message: 'count failed', error: String(error) });
        response = json(500, { counted: false, error: 'internal', message: 'The count was not recorded.' });
      }
    }
    // The function's own time (`npm run bench:count` reads it beside the round trip).
    response.headers.set('Server-Timing', `total;dur=${(performance.now() - started).toFixed(1)}`);
    return response;
  };
  return Object.assign(handle, { flush: buffer.flush });
}
