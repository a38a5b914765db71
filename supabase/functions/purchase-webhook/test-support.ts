// Test support (never imported by index.ts, so never deployed): signed requests as Shopify and
// Stripe send them (signed by signing.ts, which the function verifies with), and an in-memory
// store that keeps the contract's de-duplication by event id and the invitation ledger's rules
// (claims, the backoff after a mail outage) on a clock the test moves.
import {
  SHOPIFY_SIGNATURE_HEADER,
  shopifySignatureHeader,
  STRIPE_SIGNATURE_HEADER,
  stripeSignatureHeader,
  stripeSignatureHex,
} from './signing.ts';
import { tierRank, tiers } from '../../../src/content/tiers.ts';
import type {
  Campaign,
  InvitationOutcome,
  LineIds,
  InviteOutcome,
  PurchaseStore,
  RecordPurchaseResult,
  RecordRefundResult,
  Refund,
  RetryResult,
  Sale,
  Tier,
} from './types.ts';

export const SHOPIFY_SECRET = 'test-shopify-secret';
export const STRIPE_SECRET = 'whsec_test_stripe_secret';
export const BASE = 'http://functions.test/purchase-webhook';

export async function shopifyRequest(
  topic: string,
  body: unknown,
  {
    secret = SHOPIFY_SECRET,
    webhookId = crypto.randomUUID(),
    hmac,
  }: { secret?: string; webhookId?: string; hmac?: string | null } = {},
): Promise<Request> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers = new Headers({
    'Content-Type': 'application/json',
    'X-Shopify-Topic': topic,
    'X-Shopify-Webhook-Id': webhookId,
  });
  const signature = hmac === undefined ? await shopifySignatureHeader(secret, raw) : hmac;
  if (signature !== null) headers.set(SHOPIFY_SIGNATURE_HEADER, signature);
  return new Request(`${BASE}/shopify`, { method: 'POST', headers, body: raw });
}

/** Stripe's v1 signature of `raw` in hex (signing.ts), with the tests' secret unless told. */
export function stripeSignature(raw: string, timestamp: number, secret = STRIPE_SECRET): Promise<string> {
  return stripeSignatureHex(secret, timestamp, raw);
}

export async function stripeRequest(
  event: unknown,
  { secret = STRIPE_SECRET, timestamp, header }: { secret?: string; timestamp: number; header?: string | null },
): Promise<Request> {
  const raw = typeof event === 'string' ? event : JSON.stringify(event);
  const headers = new Headers({ 'Content-Type': 'application/json' });
  const value = header === undefined ? await stripeSignatureHeader(secret, timestamp, raw) : header;
  if (value !== null) headers.set(STRIPE_SIGNATURE_HEADER, value);
  return new Request(`${BASE}/stripe`, { method: 'POST', headers, body: raw });
}

export function shopifyOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 5551234567,
    email: 'Buyer@Example.com',
    currency: 'USD',
    total_price: '49.00',
    processed_at: '2026-11-20T10:00:00-05:00',
    line_items: [
      { id: 1, product_id: 'REPLACE_ME_shopify_product_foundation', variant_id: 77, price: '49.00', quantity: 1 },
    ],
    ...overrides,
  };
}

export function stripeSessionEvent(overrides: Record<string, unknown> = {}, type = 'checkout.session.completed') {
  return {
    id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    type,
    created: 1_795_000_000,
    data: {
      object: {
        id: 'cs_test_123',
        object: 'checkout.session',
        payment_status: 'paid',
        payment_intent: 'pi_test_123',
        amount_total: 49900,
        currency: 'usd',
        customer_details: { email: 'Stripe.Buyer@Example.com' },
        line_items: { data: [{ price: { id: 'REPLACE_ME_stripe_price_accelerated' } }] },
        ...overrides,
      },
    },
  };
}

type Call =
  | { kind: 'purchase'; sale: Sale }
  | { kind: 'campaign'; provider: Sale['provider']; orderId: string; campaign: Campaign }
  | { kind: 'refund'; refund: Refund }
  | { kind: 'invite'; email: string; redirectTo: string }
  | { kind: 'finish'; email: string; outcome: InvitationOutcome; reason: string | null }
  | { kind: 'retry'; email: string; reason: string; backoffSeconds: readonly number[] }
  | { kind: 'mail_path'; viaAuth: boolean };

