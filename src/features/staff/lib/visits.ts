import { z } from '@/config/zod-config';

/**
 * public.staff_visits(p_days)'s answer (untyped jsonb, checked at the edge): the counts are
 * made in the database, in the owner's time zone; the page only shows them.
 */

/** The periods the visits can be read for: 1 is today. */
export const visitPeriods = [1, 7, 30, 90] as const;
export type VisitPeriod = (typeof visitPeriods)[number];
export const DEFAULT_VISIT_PERIOD: VisitPeriod = 7;

const revenueSchema = z.object({ currency: z.string(), cents: z.number() });
export type Revenue = z.infer<typeof revenueSchema>;

const countsShape = {
  visitors: z.number(),
  checkouts: z.number(),
  sales: z.number(),
  revenue: z.array(revenueSchema),
};

/** One (source, medium, campaign); all three null for direct / unknown. */
const campaignRowSchema = z.object({
  source: z.string().nullable(),
  medium: z.string().nullable(),
  campaign: z.string().nullable(),
  ...countsShape,
});
export type CampaignRow = z.infer<typeof campaignRowSchema>;

/** One referring host; null for direct / unknown. */
const referrerRowSchema = z.object({ referrer: z.string().nullable(), ...countsShape });
export type ReferrerRow = z.infer<typeof referrerRowSchema>;

const visitorDaySchema = z.object({ day: z.string(), visitors: z.number() });
export type VisitorDay = z.infer<typeof visitorDaySchema>;

const visitsSchema = z.object({
  days: z.literal(visitPeriods),
  since: z.string(),
  today: z.string(),
  time_zone: z.string(),
  funnel: z.object({ visitors: z.number(), bundles: z.number(), checkouts: z.number(), sales: z.number() }),
  by_campaign: z.array(campaignRowSchema),
  by_referrer: z.array(referrerRowSchema),
  plays: z.number(),
  returns: z.number(),
  /** Visitors per day over the 90 days ending today, whatever the period. */
  chart: z.array(visitorDaySchema),
});
export type StaffVisits = z.infer<typeof visitsSchema>;

export function parseVisits(data: unknown): StaffVisits {
  return visitsSchema.parse(data);
}

export const DIRECT_UNKNOWN = 'direct / unknown';

export function visitPeriodLabel(days: VisitPeriod): string {
  return days === 1 ? 'Today' : `${days} days`;
}

/** The period in words, to end a sentence or a caption: "today" or "in the last 7 days". */
export function visitPeriodPhrase(days: VisitPeriod): string {
  return days === 1 ? 'today' : `in the last ${days} days`;
}

/** `part` as a share of `whole`, to one decimal place at most ("33.3%", "25%"); null when `whole` is 0. */
export function formatShare(part: number, whole: number): string | null {
  if (whole <= 0) return null;
  const percent = Math.round((part / whole) * 1000) / 10;
  return `${percent}%`;
}

/** The row stands for visitors and sales with no campaign, no source and no medium. */
export function isDirectCampaign(row: CampaignRow): boolean {
  return row.source === null && row.medium === null && row.campaign === null;
}

/** A step of the funnel: its count and its shares of the step before and of visitors. */
export type FunnelStep = {
  label: string;
  count: number;
  /** Share of the step before; null for the first step, or when the step before is 0. */
  ofPrevious: string | null;
  /** What the step before is called in "… of …", lower-case. */
  previousLabel: string | null;
  /** Share of visitors; null for the first two steps (the second's step before is visitors). */
  ofVisitors: string | null;
};

/** Visitors → Saw the bundles → Checkout clicks → Sales. */
export function funnelSteps({ funnel }: StaffVisits): FunnelStep[] {
  const steps = [
    { label: 'Visitors', count: funnel.visitors, previousLabel: null },
    { label: 'Saw the bundles', count: funnel.bundles, previousLabel: 'visitors' },
    { label: 'Checkout clicks', count: funnel.checkouts, previousLabel: 'those who saw the bundles' },
    { label: 'Sales', count: funnel.sales, previousLabel: 'checkout clicks' },
  ];
  return steps.map((step, index) => {
    const previous = index > 0 ? steps[index - 1]!.count : null;
    return {
      ...step,
      ofPrevious: previous === null ? null : formatShare(step.count, previous),
      ofVisitors: index > 1 ? formatShare(step.count, funnel.visitors) : null,
    };
  });
}

/** Nothing counted and nothing sold in the period. */
export function isEmptyPeriod(visits: StaffVisits): boolean {
  const { visitors, bundles, checkouts, sales } = visits.funnel;
  return visitors + bundles + checkouts + sales + visits.plays + visits.returns === 0;
}

/** The sales chart's rows with each day's visitors added (0 for a day the visits do not list). */
export function withVisitors<Row extends { day: string }>(
  rows: readonly Row[],
  visitorDays: readonly VisitorDay[] | undefined,
): (Row & { visitors?: number })[] {
  if (!visitorDays) return [...rows];
  const byDay = new Map(visitorDays.map((entry) => [entry.day, entry.visitors]));
  return rows.map((row) => ({ ...row, visitors: byDay.get(row.day) ?? 0 }));
}
