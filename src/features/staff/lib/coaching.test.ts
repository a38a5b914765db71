import { describe, expect, it } from 'vitest';
import {
  bookingPageProvider,
  checkAdjustment,
  checkCoachingForm,
  checkNotes,
  coachingRefusal,
  deltaText,
  exactAccount,
  parseCoachingCount,
  providersWithoutSecret,
  sessionTime,
  splitSessions,
  usedText,
  type CoachingAllowance,
  type StaffBooking,
} from './coaching';

const booking = (id: string, startsAt: string | null, endsAt: string | null, status = 'booked'): StaffBooking => ({
  id,
  provider: 'calcom',
  userId: 'u1',
  email: 'ann@example.com',
  name: 'Ann',
  startsAt,
  endsAt,
  meetingUrl: null,
  status,
  overAllowance: false,
  memberNote: null,
  createdAt: '2026-12-01T00:00:00Z',
});

describe('the count', () => {
  it('reads as used of sessions, and left', () => {
    expect(usedText(parseCoachingCount({ sessions: 2, used: 1, left: 1 }))).toBe('Used 1 of 2 · 1 left');
  });

  it('refuses an answer of another shape', () => {
    expect(() => parseCoachingCount({ sessions: 2 })).toThrow();
  });
});

describe('splitSessions', () => {
  const now = new Date('2026-12-10T12:00:00Z');

  it('puts sessions not over yet first, soonest first, and the rest latest first, whatever their status', () => {
    const { upcoming, past } = splitSessions(
      [
        booking('later', '2026-12-20T10:00:00Z', '2026-12-20T11:30:00Z'),
        booking('old', '2026-11-01T10:00:00Z', '2026-11-01T11:30:00Z'),
        booking('now', '2026-12-10T11:00:00Z', '2026-12-10T12:30:00Z'),
        booking('cancelled', '2026-12-15T10:00:00Z', '2026-12-15T11:30:00Z', 'cancelled'),
        booking('recent', '2026-12-09T10:00:00Z', '2026-12-09T11:30:00Z'),
        booking('untimed', null, null, 'cancelled'),
      ],
      now,
    );
    expect(upcoming.map((b) => b.id)).toEqual(['now', 'cancelled', 'later']);
    expect(past.map((b) => b.id)).toEqual(['recent', 'old', 'untimed']);
  });
});

describe('sessionTime', () => {
  it('shows the time in the zone given, with the zone named', () => {
    expect(sessionTime('2026-12-09T15:00:00Z', '2026-12-09T16:30:00Z', 'America/New_York')).toBe(
      'Wed, 9 Dec 2026, 10:00–11:30 GMT-5',
    );
    expect(sessionTime('2026-12-09T15:00:00Z', null, 'UTC')).toBe('Wed, 9 Dec 2026, 15:00 UTC');
  });

  it('says when the provider gave no time', () => {
    expect(sessionTime(null, null)).toBe('Time not known');
  });
});

describe('checkAdjustment', () => {
  it('takes a whole number from −20 to 20, not 0, with a reason', () => {
    expect(checkAdjustment({ delta: '2', reason: ' Gift ' })).toEqual({ ok: true, data: { delta: 2, reason: 'Gift' } });
    expect(checkAdjustment({ delta: '−1', reason: 'No-show' })).toEqual({
      ok: true,
      data: { delta: -1, reason: 'No-show' },
    });
    expect(checkAdjustment({ delta: '-20', reason: 'x' }).ok).toBe(true);
  });

  it.each(['0', '21', '-21', '1.5', '', 'two'])('refuses %j', (delta) => {
    const checked = checkAdjustment({ delta, reason: 'Gift' });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.errors.delta).toMatch(/from −20 to 20, not 0/);
  });

  it('refuses a blank reason, as the database does', () => {
    const checked = checkAdjustment({ delta: '1', reason: '   ' });
    expect(!checked.ok && checked.errors).toEqual({ reason: 'Give a reason: it is kept in the audit log.' });
  });
});

