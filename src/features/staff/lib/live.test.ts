import { describe, expect, it } from 'vitest';
import {
  accessText,
  actionLabel,
  checkBenefitChange,
  checkBenefitForm,
  checkSessionForm,
  formatDay,
  holdersText,
  memberPageLink,
  nextSessions,
  parseLiveOverview,
  parseMemberBenefits,
  REASON_REQUIRED,
  sessionWhen,
  toLocalInput,
  type SessionFormValues,
  type StaffLiveSession,
} from './live';

const sessionRow = (id: string, startsAt: string, more: Record<string, unknown> = {}) => ({
  id,
  benefit: 'circle',
  label: 'Group coaching circle',
  title: `Circle ${id}`,
  starts_at: startsAt,
  minutes: 120,
  join_url: 'https://zoom.us/j/1',
  description: null,
  recording_path: null,
  cancelled_at: null,
  created_by: 'staff-1',
  created_at: '2026-12-01T00:00:00Z',
  updated_at: '2026-12-01T00:00:00Z',
  holders: ['ann@example.com'],
  ...more,
});

describe('parseLiveOverview', () => {
  it('reads the sessions, the benefits and the accesses ending, in the page’s words', () => {
    const overview = parseLiveOverview({
      sessions: [sessionRow('a', '2027-01-12T18:00:00Z', { holders: ['ann@example.com', null, 'bob@example.com'] })],
      benefits: [
        {
          benefit: 'community',
          tier: 'accelerated',
          label: 'Community access',
          length_days: 90,
          link: null,
          position: 1,
          updated_at: '2026-12-01T00:00:00Z',
        },
      ],
      ending: [
        {
          user_id: 'u1',
          email: 'ann@example.com',
          benefit: 'community',
          label: 'Community access',
          ends_at: '2026-12-14T00:00:00Z',
        },
      ],
    });
    expect(overview.sessions[0]).toMatchObject({
      id: 'a',
      benefit: 'circle',
      startsAt: '2027-01-12T18:00:00Z',
      joinUrl: 'https://zoom.us/j/1',
      cancelledAt: null,
      // A holder with no e-mail is left out, not the whole answer.
      holders: ['ann@example.com', 'bob@example.com'],
    });
    expect(overview.benefits).toEqual([
      {
        benefit: 'community',
        tier: 'accelerated',
        label: 'Community access',
        lengthDays: 90,
        link: null,
        updatedAt: '2026-12-01T00:00:00Z',
      },
    ]);
    expect(overview.ending[0]).toEqual({
      userId: 'u1',
      email: 'ann@example.com',
      benefit: 'community',
      label: 'Community access',
      endsAt: '2026-12-14T00:00:00Z',
    });
  });

  it('reads a list the answer leaves out as empty', () => {
    expect(parseLiveOverview({ sessions: null, benefits: [] })).toEqual({ sessions: [], benefits: [], ending: [] });
  });

  it('refuses an answer of another shape, in words', () => {
    expect(() => parseLiveOverview(null)).toThrow('was not understood');
    expect(() =>
      parseLiveOverview({ sessions: [sessionRow('a', '2027-01-12T18:00:00Z', { benefit: 'bingo' })] }),
    ).toThrow('The database’s answer about the live sessions was not understood');
  });
});

describe('parseMemberBenefits', () => {
  it('reads the benefits and the audit', () => {
    const parsed = parseMemberBenefits({
      benefits: [
        {
          benefit: 'community',
          label: 'Community access',
          starts_at: '2026-12-01T00:00:00Z',
          ends_at: '2027-03-01T00:00:00Z',
          active: true,
        },
      ],
      audit: [
        {
          benefit: 'community',
          action: 'granted',
          old_ends_at: null,
          new_ends_at: '2027-03-01T00:00:00Z',
          reason: null,
          changed_at: '2026-12-01T00:00:00Z',
          changed_by: null,
        },
      ],
    });
    expect(parsed.benefits[0]).toEqual({
      benefit: 'community',
      label: 'Community access',
      startsAt: '2026-12-01T00:00:00Z',
      endsAt: '2027-03-01T00:00:00Z',
      active: true,
    });
    expect(parsed.audit[0]).toEqual({
      benefit: 'community',
      action: 'granted',
      oldEndsAt: null,
      newEndsAt: '2027-03-01T00:00:00Z',
      reason: null,
      changedAt: '2026-12-01T00:00:00Z',
      changedBy: null,
    });
  });

  it('refuses a benefit without its end', () => {
    expect(() => parseMemberBenefits({ benefits: [{ benefit: 'community', label: 'x', active: true }] })).toThrow(
      'the member’s access was not understood',
    );
  });
});

