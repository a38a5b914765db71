import { describe, expect, it } from 'vitest';
import { formatShare, funnelSteps, isEmptyPeriod, parseVisits, withVisitors, type StaffVisits } from './visits';

/** staff_visits(7)'s answer, as the contract gives it. */
const answer = {
  days: 7,
  since: '2026-11-22',
  today: '2026-11-28',
  time_zone: 'America/New_York',
  funnel: { visitors: 120, bundles: 40, checkouts: 12, sales: 3 },
  by_campaign: [
    {
      source: 'podcast',
      medium: null,
      campaign: 'launch',
      visitors: 50,
      checkouts: 6,
      sales: 2,
      revenue: [{ currency: 'USD', cents: 99400 }],
    },
  ],
  by_referrer: [{ referrer: 'youtube.com', visitors: 30, checkouts: 2, sales: 1, revenue: [] }],
  plays: 17,
  returns: 3,
  chart: [
    { day: '2026-11-27', visitors: 20 },
    { day: '2026-11-28', visitors: 9 },
  ],
};

describe('parseVisits', () => {
  it('reads the function’s answer', () => {
    const visits = parseVisits(answer);
    expect(visits.funnel).toEqual({ visitors: 120, bundles: 40, checkouts: 12, sales: 3 });
    expect(visits.by_campaign[0]).toMatchObject({ source: 'podcast', medium: null, campaign: 'launch' });
  });

  it('refuses a period the page cannot ask for, and a missing figure', () => {
    expect(() => parseVisits({ ...answer, days: 14 })).toThrow();
    const { funnel: _funnel, ...noFunnel } = answer;
    expect(() => parseVisits(noFunnel)).toThrow();
    expect(() => parseVisits({ ...answer, by_referrer: [{ referrer: 'x.com', visitors: 1 }] })).toThrow();
  });
});

describe('formatShare', () => {
  it('gives a percentage to one decimal place at most', () => {
    expect(formatShare(40, 120)).toBe('33.3%');
    expect(formatShare(3, 12)).toBe('25%');
    expect(formatShare(3, 120)).toBe('2.5%');
    expect(formatShare(0, 5)).toBe('0%');
  });

  it('gives no share of nothing', () => {
    expect(formatShare(2, 0)).toBeNull();
  });
});

describe('funnelSteps', () => {
  it('gives each step its share of the step before and, from the third, of visitors', () => {
    expect(funnelSteps(parseVisits(answer))).toEqual([
      { label: 'Visitors', count: 120, previousLabel: null, ofPrevious: null, ofVisitors: null },
      { label: 'Saw the bundles', count: 40, previousLabel: 'visitors', ofPrevious: '33.3%', ofVisitors: null },
      {
        label: 'Checkout clicks',
        count: 12,
        previousLabel: 'those who saw the bundles',
        ofPrevious: '30%',
        ofVisitors: '10%',
      },
      { label: 'Sales', count: 3, previousLabel: 'checkout clicks', ofPrevious: '25%', ofVisitors: '2.5%' },
    ]);
  });
});

describe('isEmptyPeriod', () => {
  const none: StaffVisits = {
    ...parseVisits(answer),
    funnel: { visitors: 0, bundles: 0, checkouts: 0, sales: 0 },
    plays: 0,
    returns: 0,
  };

  it('is empty with nothing counted and nothing sold', () => {
    expect(isEmptyPeriod(none)).toBe(true);
  });

  it('is not empty with a sale alone', () => {
    expect(isEmptyPeriod({ ...none, funnel: { ...none.funnel, sales: 1 } })).toBe(false);
  });
});

describe('withVisitors', () => {
  const rows = [
    { day: '2026-11-26', ebook: 1 },
    { day: '2026-11-27', ebook: 0 },
    { day: '2026-11-28', ebook: 2 },
  ];

  it('adds each day’s visitors, 0 for a day the visits do not list', () => {
    expect(withVisitors(rows, answer.chart)).toEqual([
      { day: '2026-11-26', ebook: 1, visitors: 0 },
      { day: '2026-11-27', ebook: 0, visitors: 20 },
      { day: '2026-11-28', ebook: 2, visitors: 9 },
    ]);
  });

  it('leaves the rows as they are before the visits load', () => {
    expect(withVisitors(rows, undefined)).toEqual(rows);
  });
});
