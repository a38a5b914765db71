import { z } from '@/config/zod-config';
import type { Tier } from '@/content/tiers';
import type { Database } from '@/types/database';
import { httpsUrl } from './catalog';
import { checkReason } from './members';

/**
 * One-to-one coaching as staff see it (migration 20261207020000_coaching.sql): a member's
 * count, their bookings with staff's notes, staff's adjustments, the unmatched bookings, each
 * tier's sessions, and the checks of what staff type, the database's own.
 */
type BookingRow = Database['public']['Tables']['coaching_bookings']['Row'];

/** The columns every staff read of public.coaching_bookings takes. */
export const BOOKING_COLUMNS =
  'id, provider, user_id, email, name, starts_at, ends_at, meeting_url, status, over_allowance, member_note, created_at';

export type StaffBooking = {
  id: string;
  provider: string;
  /** null: the booking matched no member yet (staff assign it). */
  userId: string | null;
  /** The e-mail and name given on the booking page. */
  email: string | null;
  name: string | null;
  startsAt: string | null;
  endsAt: string | null;
  meetingUrl: string | null;
  status: string;
  overAllowance: boolean;
  memberNote: string | null;
  createdAt: string;
};

export function toStaffBooking(row: Omit<BookingRow, 'provider_booking_id' | 'updated_at'>): StaffBooking {
  return {
    id: row.id,
    provider: row.provider,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    meetingUrl: row.meeting_url,
    status: row.status,
    overAllowance: row.over_allowance,
    memberNote: row.member_note,
    createdAt: row.created_at,
  };
}

/** A booking on a member's panel, with staff's private note on it. */
export type MemberSession = StaffBooking & { privateNote: string | null };

export type Adjustment = { id: number; delta: number; reason: string; createdAt: string };

/** public.staff_member_coaching(): the member's sessions (tier's plus adjustments), booked, left. */
const countSchema = z.object({ sessions: z.number(), used: z.number(), left: z.number() });
export type CoachingCount = z.infer<typeof countSchema>;

export function parseCoachingCount(data: unknown): CoachingCount {
  return countSchema.parse(data);
}

export type MemberCoaching = { count: CoachingCount; sessions: MemberSession[]; adjustments: Adjustment[] };

/** "Used 1 of 2 · 1 left" */
export function usedText(count: CoachingCount): string {
  return `Used ${count.used} of ${count.sessions} · ${count.left} left`;
}

const providerLabels: Record<string, string> = { calcom: 'Cal.com', calendly: 'Calendly' };

export function providerLabel(provider: string): string {
  return providerLabels[provider] ?? provider;
}

const statusLabels: Record<string, string> = { cancelled: 'Cancelled', rescheduled: 'Rescheduled' };

/** "Cancelled" or "Rescheduled"; null for a booking that still holds its session. */
export function statusLabel(status: string): string | null {
  return statusLabels[status] ?? null;
}

const endOf = (b: StaffBooking) => Date.parse(b.endsAt ?? b.startsAt ?? '');

/**
 * Sessions not over yet (soonest first) and the rest (latest first), at `now`, whatever their
 * status: staff see a cancelled session as such. A booking with no time (a cancellation the
 * provider told of first) is past.
 */
export function splitSessions<T extends StaffBooking>(bookings: readonly T[], now: Date): { upcoming: T[]; past: T[] } {
  const start = (b: StaffBooking) => (b.startsAt ? Date.parse(b.startsAt) : -Infinity);
  const upcoming = bookings.filter((b) => b.startsAt !== null && endOf(b) >= now.getTime());
  const past = bookings.filter((b) => !upcoming.includes(b));
  return {
    upcoming: upcoming.sort((a, b) => start(a) - start(b)),
    past: past.sort((a, b) => start(b) - start(a)),
  };
}

/**
 * A session's time in the staff member's own zone, with the zone named: "Wed, 9 Dec 2026,
 * 10:00–11:30 GMT-5". `timeZone` is for tests; the browser's zone otherwise.
 */
export function sessionTime(startsAt: string | null, endsAt: string | null, timeZone?: string): string {
  if (!startsAt) return 'Time not known';
  const start = new Date(startsAt);
  if (Number.isNaN(start.getTime())) return startsAt;
  const day = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone,
  }).format(start);
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone });
  const zone = new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short', timeZone })
    .formatToParts(start)
    .find((part) => part.type === 'timeZoneName')?.value;
  const end = endsAt && !Number.isNaN(Date.parse(endsAt)) ? `–${time.format(new Date(endsAt))}` : '';
  return `${day}, ${time.format(start)}${end}${zone ? ` ${zone}` : ''}`;
}

/** "+2" or "−1": an adjustment as staff read it. */
export function deltaText(delta: number): string {
  return delta > 0 ? `+${delta}` : `−${Math.abs(delta)}`;
}

type Checked<T> = { ok: true; data: T } | { ok: false; errors: Partial<Record<string, string>> };

function fail<T>(errors: Partial<Record<string, string | null>>): Checked<T> | null {
  const found = Object.fromEntries(Object.entries(errors).filter(([, message]) => message));
  return Object.keys(found).length > 0 ? { ok: false, errors: found as Partial<Record<string, string>> } : null;
}

/** A whole number typed by staff ("2", "-1", "−1"), or null. */
export function parseWhole(text: string): number | null {
  const cleaned = text.trim().replace(/^[−–]/, '-');
  return /^[-+]?\d{1,4}$/.test(cleaned) ? Number(cleaned) : null;
}

