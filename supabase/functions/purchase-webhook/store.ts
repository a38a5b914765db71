// The store on Supabase: the service-role RPCs of the purchases ledger (record_catalog_sale and
// record_catalog_refund, which read the catalog for each event, record_purchase_campaign, which
// keeps a sale's campaign, and the invitation state:
// claim_invitation, claim_due_invitations, finish_invitation, retry_invitation, record_mail_path)
// and Auth's invitation. The client is passed in (index.ts makes it with the service-role key),
// described here only by the calls this file makes.
import { inviteMail, sendMail, type MailApi } from './mail.ts';
import { isObject } from './payload.ts';
import { tiers } from '../../../src/content/tiers.ts';
import type {
  InviteOutcome,
  PurchaseStore,
  RecordPurchaseResult,
  RecordRefundResult,
  RetryResult,
  Tier,
} from './types.ts';

type ApiError = { message: string; code?: string; status?: number; name?: string };

export type StoreClient = {
  rpc(fn: string, args: Record<string, unknown>): PromiseLike<{ data: unknown; error: ApiError | null }>;
  inviteUserByEmail(email: string, options: { redirectTo: string }): PromiseLike<{ error: ApiError | null }>;
  /** Auth's admin generateLink({ type: 'invite' }): the link and code, no e-mail sent. */
  generateInviteLink(
    email: string,
    options: { redirectTo: string },
  ): PromiseLike<{ data: { properties: { hashed_token: string; email_otp: string } | null }; error: ApiError | null }>;
};

/** Invitations through the transactional mail API: where it is and the site the link leads to. */
export type InvitationMail = { api: MailApi; siteUrl: string; fetch?: typeof fetch };

function nullableString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function tierOrNull(value: unknown): Tier | null {
  return tiers.find((t) => t === value) ?? null;
}

function purchaseResult(data: unknown): RecordPurchaseResult {
  if (!isObject(data) || typeof data.duplicate !== 'boolean') {
    throw new Error(`record_catalog_sale answered ${JSON.stringify(data)}`);
  }
  const account = data.account === 'confirmed' || data.account === 'unconfirmed' ? data.account : 'none';
  return {
    duplicate: data.duplicate,
    unmatched: data.unmatched === true,
    tier: tierOrNull(data.tier),
    purchaseId: nullableString(data.purchase_id),
    userId: nullableString(data.user_id),
    account,
    ...('invitation_claim' in data ? { invitationClaim: nullableString(data.invitation_claim) } : {}),
  };
}

function refundResult(data: unknown): RecordRefundResult {
  if (!isObject(data) || typeof data.duplicate !== 'boolean') {
    throw new Error(`record_catalog_refund answered ${JSON.stringify(data)}`);
  }
  return {
    duplicate: data.duplicate,
    found: data.found === true,
    userId: nullableString(data.user_id),
    ignored: data.ignored === true,
    unmatched: data.unmatched === true,
  };
}

/** GoTrue's answer when the project's hourly e-mail budget is spent (internal/api/mail.go). */
function overEmailBudget(error: ApiError): boolean {
  return error.code === 'over_email_send_rate_limit' || error.status === 429;
}

/** GoTrue's answer when the address already has a confirmed account. */
function alreadyRegistered(error: ApiError): boolean {
  return error.code === 'email_exists' || /already (been )?registered/i.test(error.message);
}

/**
 * Auth could not take the request now: a 5xx (its SMTP down, for its own invite), or no answer
 * (supabase-js's AuthRetryableFetchError, status 0 for a network failure).
 */
function authUnavailable(error: ApiError): boolean {
  return (error.status ?? 0) >= 500 || error.status === 0 || error.name === 'AuthRetryableFetchError';
}

/** An Auth refusal as an invitation's outcome. */
function authOutcome(error: ApiError): InviteOutcome {
  if (alreadyRegistered(error)) return { kind: 'already_registered' };
  const reason = `${error.code ?? error.status ?? 'error'}: ${error.message}`.slice(0, 500);
  if (overEmailBudget(error)) return { kind: 'rate_limited', reason };
  if (authUnavailable(error)) return { kind: 'unavailable', reason };
  return { kind: 'failed', reason };
}

/**
 * The mail provider's refusal as an invitation's outcome: its 429 (rate limit or quota) waits
 * like Auth's; a 5xx or no answer (status 0) is an outage, tried again after a backoff; any other
 * 4xx (a bad address, a bad key, an unverified sender) would be refused again: failed at once,
 * with the reason for staff.
 */
function mailOutcome(sent: { status: number; name: string; message: string }): InviteOutcome {
  const reason = `mail API ${sent.status} ${sent.name}: ${sent.message}`.slice(0, 500);
  if (sent.status === 429) return { kind: 'rate_limited', reason };
  if (sent.status === 0 || sent.status >= 500) return { kind: 'unavailable', reason };
  return { kind: 'failed', reason };
}

function retryResult(data: unknown): RetryResult | null {
  if (data === null) return null;
  if (!isObject(data) || (data.status !== 'pending' && data.status !== 'failed') || typeof data.retries !== 'number') {
    throw new Error(`retry_invitation answered ${JSON.stringify(data)}`);
  }
  return { status: data.status, nextAttemptAt: nullableString(data.next_attempt_at), retries: data.retries };
}

