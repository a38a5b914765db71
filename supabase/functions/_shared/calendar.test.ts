import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { formatSessionStart, googleCalendarUrl, icsFileName, icsFor, sessionEnd, type CalendarEvent } from './calendar';

const circle: CalendarEvent = {
  uid: '6f1c2d9e-4b7a-4c1e-9a53-0d2f8e7b1a44',
  title: 'Group Coaching Circle',
  description: 'Bring a question, a pen; and a cup of tea.\nC:\\notes\\circle — see you there',
  startsAt: '2027-03-28T18:00:00+00:00',
  minutes: 120,
  url: 'https://yes-you-can.example/live/group-coaching-circle',
};
const now = new Date('2027-03-01T09:30:15.250Z');

/** The event as an independent parser (Mozilla's ical.js) reads it. */
function parsed(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const vevents = calendar.getAllSubcomponents('vevent');
  expect(vevents).toHaveLength(1);
  return { calendar, vevent: vevents[0]!, event: new ICAL.Event(vevents[0]!) };
}

/** The file's physical lines, without their line ends (the text after the last CRLF is empty). */
function physicalLines(ics: string): string[] {
  const lines = ics.split('\r\n');
  expect(lines.pop()).toBe('');
  return lines;
}

describe('icsFor', () => {
  it('reads back, through ical.js, as the same instants, text and headers', () => {
    const { calendar, vevent, event } = parsed(icsFor(circle, now));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Yes, You Can!//Live sessions//EN');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(event.uid).toBe('6f1c2d9e-4b7a-4c1e-9a53-0d2f8e7b1a44@yes-you-can');
    expect(event.startDate.toJSDate().getTime()).toBe(Date.parse('2027-03-28T18:00:00Z'));
    expect(event.endDate.toJSDate().getTime()).toBe(Date.parse('2027-03-28T20:00:00Z'));
    expect(event.startDate.zone.tzid).toBe('UTC');
    const stamp = vevent.getFirstPropertyValue('dtstamp') as ICAL.Time;
    // Whole seconds only: the format has no fractions.
    expect(stamp.toJSDate().getTime()).toBe(Date.parse('2027-03-01T09:30:15Z'));
    expect(event.summary).toBe('Group Coaching Circle');
    expect(event.description).toBe(circle.description);
    expect(vevent.getFirstPropertyValue('url')).toBe(circle.url);
  });

  it('writes UTC times, escaped TEXT and the exact header lines', () => {
    const ics = icsFor(circle, now);
    const lines = physicalLines(ics.replace(/\r\n /g, ''));
    expect(lines.slice(0, 6)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Yes\\, You Can!//Live sessions//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
    ]);
    expect(lines).toContain('DTSTAMP:20270301T093015Z');
    expect(lines).toContain('DTSTART:20270328T180000Z');
    expect(lines).toContain('DTEND:20270328T200000Z');
    expect(lines).toContain(
      'DESCRIPTION:Bring a question\\, a pen\\; and a cup of tea.\\nC:\\\\notes\\\\circle — see you there',
    );
    expect(lines.slice(-2)).toEqual(['END:VEVENT', 'END:VCALENDAR']);
  });

  it('folds long non-ASCII lines at 75 octets without splitting a character, and round-trips them', () => {
    const title = 'Écrire — '.repeat(12) + 'naïve, brave; \\ 🎉 ' + 'Élan '.repeat(10);
    const description = 'Line one, with commas; and semicolons\\\r\nLine two — été\n\nLine four 🎉'.repeat(3);
    const ics = icsFor({ ...circle, title, description }, now);
    const lines = physicalLines(ics);
    const encoder = new TextEncoder();
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (const line of lines) {
      expect(encoder.encode(line).length).toBeLessThanOrEqual(75);
      // No stray CR or LF inside a line: every line end in the file is a CRLF.
      expect(line).not.toMatch(/[\r\n]/);
      // A surrogate pair split between lines would not survive a trip through UTF-8.
      expect(decoder.decode(encoder.encode(line))).toBe(line);
    }
    const continued = lines.filter((line) => line.startsWith(' '));
    expect(continued.length).toBeGreaterThan(4);
    // Lines are filled: a fold happens only when the next character would not fit.
    expect(lines.some((line) => encoder.encode(line).length >= 73)).toBe(true);
    const { event } = parsed(ics);
    expect(event.summary).toBe(title);
    // CRLF inside the text is one line break, as written back it is \n.
    expect(event.description).toBe(description.replace(/\r\n/g, '\n'));
  });

  it('leaves out DESCRIPTION and URL when there are none', () => {
    const ics = icsFor({ uid: 'abc', title: 'Q&A', startsAt: '2027-04-04T18:00:00Z', minutes: 45 }, now);
    expect(ics).not.toMatch(/^(DESCRIPTION|URL)[:;]/m);
    const { event } = parsed(ics);
    expect(event.endDate.toJSDate().getTime()).toBe(Date.parse('2027-04-04T18:45:00Z'));
  });

  it('cannot be made to add a property through the url', () => {
    const ics = icsFor({ ...circle, url: 'https://yes-you-can.example/live/x\r\nATTACH:https://evil.example/' }, now);
    expect(ics).not.toMatch(/^ATTACH/m);
    expect(parsed(ics).vevent.getFirstPropertyValue('url')).toBe(
      'https://yes-you-can.example/live/xATTACH:https://evil.example/',
    );
  });

  it('reads an offset start as the same instant', () => {
    const { event } = parsed(icsFor({ ...circle, startsAt: '2027-03-28T20:00:00+02:00' }, now));
    expect(event.startDate.toJSDate().getTime()).toBe(Date.parse('2027-03-28T18:00:00Z'));
  });
});