/** Give (+) or take (−) sessions: a whole number from −20 to 20, not 0, and a reason (22023 otherwise). */
export function checkAdjustment(values: { delta: string; reason: string }): Checked<{ delta: number; reason: string }> {
  const delta = parseWhole(values.delta);
  const deltaError =
    delta === null || delta === 0 || delta < -20 || delta > 20
      ? 'Give a whole number from −20 to 20, not 0: 2 gives two sessions, −1 takes one.'
      : null;
  return (
    fail({ delta: deltaError, reason: checkReason(values.reason) }) ?? {
      ok: true,
      data: { delta: delta ?? 0, reason: values.reason.trim() },
    }
  );
}

/** "Gave 2 sessions" / "Took 1 session" */
export function adjustedText(delta: number): string {
  const n = Math.abs(delta);
  return `${delta > 0 ? 'Gave' : 'Took'} ${n} session${n === 1 ? '' : 's'}`;
}

export const NOTE_MAX = 5000;

/** Both notes at most 5,000 characters, as the database checks them. */
export function checkNotes(values: { member_note: string; private_note: string }): Checked<typeof values> {
  const tooLong = (text: string) =>
    text.trim().length > NOTE_MAX ? `Keep it to ${NOTE_MAX.toLocaleString('en-GB')} characters or fewer.` : null;
  return (
    fail({ member_note: tooLong(values.member_note), private_note: tooLong(values.private_note) }) ?? {
      ok: true,
      data: values,
    }
  );
}

/** A tier's coaching, as public.coaching_allowances holds it. */
export type CoachingAllowance = {
  tier: Tier;
  sessions: number;
  minutes: number;
  bookingUrl: string | null;
  updatedAt: string;
};
export type CoachingFormData = { sessions: number; minutes: number; bookingUrl: string };

export const coachingFieldMessages = {
  sessions: 'Sessions must be a whole number from 0 to 100.',
  minutes: 'Minutes must be a whole number from 15 to 480.',
  booking_url: 'The booking page must be an https:// link, like https://cal.com/your-name/coaching.',
} as const;

/** The coaching form's checks, the table's own (its check constraints). */
export function checkCoachingForm(values: {
  sessions: string;
  minutes: string;
  booking_url: string;
}): Checked<CoachingFormData> {
  const sessions = parseWhole(values.sessions);
  const minutes = parseWhole(values.minutes);
  const url = values.booking_url.trim();
  return (
    fail({
      sessions: sessions === null || sessions < 0 || sessions > 100 ? coachingFieldMessages.sessions : null,
      minutes: minutes === null || minutes < 15 || minutes > 480 ? coachingFieldMessages.minutes : null,
      booking_url: url !== '' && (!httpsUrl.test(url) || url.length > 2000) ? coachingFieldMessages.booking_url : null,
    }) ?? { ok: true, data: { sessions: sessions ?? 0, minutes: minutes ?? 0, bookingUrl: url } }
  );
}

/**
 * The field a refusal by the database names: a check constraint of coaching_allowances (23514,
 * its name in the message), in words. Null for any other error.
 */
export function coachingRefusal(error: { code?: string; message: string }): keyof typeof coachingFieldMessages | null {
  if (error.code !== '23514') return null;
  const fields = ['booking_url', 'sessions', 'minutes'] as const;
  return fields.find((field) => error.message.includes(`coaching_allowances_${field}_check`)) ?? null;
}

export type WebhookProvider = 'calcom' | 'calendly';

/**
 * GET …/booking-webhook's answer: whether each provider takes deliveries (its secret is set and
 * BOOKING_PROVIDER leaves it on); `null` when the function answered that it is not configured.
 */
export type WebhookStatus = Record<WebhookProvider, boolean> | null;

/** The provider a booking page is on, by its host; null for a host of neither (a custom domain). */
export function bookingPageProvider(url: string): WebhookProvider | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host === 'cal.com' || host.endsWith('.cal.com')) return 'calcom';
  if (host === 'calendly.com' || host.endsWith('.calendly.com')) return 'calendly';
  return null;
}

/**
 * The providers whose bookings would not be recorded: the providers of the tiers' booking pages
 * (for a tier with sessions) whose webhook cannot take deliveries. A page on another host is
 * answered with both providers when neither is on. Nobody can book without a page: none then.
 */
export function providersWithoutSecret(
  status: WebhookStatus,
  allowances: readonly CoachingAllowance[],
): WebhookProvider[] {
  const pages = allowances.filter((a) => a.sessions > 0 && a.bookingUrl).map((a) => a.bookingUrl ?? '');
  const isOn = (provider: WebhookProvider) => status?.[provider] === true;
  const used = new Set(pages.map(bookingPageProvider));
  const missing = (['calcom', 'calendly'] as const).filter((provider) => used.has(provider) && !isOn(provider));
  if (used.has(null) && !isOn('calcom') && !isOn('calendly')) return ['calcom', 'calendly'];
  return missing;
}

/** The account whose e-mail is exactly `email` (any case) among a search's rows, or null. */
export function exactAccount<T extends { email: string }>(rows: readonly T[], email: string): T | null {
  const wanted = email.trim().toLowerCase();
  return rows.find((row) => row.email.toLowerCase() === wanted) ?? null;
}

/** The coaching form field a refusal names in its hint (see coachingRefusal), or null. */
export function refusedCoachingField(error: unknown): keyof typeof coachingFieldMessages | null {
  const hint = typeof error === 'object' && error !== null && 'hint' in error ? error.hint : null;
  return hint === 'sessions' || hint === 'minutes' || hint === 'booking_url' ? hint : null;
}