describe('what the page says', () => {
  const session = (id: string, startsAt: string, more: Partial<StaffLiveSession> = {}): StaffLiveSession => ({
    ...parseLiveOverview({ sessions: [sessionRow(id, startsAt)] }).sessions[0]!,
    ...more,
  });

  it('gives a session’s time with its end, in the zone asked', () => {
    expect(sessionWhen(session('a', '2027-01-12T18:00:00Z'), 'UTC')).toBe('Tue, 12 Jan 2027, 18:00–20:00 UTC');
    expect(sessionWhen(session('a', '2027-01-12T18:00:00Z'), 'America/New_York')).toBe(
      'Tue, 12 Jan 2027, 13:00–15:00 GMT-5',
    );
  });

  it('picks the next three sessions not cancelled and not over, soonest first', () => {
    const now = new Date('2027-01-10T12:00:00Z');
    const picked = nextSessions(
      [
        session('later', '2027-01-20T18:00:00Z'),
        session('over', '2027-01-09T18:00:00Z'),
        session('under-way', '2027-01-10T11:00:00Z'),
        session('cancelled', '2027-01-11T18:00:00Z', { cancelledAt: '2027-01-05T00:00:00Z' }),
        session('soon', '2027-01-11T18:00:00Z'),
        session('last', '2027-01-30T18:00:00Z'),
      ],
      now,
    );
    expect(picked.map((s) => s.id)).toEqual(['under-way', 'soon', 'later']);
  });

  it('counts the holders in words', () => {
    expect(holdersText(0)).toBe('No member holds this');
    expect(holdersText(1)).toBe('1 member holds this');
    expect(holdersText(3)).toBe('3 members hold this');
  });

  it('says until when an access lasts, or when it ended', () => {
    expect(accessText({ active: true, endsAt: '2027-03-07T12:00:00Z' }, 'UTC')).toBe('until 7 March 2027');
    expect(accessText({ active: false, endsAt: '2026-11-30T12:00:00Z' }, 'UTC')).toBe('ended on 30 November 2026');
    expect(formatDay(null)).toBe('none');
  });

  it('names the audit’s actions, and shows one it does not know as it is', () => {
    expect(actionLabel('extended')).toBe('Extended');
    expect(actionLabel('refunded')).toBe('Ended by a refund');
    expect(actionLabel('paused')).toBe('paused');
  });

  it('shows an instant as the wall time that reads back as the same instant', () => {
    const value = toLocalInput('2027-01-12T18:30:00Z');
    expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(new Date(value).toISOString()).toBe('2027-01-12T18:30:00.000Z');
    expect(toLocalInput('not a time')).toBe('');
  });

  it('links to the members page on the member', () => {
    expect(memberPageLink('u1', 'ann+x@example.com')).toBe('/staff/members?member=u1&search=ann%2Bx%40example.com');
  });
});

describe('checkSessionForm', () => {
  const values = (more: Partial<SessionFormValues> = {}): SessionFormValues => ({
    benefit: 'qa',
    title: '  January Q&A  ',
    starts_at: '2027-01-12T18:00',
    minutes: '90',
    join_url: 'https://zoom.us/j/123',
    description: '',
    recording_path: '',
    ...more,
  });

  it('reads the start as the viewer’s wall time, sent as an instant', () => {
    expect(checkSessionForm(values())).toEqual({
      ok: true,
      data: {
        benefit: 'qa',
        title: 'January Q&A',
        startsAt: new Date('2027-01-12T18:00').toISOString(),
        minutes: 90,
        joinUrl: 'https://zoom.us/j/123',
        description: '',
        recordingPath: '',
      },
    });
  });

  it('says at each field what the table would refuse', () => {
    const checked = checkSessionForm(
      values({
        benefit: 'community',
        title: ' ',
        starts_at: '',
        minutes: '4',
        join_url: 'http://zoom.us/j/1',
        recording_path: 'qa-calls/x.mp4',
      }),
    );
    expect(checked.ok).toBe(false);
    expect(checked.ok ? [] : Object.keys(checked.errors).sort()).toEqual([
      'benefit',
      'join_url',
      'minutes',
      'recording_path',
      'starts_at',
      'title',
    ]);
  });

  it('takes a recording in the resources', () => {
    expect(checkSessionForm(values({ recording_path: 'complete/qa-calls/2027-01-12.mp3' })).ok).toBe(true);
    expect(checkSessionForm(values({ minutes: '601' })).ok).toBe(false);
  });
});

describe('checkBenefitForm', () => {
  it('takes a length and an https link, or no link', () => {
    expect(checkBenefitForm({ length_days: '183', link: ' https://facebook.com/groups/vip ' })).toEqual({
      ok: true,
      data: { lengthDays: 183, link: 'https://facebook.com/groups/vip' },
    });
    expect(checkBenefitForm({ length_days: '90', link: '' })).toEqual({ ok: true, data: { lengthDays: 90, link: '' } });
  });

  it('refuses a length out of range and a link that is not https', () => {
    const checked = checkBenefitForm({ length_days: '0', link: 'facebook.com/groups/vip' });
    expect(checked.ok ? [] : Object.keys(checked.errors).sort()).toEqual(['length_days', 'link']);
  });
});

describe('checkBenefitChange', () => {
  it('extends by whole days with a reason', () => {
    expect(checkBenefitChange({ benefit: 'community', action: 'extend', days: '30', reason: ' Gift ' })).toEqual({
      ok: true,
      data: { benefit: 'community', action: 'extend', days: 30, reason: 'Gift' },
    });
  });

  it('ends with no days', () => {
    expect(checkBenefitChange({ benefit: 'qa', action: 'end', days: '30', reason: 'Asked to stop' })).toEqual({
      ok: true,
      data: { benefit: 'qa', action: 'end', days: null, reason: 'Asked to stop' },
    });
  });

  it('wants the days to extend by and a reason', () => {
    const checked = checkBenefitChange({ benefit: 'community', action: 'extend', days: '0', reason: '  ' });
    expect(checked).toEqual({
      ok: false,
      errors: { days: 'Extend by a whole number of days from 1 to 3650.', reason: REASON_REQUIRED },
    });
  });
});
