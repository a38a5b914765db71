/** A member's coaching as the database gives it (member_coaching and their bookings). */
export type Coaching = {
  sessions: number;
  used: number;
  left: number;
  minutes: number;
  /** The owner's booking page; null when the member has no sessions or staff set none. */
  booking_url: string | null;
  name: string | null;
  email: string | null;
  bookings: Booking[];
};

export type Booking = {
  id: string;
  starts_at: string | null;
  ends_at: string | null;
  meeting_url: string | null;
  status: string;
  member_note: string | null;
};

/** Booked sessions still to come (soonest first), and those held (latest first), at `now`. */
export function splitSessions(bookings: readonly Booking[], now: Date): { upcoming: Booking[]; past: Booking[] } {
  const at = (b: Booking) => (b.ends_at ? Date.parse(b.ends_at) : b.starts_at ? Date.parse(b.starts_at) : 0);
  const booked = bookings.filter((b) => b.status === 'booked' && b.starts_at);
  return {
    upcoming: booked.filter((b) => at(b) >= now.getTime()).sort((a, b) => at(a) - at(b)),
    past: booked.filter((b) => at(b) < now.getTime()).sort((a, b) => at(b) - at(a)),
  };
}

/** "2 of 2 sessions left" */
export function sessionsLeftText(coaching: Pick<Coaching, 'left' | 'sessions'>): string {
  return `${coaching.left} of ${coaching.sessions} session${coaching.sessions === 1 ? '' : 's'} left`;
}

/**
 * A session's time in the viewer's own zone, with the zone named: "Tuesday, 9 December 2026,
 * 15:00 – 16:30 GMT+1" (the viewer's locale decides the format).
 */
export function sessionTime(startsAt: string, endsAt: string | null, timeZone?: string): string {
  const start = new Date(startsAt);
  const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeZone }).format(start);
  const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short', timeZone });
  const zone = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short', timeZone })
    .formatToParts(start)
    .find((part) => part.type === 'timeZoneName')?.value;
  const end = endsAt ? ` – ${time.format(new Date(endsAt))}` : '';
  return `${day}, ${time.format(start)}${end}${zone ? ` ${zone}` : ''}`;
}