export type Invitation = {
  status: 'pending' | 'sending' | InvitationOutcome;
  claimId: string | null;
  attempts: number;
  /** Outages in a row (buyer_invitations.retries). */
  retries: number;
  /** Epoch ms before which a pending invitation is not claimed; null: due now. */
  nextAttemptAt: number | null;
  lastError: string | null;
};

const queued = (): Invitation => ({
  status: 'pending',
  claimId: null,
  attempts: 0,
  retries: 0,
  nextAttemptAt: null,
  lastError: null,
});

/**
 * The seeded catalog's provider ids (supabase/seed.sql): each tier's Shopify product and Stripe
 * price placeholder, `REPLACE_ME_<kind>_<tier>`.
 */
export function seededCatalog(): Map<string, Tier> {
  return new Map(
    tiers.flatMap((tier) =>
      (['shopify_product', 'stripe_price'] as const).map(
        (kind) => [`${kind}:REPLACE_ME_${kind}_${tier}`, tier] as const,
      ),
    ),
  );
}

/** The highest tier any id of `lines` maps to in `catalog`, as private.catalog_match answers. */
function catalogMatch(catalog: Map<string, Tier>, lines: readonly LineIds[]): Tier | null {
  let best: Tier | null = null;
  for (const line of lines) {
    for (const [kind, id] of Object.entries(line)) {
      const tier = catalog.get(`${kind}:${id}`);
      if (tier && (best === null || tierRank(tier) > tierRank(best))) best = tier;
    }
  }
  return best;
}

/**
 * The contract's de-duplication and catalog matching, in memory: an event id seen before is a
 * duplicate; a sale matching no catalog id is unmatched.
 */
export class MemoryStore implements PurchaseStore {
  calls: Call[] = [];
  seen = new Set<string>();
  /** `kind:id` → tier, as catalog_provider_ids. */
  catalog = seededCatalog();
  /** E-mail → what record_purchase says about the buyer's account. */
  accounts = new Map<string, RecordPurchaseResult['account']>();
  inviteAnswer: InviteOutcome | Error = { kind: 'invited' };
  /** The ledger's invitation rows, with claim_invitation's rule (minus the expiry of a sent one). */
  invitations = new Map<string, Invitation>();
  /** The database's clock (now()), epoch ms: the test moves it. */
  now = Date.parse('2026-11-23T12:00:00Z');
  /** False: invitations go through the mail API; true: through Auth's own invite. */
  invitesViaAuth = false;
  /** `provider:orderId` of every matched sale, as public.purchases holds them. */
  orders = new Set<string>();
  /** `provider:orderId` → the campaign kept for it, as public.purchase_campaigns. */
  campaigns = new Map<string, Campaign>();
  /** Thrown by recordCampaign when set: the database refusing the campaign. */
  campaignFailure: Error | null = null;

  async recordPurchase(sale: Sale): Promise<RecordPurchaseResult> {
    this.calls.push({ kind: 'purchase', sale });
    const key = `${sale.provider}:${sale.eventId}`;
    const duplicate = this.seen.has(key);
    this.seen.add(key);
    const tier = catalogMatch(this.catalog, sale.lines);
    if (tier === null) return { duplicate, unmatched: true, tier, purchaseId: null, userId: null, account: 'none' };
    this.orders.add(`${sale.provider}:${sale.orderId}`);
    const account = this.accounts.get(sale.email) ?? 'none';
    // As the purchases trigger does: a sale without a confirmed account queues the invitation.
    if (!duplicate && account !== 'confirmed' && !this.invitations.has(sale.email)) {
      this.invitations.set(sale.email, queued());
    }
    const purchaseId = duplicate ? null : crypto.randomUUID();
    return { duplicate, unmatched: false, tier, purchaseId, userId: null, account };
  }

  /** record_purchase_campaign's rule: an upsert on the order's purchase, false with none. */
  async recordCampaign(provider: Sale['provider'], orderId: string, campaign: Campaign): Promise<boolean> {
    this.calls.push({ kind: 'campaign', provider, orderId, campaign });
    if (this.campaignFailure) throw this.campaignFailure;
    const key = `${provider}:${orderId}`;
    if (!this.orders.has(key)) return false;
    this.campaigns.set(key, campaign);
    return true;
  }

