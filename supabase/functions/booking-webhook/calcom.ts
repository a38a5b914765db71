// Cal.com: BOOKING_CREATED and BOOKING_RESCHEDULED record a booking, BOOKING_CANCELLED cancels
// one; every other trigger (PING, MEETING_ENDED, …) is answered and ignored. The body is
// `{ triggerEvent, createdAt, payload }` (Cal.com's webhook payload reference, version
// 2021-10-20, as fixtures/ keeps its examples). A reschedule is a new booking (`payload.uid`)
// whose `payload.rescheduleUid` names the one it replaces. The member id the booking link
// carried as `metadata[memberId]=<uuid>` comes back in `payload.metadata.memberId`.
import { MEMBER_ID_FIELD } from '../_shared/booking-link.ts';
import { sameSecret } from '../_shared/same-secret.ts';
import {
  email,
  firstOf,
  httpsUrl,
  instant,
  isObject,
  parseJsonObject,
  personName,
  text,
  type Json,
} from './payload.ts';
import { calcomSignature, CALCOM_NO_SECRET, CALCOM_SIGNATURE_HEADER } from './signing.ts';
import { BookingError, type BookingEventKind, type BookingProvider, type ParsedDelivery } from './types.ts';

const EVENTS: Record<string, BookingEventKind> = {
  BOOKING_CREATED: 'created',
  BOOKING_RESCHEDULED: 'created',
  BOOKING_CANCELLED: 'cancelled',
};

/** `responses.<field>.value`, the booking form's answer. */
const answer = (payload: Json, field: string): unknown => {
  const responses = isObject(payload.responses) ? payload.responses : {};
  const entry = responses[field];
  return isObject(entry) ? entry.value : undefined;
};

/** The meeting link: the booking's video link, else its location when that is an https URL. */
function meetingUrl(payload: Json): string | null {
  const metadata = isObject(payload.metadata) ? payload.metadata : {};
  const video = isObject(payload.videoCallData) ? payload.videoCallData : {};
  return firstOf(httpsUrl, metadata.videoCallUrl, video.url, payload.location);
}

export function parseCalcom(rawBody: Uint8Array<ArrayBuffer>, now: Date): ParsedDelivery {
  const body = parseJsonObject(rawBody);
  const trigger = text(body?.triggerEvent, 100) ?? '(none)';
  const event = EVENTS[trigger];
  const ignored = (reason: string, unreadable = true) =>
    ({ kind: 'ignored', provider: 'calcom', trigger, reason, unreadable }) as const;
  if (!body) return ignored('the body is not a JSON object (a custom payload template?)');
  if (!event) return ignored(`trigger ${trigger} is not a booking change`, false);
  const payload = isObject(body.payload) ? body.payload : {};
  const bookingId = text(payload.uid);
  if (!bookingId) return ignored('payload.uid is missing');
  const booker = Array.isArray(payload.attendees) && isObject(payload.attendees[0]) ? payload.attendees[0] : {};
  const metadata = isObject(payload.metadata) ? payload.metadata : {};
  return {
    kind: 'booking',
    provider: 'calcom',
    trigger,
    event,
    bookingId,
    previousBookingId: trigger === 'BOOKING_RESCHEDULED' ? text(payload.rescheduleUid) : null,
    memberId: text(metadata[MEMBER_ID_FIELD.calcom.payloadKey], 100),
    email: firstOf(email, booker.email, answer(payload, 'email')),
    name: firstOf(personName, booker.name, answer(payload, 'name')),
    startsAt: instant(payload.startTime),
    endsAt: instant(payload.endTime),
    meetingUrl: meetingUrl(payload),
    occurredAt: instant(body.createdAt) ?? now.toISOString(),
  };
}

/** Cal.com with its webhook secret; a null secret (unset or switched off) refuses every delivery. */
export function calcomProvider(secret: string | null): BookingProvider {
  return {
    name: 'calcom',
    signatureHeader: CALCOM_SIGNATURE_HEADER.toLowerCase(),
    enabled: secret !== null,
    async verify(rawBody, signature) {
      if (secret === null) throw new BookingError(401, 'Cal.com is not enabled: CALCOM_WEBHOOK_SECRET is not set');
      const given = signature.trim().toLowerCase();
      if (given === CALCOM_NO_SECRET) {
        throw new BookingError(401, 'Cal.com signed nothing: give the webhook the secret in CALCOM_WEBHOOK_SECRET');
      }
      if (!sameSecret(given, await calcomSignature(secret, rawBody))) {
        throw new BookingError(401, 'signature does not match');
      }
    },
    parse: parseCalcom,
  };
}
