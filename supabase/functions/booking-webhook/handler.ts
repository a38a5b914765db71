// The booking webhook, as a plain `(Request) => Response` function: index.ts hands it to
// Deno.serve, the tests call it directly.
//
//   POST …/booking-webhook   a Cal.com or Calendly delivery, told apart by its signature header
//   GET  …/booking-webhook   staff only: which providers are on (staff.ts)
//
// The provider is picked by the header it signs in (X-Cal-Signature-256, Calendly-Webhook-
// Signature), not by the URL: each provider sends only its own, so one URL serves both and a
// delivery is always checked by its own provider's rules. Order matters: the signature is checked
// over the raw bytes before anything is parsed, and nothing is written unless it is good. Every
// verified delivery is answered 200 (recorded, or understood and ignored): Calendly retries
// anything else for 24 hours and then disables the webhook, so only a failure of ours (the
// database) is a 500, which the provider's retry then records.
import { CORS, json, readBody, type LogEntry } from './http.ts';
import { staffStatus } from './staff.ts';
import { BookingError, type BookingEvent, type BookingProvider, type BookingStore, type StaffCheck } from './types.ts';

export type { LogEntry } from './http.ts';

export type BookingHandlerOptions = {
  /** Both providers, each on or off (config.ts). */
  providers: readonly BookingProvider[];
  store: BookingStore;
  isStaff: StaffCheck;
  log?: (entry: LogEntry) => void;
  now?: () => Date;
  maxBodyBytes?: number;
};

/** Bookings are a few KB; this is the purchase webhook's limit too. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The provider whose signature header the request carries; 401 with none, or with both. */
function pickProvider(providers: readonly BookingProvider[], headers: Headers) {
  const signed = providers.flatMap((provider) => {
    const signature = headers.get(provider.signatureHeader);
    return signature === null ? [] : [{ provider, signature }];
  });
  const [only, other] = signed;
  if (!only) throw new BookingError(401, 'no signature: X-Cal-Signature-256 or Calendly-Webhook-Signature');
  if (other) throw new BookingError(401, 'signed for two providers at once');
  return only;
}

async function record(options: BookingHandlerOptions, log: (entry: LogEntry) => void, event: BookingEvent) {
  const result = await options.store.recordBooking(event);
  const { provider, trigger, bookingId } = event;
  const matched = result.userId !== null;
  log({
    level: matched ? 'info' : 'warn',
    message: matched ? 'booking recorded' : 'booking recorded, matched no member (staff assign it)',
    provider,
    trigger,
    bookingId,
    status: result.status,
    overAllowance: result.overAllowance,
  });
  // The provider gets no member id back: only what became of the booking.
  return json(200, {
    ok: true,
    outcome: 'recorded',
    event: event.event,
    status: result.status,
    matched,
    overAllowance: result.overAllowance,
  });
}

async function delivery(options: BookingHandlerOptions, log: (entry: LogEntry) => void, req: Request, now: Date) {
  const { provider, signature } = pickProvider(options.providers, req.headers);
  const raw = await readBody(req, options.maxBodyBytes ?? MAX_BODY_BYTES);
  await provider.verify(raw, signature, now);
  const parsed = provider.parse(raw, now);
  if (parsed.kind === 'booking') return record(options, log, parsed);
  const { trigger, reason, unreadable } = parsed;
  // A verified delivery we cannot read may be a booking lost: said loudly, but answered 200, since
  // a retry would carry the same body and a failing webhook is disabled.
  log({ level: unreadable ? 'error' : 'info', message: 'delivery ignored', provider: provider.name, trigger, reason });
  return json(200, { ok: true, ignored: true, reason });
}

function refusal(log: (entry: LogEntry) => void, err: unknown): Response {
  if (err instanceof BookingError) {
    if (err.status === 401) log({ level: 'warn', message: 'request refused', status: 401, reason: err.message });
    return json(err.status, { ok: false, error: err.message });
  }
  log({ level: 'error', message: 'booking webhook failed', error: err instanceof Error ? err.message : String(err) });
  return json(500, { ok: false, error: 'internal error; the provider will retry' });
}

export function createBookingHandler(options: BookingHandlerOptions): (req: Request) => Promise<Response> {
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  return async (req) => {
    try {
      if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
      if (req.method === 'GET') return await staffStatus(req, options.providers, options.isStaff);
      if (req.method !== 'POST') throw new BookingError(405, 'POST a delivery, or GET as staff');
      return await delivery(options, log, req, now());
    } catch (err) {
      return refusal(log, err);
    }
  };
}