  async recordRefund(refund: Refund): Promise<RecordRefundResult> {
    this.calls.push({ kind: 'refund', refund });
    if (refund.lines !== null && catalogMatch(this.catalog, refund.lines) === null) {
      return { duplicate: false, found: false, userId: null, ignored: true, unmatched: false };
    }
    const key = `${refund.provider}:${refund.eventId}`;
    const duplicate = this.seen.has(key);
    this.seen.add(key);
    return { duplicate, found: true, userId: null, ignored: false, unmatched: false };
  }

  /** claim_due_invitations' rule for a pending row: never tried since queued, or its wait is over. */
  private due(row: Invitation): boolean {
    return (
      row.status === 'pending' && (row.attempts === 0 || row.nextAttemptAt === null || row.nextAttemptAt <= this.now)
    );
  }

  /** A claimed row, as the claims write it: a new series of tries unless it is one in progress. */
  private claim(email: string, row: Invitation): string {
    const claimId = crypto.randomUUID();
    const series = row.status === 'pending' && row.attempts > 0;
    this.invitations.set(email, {
      ...row,
      status: 'sending',
      claimId,
      attempts: row.attempts + 1,
      retries: series ? row.retries : 0,
      nextAttemptAt: null,
    });
    return claimId;
  }

  async claimInvitation(email: string): Promise<string | null> {
    if (this.accounts.get(email) === 'confirmed') return null;
    const row = this.invitations.get(email) ?? queued();
    if (!this.due(row) && row.status !== 'failed' && row.status !== 'accepted') return null;
    return this.claim(email, row);
  }

  async claimDueInvitations(limit: number): Promise<{ email: string; claimId: string }[]> {
    const due = [...this.invitations].filter(([, r]) => this.due(r));
    return due.slice(0, limit).map(([email, row]) => ({ email, claimId: this.claim(email, row) }));
  }

  async finishInvitation(email: string, claimId: string, outcome: InvitationOutcome, reason: string | null) {
    this.calls.push({ kind: 'finish', email, outcome, reason });
    const row = this.invitations.get(email);
    if (row?.claimId !== claimId || row.status !== 'sending') return;
    this.invitations.set(email, {
      ...row,
      status: outcome,
      claimId: null,
      retries: outcome === 'sent' || outcome === 'accepted' ? 0 : row.retries,
      nextAttemptAt: null,
      lastError: outcome === 'pending' || outcome === 'failed' ? reason : null,
    });
  }

  /** retry_invitation's rule: the next step of the backoff, or failed past the last. */
  async retryInvitation(
    email: string,
    claimId: string,
    reason: string,
    backoffSeconds: readonly number[],
  ): Promise<RetryResult | null> {
    this.calls.push({ kind: 'retry', email, reason, backoffSeconds });
    const row = this.invitations.get(email);
    if (row?.claimId !== claimId || row.status !== 'sending') return null;
    const retries = row.retries + 1;
    const wait = backoffSeconds[retries - 1];
    const nextAttemptAt = wait === undefined ? null : this.now + wait * 1000;
    const status = wait === undefined ? 'failed' : 'pending';
    this.invitations.set(email, { ...row, status, claimId: null, retries, nextAttemptAt, lastError: reason });
    return { status, nextAttemptAt: nextAttemptAt === null ? null : new Date(nextAttemptAt).toISOString(), retries };
  }

  /** staff_resend_invitation: pending, due now, a new series. */
  resend(email: string) {
    const row = this.invitations.get(email);
    if (row) this.invitations.set(email, { ...row, ...queued() });
  }

  async recordMailPath() {
    this.calls.push({ kind: 'mail_path', viaAuth: this.invitesViaAuth });
  }

  async inviteBuyer(email: string, redirectTo: string): Promise<InviteOutcome> {
    this.calls.push({ kind: 'invite', email, redirectTo });
    if (this.inviteAnswer instanceof Error) throw this.inviteAnswer;
    // As GoTrue does, an invitation creates the (unconfirmed) user.
    if (this.inviteAnswer.kind === 'invited' && !this.accounts.has(email)) this.accounts.set(email, 'unconfirmed');
    return this.inviteAnswer;
  }
}
