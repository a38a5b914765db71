import { checkFields } from '@/components/ui/form';
import { z } from '@/config/zod-config';
import { tiers } from '@/content/tiers';

/**
 * The shapes the staff members functions return (their shared data contract), checked
 * at the edge: `staff_member_detail` answers untyped jsonb, and a page that trusted a
 * changed shape would show a wrong tier as a right one.
 */
const tier = z.enum(tiers);

const memberColumns = {
  user_id: z.string(),
  email: z.string().nullable(),
  tier: tier.nullable(),
  tier_source: z.enum(['purchase', 'staff']).nullable(),
  purchase_count: z.number(),
  created_at: z.string(),
  last_sign_in_at: z.string().nullable(),
};

const toMember = (row: z.infer<z.ZodObject<typeof memberColumns>>) => ({
  userId: row.user_id,
  email: row.email ?? '',
  tier: row.tier,
  tierSource: row.tier_source,
  purchaseCount: row.purchase_count,
  createdAt: row.created_at,
  lastSignInAt: row.last_sign_in_at,
});

export const memberRowSchema = z
  .object({ ...memberColumns, total_count: z.number() })
  .transform((row) => ({ ...toMember(row), totalCount: row.total_count }));

/** A row of the export's keyset pages: `emailKey` and `userId` are where the next page starts. */
const exportRowSchema = z
  .object({ ...memberColumns, email_key: z.string().nullable() })
  .transform((row) => ({ ...toMember(row), emailKey: row.email_key }));

export type ExportRow = z.infer<typeof exportRowSchema>;

export function parseExportPage(rows: unknown): ExportRow[] {
  return z.array(exportRowSchema).parse(rows);
}

export type MemberRow = Omit<z.infer<typeof memberRowSchema>, 'totalCount'>;

/** One page of the search: its rows, and how many members match in all. */
export type MembersPage = { members: MemberRow[]; total: number };

export function parseMembersPage(rows: unknown): MembersPage {
  const parsed = z.array(memberRowSchema).parse(rows);
  return {
    members: parsed.map(({ totalCount: _total, ...member }) => member),
    // Every row carries the total; a page past the end has no row to carry it.
    total: parsed[0]?.totalCount ?? 0,
  };
}

const tierSourceSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('purchase'),
      purchase_id: z.string(),
      provider: z.string(),
      order_id: z.string(),
      product: z.string(),
    }),
    z.object({
      kind: z.literal('staff'),
      grant_id: z.string(),
      granted_by_email: z.string().nullable(),
      reason: z.string(),
      granted_at: z.string(),
    }),
  ])
  .nullable();

const purchaseSchema = z.object({
  id: z.string(),
  provider: z.string(),
  order_id: z.string(),
  product: z.string(),
  tier,
  amount_cents: z.number(),
  currency: z.string(),
  status: z.enum(['paid', 'refunded']),
  created_at: z.string(),
  refunded_at: z.string().nullable(),
});

const grantSchema = z.object({
  id: z.string(),
  tier,
  reason: z.string(),
  granted_by_email: z.string().nullable(),
  granted_at: z.string(),
  revoked_at: z.string().nullable(),
  revoked_by_email: z.string().nullable(),
  revoke_reason: z.string().nullable(),
});

const auditSchema = z.object({
  changed_at: z.string(),
  old_tier: tier.nullable(),
  new_tier: tier.nullable(),
  source: z.string().nullable(),
  reason: z.string().nullable(),
  changed_by_email: z.string().nullable(),
});

export const memberDetailSchema = z.object({
  user_id: z.string(),
  email: z.string().nullable(),
  tier: tier.nullable(),
  tier_source: tierSourceSchema,
  purchases: z.array(purchaseSchema),
  grants: z.array(grantSchema),
  audit: z.array(auditSchema),
});

export type MemberDetail = z.infer<typeof memberDetailSchema>;
export type MemberPurchase = MemberDetail['purchases'][number];
export type MemberGrant = MemberDetail['grants'][number];

export function parseMemberDetail(value: unknown): MemberDetail {
  return memberDetailSchema.parse(value);
}

/** The member's staff grant still in force, if any: what "Revoke" would end. */
export function activeGrant(detail: MemberDetail): MemberGrant | null {
  return detail.grants.find((grant) => grant.revoked_at === null) ?? null;
}

/** The reason every grant and revoke must give; the database checks the same rules (22023). */
export const reasonSchema = z
  .string()
  .trim()
  .min(1, { error: 'Give a reason: it is kept in the audit log.' })
  .max(500, { error: 'Keep the reason to 500 characters or fewer.' });

/** The first failing rule's message, or null when the reason is fine. */
export function checkReason(reason: string): string | null {
  const result = checkFields(reasonSchema, reason);
  return result.ok ? null : result.first;
}

/** `12.50 USD` in the buyer's currency: minor units over the currency's own decimals. */
export function formatAmount(amountCents: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amountCents / 10 ** digits);
  } catch {
    // An unknown code (Intl throws): the number, still readable.
    return `${(amountCents / 100).toFixed(2)} ${currency}`;
  }
}

const providerNames: Record<string, string> = { shopify: 'Shopify', stripe: 'Stripe' };

export function providerName(provider: string): string {
  return providerNames[provider] ?? provider;
}

/** "23 Nov 2026, 14:05 UTC": dates staff compare across time zones, so one zone. */
export function formatDateTime(iso: string | null): string {
  if (!iso) return 'Never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  })} UTC`;
}