/**
 * The invitation made by Auth without a mail (generateLink spends none of its e-mail budget) and
 * sent through the mail API (mailOutcome: what the provider's refusals become).
 */
async function inviteThroughMailApi(
  client: StoreClient,
  mail: InvitationMail,
  email: string,
  redirectTo: string,
): Promise<InviteOutcome> {
  const { data, error } = await client.generateInviteLink(email, { redirectTo });
  if (error) return authOutcome(error);
  const properties = data.properties;
  if (!properties) return { kind: 'failed', reason: 'generateLink answered no link' };
  const made = inviteMail({
    siteUrl: mail.siteUrl,
    email,
    tokenHash: properties.hashed_token,
    otp: properties.email_otp,
  });
  const sent = await sendMail(mail.api, { to: email, ...made }, mail.fetch ? { fetch: mail.fetch } : {});
  return sent.ok ? { kind: 'invited' } : mailOutcome(sent);
}

/** The invitation's state in the ledger: its claims, its outcome, the backoff after an outage. */
function invitationLedger(
  client: StoreClient,
): Pick<PurchaseStore, 'claimInvitation' | 'claimDueInvitations' | 'finishInvitation' | 'retryInvitation'> {
  return {
    async claimInvitation(email) {
      const { data, error } = await client.rpc('claim_invitation', { p_email: email });
      if (error) throw new Error(`claim_invitation failed: ${error.message}`);
      return nullableString(data);
    },

    async claimDueInvitations(limit) {
      const { data, error } = await client.rpc('claim_due_invitations', { p_limit: limit });
      if (error) throw new Error(`claim_due_invitations failed: ${error.message}`);
      if (!Array.isArray(data)) throw new Error(`claim_due_invitations answered ${JSON.stringify(data)}`);
      return data.flatMap((row: unknown) =>
        isObject(row) && typeof row.email === 'string' && typeof row.claim_id === 'string'
          ? [{ email: row.email, claimId: row.claim_id }]
          : [],
      );
    },

    async finishInvitation(email, claimId, outcome, reason) {
      const { error } = await client.rpc('finish_invitation', {
        p_email: email,
        p_claim: claimId,
        p_outcome: outcome,
        p_reason: reason,
      });
      if (error) throw new Error(`finish_invitation failed: ${error.message}`);
    },

    async retryInvitation(email, claimId, reason, backoffSeconds) {
      const { data, error } = await client.rpc('retry_invitation', {
        p_email: email,
        p_claim: claimId,
        p_reason: reason,
        p_backoff_seconds: backoffSeconds,
      });
      if (error) throw new Error(`retry_invitation failed: ${error.message}`);
      return retryResult(data);
    },
  };
}

/**
 * `mail`: send invitations through the transactional mail API; without it, Auth's own invite
 * sends them (and they share its hourly e-mail budget).
 */
export function createSupabaseStore(client: StoreClient, mail?: InvitationMail): PurchaseStore {
  return {
    async recordPurchase(sale) {
      // record_catalog_sale: the catalog matched now, then record_sale (the purchase and the
      // invitation claimed in the same call), or the sale kept as unmatched.
      const { data, error } = await client.rpc('record_catalog_sale', {
        p_provider: sale.provider,
        p_event_id: sale.eventId,
        p_order_id: sale.orderId,
        p_email: sale.email,
        p_lines: sale.lines,
        p_amount_cents: sale.amountCents,
        p_currency: sale.currency,
        p_occurred_at: sale.occurredAt,
      });
      if (error) throw new Error(`record_catalog_sale failed: ${error.message}`);
      return purchaseResult(data);
    },

    async recordCampaign(provider, orderId, campaign) {
      const { data, error } = await client.rpc('record_purchase_campaign', {
        p_provider: provider,
        p_order_id: orderId,
        p_source: campaign.source,
        p_medium: campaign.medium,
        p_campaign: campaign.campaign,
        p_referrer: campaign.referrer,
      });
      if (error) throw new Error(`record_purchase_campaign failed: ${error.message}`);
      return data === true;
    },

    async recordRefund(refund) {
      const { data, error } = await client.rpc('record_catalog_refund', {
        p_provider: refund.provider,
        p_event_id: refund.eventId,
        p_order_id: refund.orderId,
        p_occurred_at: refund.occurredAt,
        p_lines: refund.lines,
      });
      if (error) throw new Error(`record_catalog_refund failed: ${error.message}`);
      return refundResult(data);
    },

    ...invitationLedger(client),

    async inviteBuyer(email, redirectTo) {
      if (mail) return inviteThroughMailApi(client, mail, email, redirectTo);
      const { error } = await client.inviteUserByEmail(email, { redirectTo });
      return error ? authOutcome(error) : { kind: 'invited' };
    },

    invitesViaAuth: !mail,

    async recordMailPath() {
      const { error } = await client.rpc('record_mail_path', { p_via_auth: !mail });
      if (error) throw new Error(`record_mail_path failed: ${error.message}`);
    },
  };
}