describe('sessionEnd', () => {
  it('adds the length in minutes', () => {
    expect(sessionEnd('2027-03-28T18:00:00+00:00', 90).toISOString()).toBe('2027-03-28T19:30:00.000Z');
  });

  it('refuses a start that is not a date and a length that is not positive', () => {
    expect(() => sessionEnd('next Sunday', 60)).toThrow(RangeError);
    expect(() => sessionEnd('2027-03-28T18:00:00Z', 0)).toThrow(RangeError);
    expect(() => sessionEnd('2027-03-28T18:00:00Z', Number.NaN)).toThrow(RangeError);
  });
});

describe('icsFileName', () => {
  it('is the title as a slug and the UTC date', () => {
    expect(icsFileName(circle)).toBe('group-coaching-circle-2027-03-28.ics');
    expect(icsFileName({ ...circle, title: "Écrire — l'été, ensemble!" })).toBe('ecrire-l-ete-ensemble-2027-03-28.ics');
    // 23:30 at UTC-2 is already the next day in UTC.
    expect(icsFileName({ ...circle, startsAt: '2027-03-28T23:30:00-02:00' })).toBe(
      'group-coaching-circle-2027-03-29.ics',
    );
    expect(icsFileName({ ...circle, title: '🎉 — ✨' })).toBe('session-2027-03-28.ics');
  });
});

describe('googleCalendarUrl', () => {
  it('carries the title, UTC times and details with the page address', () => {
    const url = new URL(googleCalendarUrl(circle));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Group Coaching Circle');
    expect(url.searchParams.get('dates')).toBe('20270328T180000Z/20270328T200000Z');
    expect(url.searchParams.get('details')).toBe(`${circle.description}\n\n${circle.url}`);
  });

  it('sends no details when there is nothing to say', () => {
    const url = new URL(googleCalendarUrl({ ...circle, description: undefined, url: undefined }));
    expect(url.searchParams.has('details')).toBe(false);
    expect(new URL(googleCalendarUrl({ ...circle, description: undefined })).searchParams.get('details')).toBe(
      circle.url,
    );
  });
});

describe('formatSessionStart', () => {
  it('follows a weekly 18:00 UTC session across the UK clock change (28 March 2027)', () => {
    const weeks = ['2027-03-14', '2027-03-21', '2027-03-28', '2027-04-04'].map((day) =>
      formatSessionStart(`${day}T18:00:00+00:00`, 'Europe/London'),
    );
    expect(weeks).toEqual([
      'Sunday, 14 March 2027 at 6:00 pm GMT',
      'Sunday, 21 March 2027 at 6:00 pm GMT',
      'Sunday, 28 March 2027 at 7:00 pm BST',
      'Sunday, 4 April 2027 at 7:00 pm BST',
    ]);
  });

  it('writes noon and midnight as 12, never 0', () => {
    expect(formatSessionStart('2027-03-07T12:00:00Z', 'UTC')).toBe('Sunday, 7 March 2027 at 12:00 pm UTC');
    expect(formatSessionStart('2027-03-07T00:30:00Z', 'UTC')).toBe('Sunday, 7 March 2027 at 12:30 am UTC');
  });

  it('shows 10:00 am in Los Angeles either side of the US change (14 March 2027)', () => {
    const before = '2027-03-07T18:00:00Z';
    const after = '2027-03-14T17:00:00Z';
    // en-GB names American zones by offset; en-US by their abbreviations.
    expect(formatSessionStart(before, 'America/Los_Angeles')).toBe('Sunday, 7 March 2027 at 10:00 am GMT-8');
    expect(formatSessionStart(after, 'America/Los_Angeles')).toBe('Sunday, 14 March 2027 at 10:00 am GMT-7');
    expect(formatSessionStart(before, 'America/Los_Angeles', 'en-US')).toBe('Sunday, March 7, 2027 at 10:00 AM PST');
    expect(formatSessionStart(after, 'America/Los_Angeles', 'en-US')).toBe('Sunday, March 14, 2027 at 10:00 AM PDT');
  });

  it("uses the runtime's zone when given none", () => {
    const runtimeZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatSessionStart(circle.startsAt)).toBe(formatSessionStart(circle.startsAt, runtimeZone));
  });
});
