// What the tests (and the stand-in's) share: the providers' documented examples (fixtures/) and
// deliveries signed as each provider signs them (signing.ts).
import { readFileSync } from 'node:fs';
import {
  CALCOM_SIGNATURE_HEADER,
  CALENDLY_SIGNATURE_HEADER,
  calcomSignature,
  calendlySignatureHeader,
  utf8,
} from './signing.ts';

export type Fixture =
  | 'calcom-booking-created'
  | 'calcom-booking-created-2023'
  | 'calcom-booking-cancelled'
  | 'calcom-booking-rescheduled'
  | 'calendly-invitee-created'
  | 'calendly-invitee-canceled';

type Json = Record<string, unknown>;

/** A fresh copy of a documented example, to change as a test needs. */
export function fixture(name: Fixture): Json & { payload: Json } {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Json & {
    payload: Json;
  };
}

/** The URL the handler tests send to (the path does not pick anything). */
export const BASE = 'https://project.test/functions/v1/booking-webhook';

/** A Cal.com delivery of `body`, signed with `secret` (or carrying `signature` as given). */
export async function calcomRequest(
  body: unknown,
  options: { secret: string; signature?: string; url?: string },
): Promise<Request> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return new Request(options.url ?? BASE, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      [CALCOM_SIGNATURE_HEADER]: options.signature ?? (await calcomSignature(options.secret, utf8(raw))),
    },
    body: raw,
  });
}

/** A Calendly delivery of `body`, signed with `key` at `timestamp` (unix seconds; now unless given). */
export async function calendlyRequest(
  body: unknown,
  options: { key: string; timestamp?: number; signature?: string; url?: string },
): Promise<Request> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return new Request(options.url ?? BASE, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      [CALENDLY_SIGNATURE_HEADER]: options.signature ?? (await calendlySignatureHeader(options.key, timestamp, raw)),
    },
    body: raw,
  });
}

/** Calendly's reschedule pair made from its documented examples, as its reschedule guide describes it. */
export function calendlyReschedule(oldUri: string, newUri: string, extra: { memberId?: string; email?: string } = {}) {
  const canceled = fixture('calendly-invitee-canceled');
  const created = fixture('calendly-invitee-created');
  const tracking = (body: Json & { payload: Json }) => ({
    ...(body.payload.tracking as Json),
    utm_content: extra.memberId ?? null,
  });
  Object.assign(canceled.payload, {
    uri: oldUri,
    rescheduled: true,
    new_invitee: newUri,
    tracking: tracking(canceled),
  });
  Object.assign(created.payload, { uri: newUri, old_invitee: oldUri, tracking: tracking(created) });
  if (extra.email) for (const body of [canceled, created]) body.payload.email = extra.email;
  return { canceled, created };
}
