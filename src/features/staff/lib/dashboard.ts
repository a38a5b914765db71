import { z } from '@/config/zod-config';
import type { tiers } from '@/content/tiers';
import type { PdfProblemReason } from '../../../../supabase/functions/_shared/pdf-problems';

/**
 * public.staff_dashboard()'s answer (untyped jsonb, checked at the edge): the figures are
 * computed in the database, in the owner's time zone; the page only shows them.
 */
const currencySchema = z.object({
  currency: z.string(),
  revenue_cents: z.number(),
  refunded_cents: z.number(),
  net_cents: z.number(),
});

const periodSchema = z.object({
  days: z.number(),
  since: z.string(),
  sales: z.number(),
  refunds: z.number(),
  currencies: z.array(currencySchema),
});
export type DashboardPeriod = z.infer<typeof periodSchema>;

const daySchema = z.object({
  day: z.string(),
  tiers: z.object({ ebook: z.number(), foundation: z.number(), accelerated: z.number(), complete: z.number() }),
});

const topFileSchema = z.object({ name: z.string(), downloads: z.number() });
export type TopFile = z.infer<typeof topFileSchema>;

const reasons = ['not_pdf', 'encrypted', 'damaged'] as const satisfies readonly PdfProblemReason[];

/** A file version members were refused because it cannot be stamped (still the one in the bucket). */
const unstampableFileSchema = z.object({
  name: z.string(),
  reason: z.enum(reasons),
  first_seen: z.string(),
  last_seen: z.string(),
  refusals: z.number(),
});
export type UnstampableFile = z.infer<typeof unstampableFileSchema>;

const dashboardSchema = z.object({
  time_zone: z.string(),
  today: z.string(),
  periods: z.array(periodSchema),
  chart: z.array(daySchema),
  waiting_invitations: z.number(),
  unmatched_sales: z.number(),
  /** Null until downloads are logged. */
  top_files: z.array(topFileSchema).nullable(),
  /** Latest refusal first. */
  unstampable_files: z.array(unstampableFileSchema),
});
/**
 * public.staff_mail_status(): whether the purchase webhook last invited buyers through Auth's
 * e-mail (no MAIL_API_KEY set) rather than the mail API; all null until it first reported.
 */
const mailStatusSchema = z.object({
  invites_via_auth: z.boolean().nullable(),
  since: z.string().nullable(),
  last_seen: z.string().nullable(),
});
export type MailStatus = z.infer<typeof mailStatusSchema>;

export type StaffDashboard = z.infer<typeof dashboardSchema> & { mail_status: MailStatus };

/** The dashboard's figures and the webhook's mail path, as the two RPCs answer them. */
export function parseDashboard(data: unknown, mailStatus: unknown): StaffDashboard {
  return { ...dashboardSchema.parse(data), mail_status: mailStatusSchema.parse(mailStatus) };
}

/** The chart's rows: one a day, a count per tier (0 where none sold). */
export function chartRows(dashboard: StaffDashboard): ({ day: string } & Record<(typeof tiers)[number], number>)[] {
  return dashboard.chart.map(({ day, tiers: counts }) => ({ day, ...counts }));
}

export function periodLabel(days: number): string {
  return days === 1 ? 'Today' : `Last ${days} days`;
}
