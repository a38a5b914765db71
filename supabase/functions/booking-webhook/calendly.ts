// Calendly: invitee.created records a booking, invitee.canceled ends one; other events are
// answered and ignored. The booking is the invitee (`payload.uri`), not the scheduled event: a
// reschedule is per invitee. It arrives as invitee.canceled with `rescheduled: true` for the old
// invitee, then invitee.created for the new one, whose `old_invitee` names the old
// (https://developer.calendly.com/docs/api-guides/see-how-webhook-payloads-change-when-invitees-reschedule-events).
// The member id the booking link carried as `utm_content=<uuid>` comes back in
// `payload.tracking.utm_content`.
import { MEMBER_ID_FIELD } from '../_shared/booking-link.ts';
import { sameSecret } from '../_shared/same-secret.ts';
import { email, httpsUrl, instant, isObject, parseJsonObject, personName, text } from './payload.ts';
import { calendlySignature, CALENDLY_SIGNATURE_HEADER } from './signing.ts';
import { BookingError, type BookingProvider, type ParsedDelivery } from './types.ts';

/**
 * How far a signature's `t` may be from now. Calendly's documentation rejects a signature older
 * than three minutes (its example's tolerance, 180 000 ms) so that a captured delivery cannot be
 * replayed later; a retry is signed afresh, so a genuine one is never that old. A `t` as far
 * ahead is refused too: only a wrong clock or a forgery makes one.
 */
export const CALENDLY_TOLERANCE_SECONDS = 3 * 60;

/** `t` and every `v1` of a Calendly-Webhook-Signature value; null when it is not one. */
export function readCalendlySignature(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    if (key === 'v1' && value) v1.push(value.toLowerCase());
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

export function parseCalendly(rawBody: Uint8Array<ArrayBuffer>, now: Date): ParsedDelivery {
  const body = parseJsonObject(rawBody);
  const trigger = text(body?.event, 100) ?? '(none)';
  const ignored = (reason: string, unreadable = true) =>
    ({ kind: 'ignored', provider: 'calendly', trigger, reason, unreadable }) as const;
  if (!body) return ignored('the body is not a JSON object');
  if (trigger !== 'invitee.created' && trigger !== 'invitee.canceled')
    return ignored(`event ${trigger} is not a booking change`, false);
  const payload = isObject(body.payload) ? body.payload : {};
  const bookingId = text(payload.uri);
  if (!bookingId) return ignored('payload.uri is missing');
  const scheduled = isObject(payload.scheduled_event) ? payload.scheduled_event : {};
  const location = isObject(scheduled.location) ? scheduled.location : {};
  const tracking = isObject(payload.tracking) ? payload.tracking : {};
  const created = trigger === 'invitee.created';
  const fullName = [text(payload.first_name), text(payload.last_name)].filter(Boolean).join(' ');
  return {
    kind: 'booking',
    provider: 'calendly',
    trigger,
    event: created ? 'created' : payload.rescheduled === true ? 'rescheduled' : 'cancelled',
    bookingId,
    previousBookingId: created ? text(payload.old_invitee) : null,
    memberId: text(tracking[MEMBER_ID_FIELD.calendly.payloadKey], 100),
    email: email(payload.email),
    name: personName(payload.name) ?? personName(fullName),
    startsAt: instant(scheduled.start_time),
    endsAt: instant(scheduled.end_time),
    meetingUrl: httpsUrl(location.join_url),
    occurredAt: instant(body.created_at) ?? now.toISOString(),
  };
}

/** Calendly with its signing key; a null key (unset or switched off) refuses every delivery. */
export function calendlyProvider(key: string | null): BookingProvider {
  return {
    name: 'calendly',
    signatureHeader: CALENDLY_SIGNATURE_HEADER.toLowerCase(),
    enabled: key !== null,
    async verify(rawBody, signature, now) {
      if (key === null) throw new BookingError(401, 'Calendly is not enabled: CALENDLY_WEBHOOK_SIGNING_KEY is not set');
      const parts = readCalendlySignature(signature);
      if (!parts) throw new BookingError(401, 'Calendly-Webhook-Signature is not t=…,v1=…');
      const expected = await calendlySignature(key, parts.t, rawBody);
      if (!parts.v1.some((given) => sameSecret(given, expected)))
        throw new BookingError(401, 'signature does not match');
      if (Math.abs(now.getTime() / 1000 - parts.t) > CALENDLY_TOLERANCE_SECONDS) {
        throw new BookingError(401, 'signature timestamp is more than 3 minutes from now');
      }
    },
    parse: parseCalendly,
  };
}
