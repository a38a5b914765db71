import { describe, expect, it } from 'vitest';
import { sessionsLeftText, sessionTime, splitSessions, type Booking } from './coaching';

const booking = (id: string, startsAt: string, status = 'booked'): Booking => ({
  id,
  starts_at: startsAt,
  ends_at: new Date(Date.parse(startsAt) + 90 * 60_000).toISOString(),
  meeting_url: null,
  status,
  member_note: null,
});

describe('splitSessions', () => {
  it('puts booked sessions to come first-soonest, and held ones latest-first', () => {
    const now = new Date('2026-12-07T12:00:00Z');
    const { upcoming, past } = splitSessions(
      [
        booking('later', '2026-12-20T10:00:00Z'),
        booking('soon', '2026-12-08T10:00:00Z'),
        booking('held', '2026-12-01T10:00:00Z'),
        booking('older', '2026-11-01T10:00:00Z'),
        booking('now', '2026-12-07T11:00:00Z'),
        booking('cancelled', '2026-12-09T10:00:00Z', 'cancelled'),
      ],
      now,
    );
    expect(upcoming.map((b) => b.id)).toEqual(['now', 'soon', 'later']);
    expect(past.map((b) => b.id)).toEqual(['held', 'older']);
  });
});

describe('texts', () => {
  it('counts what is left', () => {
    expect(sessionsLeftText({ left: 2, sessions: 2 })).toBe('2 of 2 sessions left');
    expect(sessionsLeftText({ left: 0, sessions: 1 })).toBe('0 of 1 session left');
  });

  it('shows a session in the viewer’s zone, naming it', () => {
    const text = sessionTime('2026-12-09T14:00:00Z', '2026-12-09T15:30:00Z', 'Europe/Berlin');
    expect(text).toContain('2026');
    expect(text).toMatch(/15:00|3:00/);
    expect(text).toMatch(/16:30|4:30/);
    expect(text).toMatch(/GMT\+1|CET/);
  });
});
