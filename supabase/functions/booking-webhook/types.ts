// The shapes every part of the booking webhook shares: what a provider makes of a delivery, and
// what the handler asks of the store. Plain TypeScript: no Deno or Node globals.

export type ProviderName = 'calcom' | 'calendly';
export const providerNames: readonly ProviderName[] = ['calcom', 'calendly'];

/** What happened to a booking, as public.record_booking's p_event takes it. */
export type BookingEventKind = 'created' | 'cancelled' | 'rescheduled';

/** One verified delivery, as the arguments of one public.record_booking call. */
export type BookingEvent = {
  kind: 'booking';
  provider: ProviderName;
  /** The provider's own name of the event (`BOOKING_CREATED`, `invitee.canceled`), for the log. */
  trigger: string;
  event: BookingEventKind;
  /** Cal.com's booking uid; Calendly's invitee URI. */
  bookingId: string;
  /** The booking a reschedule replaces; null otherwise. */
  previousBookingId: string | null;
  /** The member id the booking link carried; null when the booking came without one. */
  memberId: string | null;
  email: string | null;
  name: string | null;
  /** ISO timestamps; null when the delivery carries none. */
  startsAt: string | null;
  endsAt: string | null;
  /** An https link to the meeting; null when there is none. */
  meetingUrl: string | null;
  /** When the provider says the event happened (ISO). */
  occurredAt: string;
};

/**
 * A verified delivery this function records nothing of, answered 200: another trigger, or
 * (`unreadable`) a booking change without what a booking needs, which the log says loudly.
 */
export type Ignored = { kind: 'ignored'; provider: ProviderName; trigger: string; reason: string; unreadable: boolean };

export type ParsedDelivery = BookingEvent | Ignored;

/** An answer the handler gives as is: 401 signature, 403, 404, 405, 413. */
export class BookingError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * One booking provider. The handler picks it by the signature header it sends; `verify` runs
 * over the raw bytes before anything is parsed, and `parse` only ever sees a verified body.
 */
export interface BookingProvider {
  readonly name: ProviderName;
  /** The header the provider signs in (lower case, as Headers hands it back). */
  readonly signatureHeader: string;
  /** False when the provider's secret is unset or BOOKING_PROVIDER switched it off. */
  readonly enabled: boolean;
  /** Throws BookingError(401) when the signature is missing, wrong, stale, or nothing can check it. */
  verify(rawBody: Uint8Array<ArrayBuffer>, signature: string, now: Date): Promise<void>;
  parse(rawBody: Uint8Array<ArrayBuffer>, now: Date): ParsedDelivery;
}

/** public.record_booking's answer. */
export type RecordBookingResult = {
  bookingId: string | null;
  /** The member it was tied to; null: unmatched, for staff to assign. */
  userId: string | null;
  status: string | null;
  overAllowance: boolean;
};

export interface BookingStore {
  /** One public.record_booking call; throws when the database could not record it. */
  recordBooking(event: BookingEvent): Promise<RecordBookingResult>;
}

/** Whether the bearer token is a signed-in staff member's (the database decides). */
export type StaffCheck = (accessToken: string) => Promise<boolean>;
