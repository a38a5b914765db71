// The shapes every part of the purchase webhook shares: what a provider adapter makes of a
// request, and what the handler asks of the store. Plain TypeScript: no Deno or Node globals.
import type { Tier } from '../../../src/content/tiers.ts';
import type { Campaign } from '../../../src/lib/campaign.ts';

export type { Campaign, Tier };
export type ProviderName = 'shopify' | 'stripe';
export const providerNames: readonly ProviderName[] = ['shopify', 'stripe'];

/** The kinds of provider id the catalog maps to a product (`catalog_provider_ids.kind`). */
export type ProviderIdKind = 'shopify_product' | 'shopify_variant' | 'stripe_price' | 'stripe_product';

/** One line item as its provider ids, e.g. `{ stripe_price: 'price_…', stripe_product: 'prod_…' }`. */
export type LineIds = Partial<Record<ProviderIdKind, string>>;

/**
 * A paid order: one per order (`purchases` is unique on provider + order id). Which product it
 * is, the database decides from the catalog when it records the sale (record_catalog_sale).
 */
export type Sale = {
  kind: 'sale';
  provider: ProviderName;
  eventId: string;
  orderId: string;
  /** Lower-cased. */
  email: string;
  lines: LineIds[];
  /** Minor units (cents), as the currency defines them. */
  amountCents: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** ISO timestamp of the sale at the provider. */
  occurredAt: string;
  /** The campaign the checkout link carried to the order (src/lib/campaign.ts); null: none. */
  campaign: Campaign | null;
};

/** A refund that returns the product: the order's grant is withdrawn. */
export type Refund = {
  kind: 'refund';
  provider: ProviderName;
  eventId: string;
  orderId: string;
  occurredAt: string;
  /**
   * The refunded line items (Shopify): the refund withdraws the order only when one of them is
   * a product the order sold. Null (Stripe's full refund): it withdraws the order.
   */
  lines: LineIds[] | null;
};

/** A genuine event this function has nothing to do with: acknowledged, logged, nothing changed. */
export type Ignored = { kind: 'ignored'; provider: ProviderName; eventId: string | null; reason: string };

export type ParsedEvent = Sale | Refund | Ignored;

/** An answer the handler gives as is: 400 malformed, 401 signature, 404, 405, 413. */
export class WebhookError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * One checkout provider. `verify` runs first, over the raw bytes, before anything is parsed;
 * `parse` only ever sees a body whose signature was good.
 */
export interface PurchaseProvider {
  readonly name: ProviderName;
  /** Throws WebhookError(401) when the signature is missing, wrong or stale. */
  verify(rawBody: Uint8Array<ArrayBuffer>, headers: Headers, now: Date): Promise<void>;
  /** Throws WebhookError(400) when the body or a required header is malformed. */
  parse(rawBody: Uint8Array<ArrayBuffer>, headers: Headers): Promise<ParsedEvent>;
}

/** `public.record_purchase`'s answer (the shared data contract). */
export type RecordPurchaseResult = {
  duplicate: boolean;
  /** True when no line item is in the catalog: the sale is kept for staff (unmatched_sales). */
  unmatched: boolean;
  /** The tier the catalog matched; null when unmatched. */
  tier: Tier | null;
  purchaseId: string | null;
  userId: string | null;
  account: 'confirmed' | 'unconfirmed' | 'none';
  /**
   * When the store claims the invitation with the sale (public.record_sale): the claim id, or
   * null when another delivery holds it or it is sent and still good. Absent: not asked.
   */
  invitationClaim?: string | null;
};

/** `public.record_refund`'s answer. */
export type RecordRefundResult = {
  duplicate: boolean;
  found: boolean;
  userId: string | null;
  /** The refunded lines returned no product the order sold: nothing recorded. */
  ignored: boolean;
  /** The refund is of an unmatched sale. */
  unmatched: boolean;
};

/**
 * What became of one invitation: sent; the address has a confirmed account already; the
 * project's hourly e-mail budget or the mail provider's quota is spent (a 429: it goes at the
 * next scheduled run); the mail provider or Auth could not take it now (a 5xx, or no answer: it
 * is tried again after a backoff); or refused for another reason (a 4xx: a bad address, a bad
 * key; kept, with the reason, for staff).
 */
export type InviteOutcome =
  | { kind: 'invited' }
  | { kind: 'already_registered' }
  | { kind: 'rate_limited'; reason: string }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'failed'; reason: string };

/** The ledger's state of an invitation once a caller is done with it. */
export type InvitationOutcome = 'sent' | 'pending' | 'failed' | 'accepted';

/** What public.retry_invitation made of a mail outage: wait (until when), or failed for good. */
export type RetryResult = { status: 'pending' | 'failed'; nextAttemptAt: string | null; retries: number };

/** What the handler needs from the database and from Supabase Auth. */
export interface PurchaseStore {
  recordPurchase(sale: Sale): Promise<RecordPurchaseResult>;
  /**
   * Keeps the campaign of a recorded sale (public.record_purchase_campaign): false when no
   * purchase has that provider and order id. Absent: this store keeps no campaigns.
   */
  recordCampaign?(provider: ProviderName, orderId: string, campaign: Campaign): Promise<boolean>;
  recordRefund(refund: Refund): Promise<RecordRefundResult>;
  /**
   * Claims the right to invite the buyer (public.claim_invitation): a claim id for exactly one
   * of any concurrent callers, null when another holds it, it was sent and is still good, or the
   * account is confirmed.
   */
  claimInvitation(email: string): Promise<string | null>;
  /** The scheduled run's batch of due invitations, each claimed (public.claim_due_invitations). */
  claimDueInvitations(limit: number): Promise<{ email: string; claimId: string }[]>;
  /** Records what became of a claimed invitation (public.finish_invitation). */
  finishInvitation(email: string, claimId: string, outcome: InvitationOutcome, reason: string | null): Promise<void>;
  /**
   * Records a mail outage met by a claimed invitation (public.retry_invitation): pending until
   * the backoff's next step has passed (`backoffSeconds[retries - 1]`), or failed after the last.
   * Null when the caller no longer holds the claim.
   */
  retryInvitation(
    email: string,
    claimId: string,
    reason: string,
    backoffSeconds: readonly number[],
  ): Promise<RetryResult | null>;
  /** Asks Auth to invite the buyer; never throws for Auth's own refusals (see InviteOutcome). */
  inviteBuyer(email: string, redirectTo: string): Promise<InviteOutcome>;
  /** True when inviteBuyer goes through Auth's own invite (no mail API): its hourly budget. */
  readonly invitesViaAuth: boolean;
  /** Records which way invitations go (public.record_mail_path), for the staff dashboard. */
  recordMailPath(): Promise<void>;
}
