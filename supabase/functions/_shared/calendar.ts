/** A live session as a calendar needs it: what it is, when it starts and how long it lasts. */
export type CalendarEvent = {
  /** Stable id (the session's uuid): calendars use it to update the same entry, not add another. */
  uid: string;
  title: string;
  /** Plain text; may hold newlines, commas, semicolons and backslashes. */
  description?: string;
  /** An ISO 8601 instant as the database gives it, e.g. "2027-03-28T18:00:00+00:00". */
  startsAt: string;
  minutes: number;
  /** The site's page for the session, never the join link: a calendar entry is easily shared. */
  url?: string;
};

// Calendars match an entry by UID; the domain part keeps our ids apart from other producers'.
const UID_DOMAIN = 'yes-you-can';
const PRODID = '-//Yes, You Can!//Live sessions//EN';
// RFC 5545 caps a content line at 75 octets, not characters: "É" is two, "—" three.
const LINE_OCTETS = 75;

/** When a session ends. Throws on a start that is not a date or a length that is not a positive number. */
export function sessionEnd(startsAt: string, minutes: number): Date {
  const start = Date.parse(startsAt);
  if (Number.isNaN(start)) throw new RangeError(`Not a date: ${startsAt}`);
  // A calendar refuses an event that ends before it starts, so a bad length fails here, loudly.
  if (!Number.isFinite(minutes) || minutes <= 0) throw new RangeError(`Not a session length: ${minutes}`);
  return new Date(start + minutes * 60_000);
}

/**
 * The session as an iCalendar file (RFC 5545) with one event, for "Add to calendar". Times are
 * in UTC, so every calendar shows them in its owner's zone without our sending zone rules.
 */
export function icsFor(event: CalendarEvent, now: Date): string {
  const end = sessionEnd(event.startsAt, event.minutes);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeText(PRODID)}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeText(`${event.uid}@${UID_DOMAIN}`)}`,
    `DTSTAMP:${utcBasic(now)}`,
    `DTSTART:${utcBasic(new Date(event.startsAt))}`,
    `DTEND:${utcBasic(end)}`,
    `SUMMARY:${escapeText(event.title)}`,
  ];
  if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
  // A URL is not TEXT and takes no escapes; parsing it drops any line breaks that could start a property.
  if (event.url) lines.push(`URL:${new URL(event.url).href}`);
  lines.push('END:VEVENT', 'END:VCALENDAR');
  // Every line, the last included, ends in CRLF: the standard asks for it and strict readers check.
  return lines.map(fold).join('\r\n') + '\r\n';
}

/** "group-coaching-circle-2027-03-28.ics": readable in a downloads folder, and dated in UTC like the file. */
export function icsFileName(event: CalendarEvent): string {
  const day = new Date(Date.parse(event.startsAt)).toISOString().slice(0, 10);
  return `${slug(event.title) || 'session'}-${day}.ics`;
}

/**
 * Google Calendar's "create event" link, for people whose calendar lives in a browser tab and
 * who would otherwise have to import a file. The page's address goes in the details because
 * Google's template has no field of its own for it.
 */
export function googleCalendarUrl(event: CalendarEvent): string {
  const start = new Date(Date.parse(event.startsAt));
  const end = sessionEnd(event.startsAt, event.minutes);
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${utcBasic(start)}/${utcBasic(end)}`,
  });
  const details = [event.description, event.url].filter(Boolean).join('\n\n');
  if (details) params.set('details', details);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/**
 * When a session starts, in the viewer's zone with that zone named, e.g. "Sunday, 28 March 2027
 * at 7:00 pm BST". Naming the zone matters twice a year: the same UTC time moves an hour on the
 * viewer's clock when the clocks change. Without `timeZone`, the runtime's own zone is used.
 */
export function formatSessionStart(iso: string, timeZone?: string, locale = 'en-GB'): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    // Session times are written on a 12-hour clock ("7:00 pm"); en-GB alone would print "19:00".
    hourCycle: 'h12',
    timeZoneName: 'short',
    timeZone,
  }).format(new Date(iso));
}

/** "20270328T180000Z": the UTC form both iCalendar and Google's template take (seconds, no fraction). */
function utcBasic(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** TEXT escapes: a bare comma or semicolon would split the value, and a raw newline would end the line. */
function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Folds a content line into physical lines of at most 75 octets, each continuation starting with
 * a space (which counts). It breaks between characters, never inside one: a character's bytes
 * split across lines come back as garbage in some readers.
 */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Length(char);
    if (octets + size > LINE_OCTETS) {
      parts.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n');
}

/** How many bytes one character (one code point) takes in UTF-8. */
function utf8Length(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return code < 0x10000 ? 3 : 4;
}

/** Lower-case ASCII words joined by hyphens: accents dropped ("Écrire" → "ecrire"), the rest removed. */
function slug(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}