describe('checkNotes', () => {
  it('takes notes up to 5,000 characters', () => {
    expect(checkNotes({ member_note: 'a'.repeat(5000), private_note: '' }).ok).toBe(true);
    const checked = checkNotes({ member_note: '', private_note: 'a'.repeat(5001) });
    expect(!checked.ok && checked.errors).toEqual({ private_note: 'Keep it to 5,000 characters or fewer.' });
  });
});

describe('the coaching form', () => {
  it('takes sessions, minutes and an https booking page (or none)', () => {
    expect(
      checkCoachingForm({ sessions: '6', minutes: '90', booking_url: ' https://cal.com/owner/coaching ' }),
    ).toEqual({ ok: true, data: { sessions: 6, minutes: 90, bookingUrl: 'https://cal.com/owner/coaching' } });
    expect(checkCoachingForm({ sessions: '0', minutes: '15', booking_url: '' }).ok).toBe(true);
  });

  it('refuses what the table refuses, field by field', () => {
    const checked = checkCoachingForm({ sessions: '101', minutes: '10', booking_url: 'http://cal.com/owner' });
    expect(!checked.ok && Object.keys(checked.errors)).toEqual(['sessions', 'minutes', 'booking_url']);
  });

  it('names the field of a check constraint the database refused with', () => {
    const message = 'new row for relation "coaching_allowances" violates check constraint';
    expect(coachingRefusal({ code: '23514', message: `${message} "coaching_allowances_booking_url_check"` })).toBe(
      'booking_url',
    );
    expect(coachingRefusal({ code: '23514', message: `${message} "coaching_allowances_minutes_check"` })).toBe(
      'minutes',
    );
    expect(coachingRefusal({ code: '42501', message: 'only staff can change coaching' })).toBeNull();
  });
});

describe('the webhook providers', () => {
  const tier = (sessions: number, bookingUrl: string | null): CoachingAllowance => ({
    tier: 'complete',
    sessions,
    minutes: 90,
    bookingUrl,
    updatedAt: '2026-12-01T00:00:00Z',
  });

  it('knows a booking page’s provider by its host', () => {
    expect(bookingPageProvider('https://cal.com/owner/coaching')).toBe('calcom');
    expect(bookingPageProvider('https://app.cal.com/owner')).toBe('calcom');
    expect(bookingPageProvider('https://calendly.com/owner/90min')).toBe('calendly');
    expect(bookingPageProvider('https://book.example.com/owner')).toBeNull();
  });

  it('names the providers the booking pages use whose webhook secret is not set', () => {
    const pages = [tier(2, 'https://cal.com/owner/a'), tier(6, 'https://calendly.com/owner/b')];
    expect(providersWithoutSecret({ calcom: false, calendly: true }, pages)).toEqual(['calcom']);
    expect(providersWithoutSecret({ calcom: true, calendly: true }, pages)).toEqual([]);
    expect(providersWithoutSecret(null, pages)).toEqual(['calcom', 'calendly']);
  });

  it('ignores a provider no bundle books on, and pages of tiers without sessions', () => {
    expect(providersWithoutSecret({ calcom: true, calendly: false }, [tier(2, 'https://cal.com/owner')])).toEqual([]);
    expect(providersWithoutSecret({ calcom: false, calendly: false }, [tier(0, 'https://cal.com/owner')])).toEqual([]);
    expect(providersWithoutSecret({ calcom: false, calendly: false }, [tier(2, null)])).toEqual([]);
  });

  it('names both for a page on another host when neither provider is on', () => {
    const custom = [tier(2, 'https://book.example.com/owner')];
    expect(providersWithoutSecret({ calcom: false, calendly: false }, custom)).toEqual(['calcom', 'calendly']);
    expect(providersWithoutSecret({ calcom: true, calendly: false }, custom)).toEqual([]);
  });
});

describe('small words', () => {
  it('signs an adjustment', () => {
    expect(deltaText(2)).toBe('+2');
    expect(deltaText(-1)).toBe('−1');
  });

  it('finds the account with exactly the e-mail among a search’s rows', () => {
    const rows = [{ email: 'joann@example.com' }, { email: 'Ann@Example.com' }];
    expect(exactAccount(rows, ' ann@example.com ')).toBe(rows[1]);
    expect(exactAccount(rows, 'nn@example.com')).toBeNull();
  });
});
