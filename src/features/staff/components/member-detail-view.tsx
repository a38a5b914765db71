import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { RetryButton } from '@/components/ui/retry-button';
import { ScrollTable } from '@/components/ui/scroll-table';
import { Spinner } from '@/components/ui/spinner';
import { account } from '@/content/account';
import { tierLabel, type Tier } from '@/content/tiers';
import type { ReadState } from '@/lib/read-state';
import {
  activeGrant,
  formatAmount,
  formatDateTime,
  providerName,
  type MemberDetail,
  type MemberPurchase,
} from '../lib/members';
import { EraseMemberDialog } from './erase-member-dialog';
import { GrantTierDialog, RevokeGrantDialog } from './tier-change-dialogs';

export type MemberDetailViewProps = {
  /** The member chosen in the list, by e-mail, for the heading while the detail loads. */
  email: string;
  /** null: the account no longer exists. */
  detail: ReadState<MemberDetail | null>;
  onClose: () => void;
  onGrant: (tier: Tier, reason: string) => Promise<void>;
  onRevoke: (reason: string) => Promise<void>;
  /** Erases the member: the typed e-mail and the reason; throws when refused. */
  onErase: (typedEmail: string, reason: string) => Promise<void>;
  /** After an erasure (the container closes the member). */
  onErased: () => void;
};

const sourceLabels: Record<string, string> = {
  purchase: 'Purchase',
  refund: 'Refund',
  staff_grant: 'Staff grant',
  staff_revoke: 'Staff revoke',
  account_confirmed: 'Account confirmed',
  system: 'System',
};

function tierText(tier: Tier | null): string {
  return tier ? tierLabel(tier) : 'No tier';
}

/**
 * One member: their tier and where it came from, their purchases, grants and history, and
 * the grant / revoke actions. Focus moves to its heading when a member is chosen, so a
 * keyboard or screen-reader user lands on what they asked for.
 */
export function MemberDetailView({
  email,
  detail,
  onClose,
  onGrant,
  onRevoke,
  onErase,
  onErased,
}: MemberDetailViewProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [email]);

  return (
    <section
      aria-labelledby="member-detail-title"
      className="border-navy-100 rounded-xl border bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2
          ref={heading}
          id="member-detail-title"
          tabIndex={-1}
          className="text-navy-900 font-serif text-2xl font-bold wrap-anywhere focus:outline-none"
        >
          {email}
        </h2>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close member
        </Button>
      </div>
      {detail.status === 'loading' && (
        <Spinner label={detail.retrying ? 'Still loading this member...' : 'Loading this member...'} className="py-8" />
      )}
      {detail.status === 'error' && (
        <div role="alert" className="mt-4 flex flex-col items-start gap-3">
          <p className="text-navy-800">We couldn&apos;t load this member. {detail.error.message}</p>
          <RetryButton retry={detail.retry} retrying={detail.retrying} />
        </div>
      )}
      {detail.status === 'ready' && detail.data === null && (
        <p className="text-navy-800 mt-4">This account no longer exists.</p>
      )}
      {detail.status === 'ready' && detail.data !== null && (
        <>
          <MemberDetailBody detail={detail.data} email={email} onGrant={onGrant} onRevoke={onRevoke} />
          <EraseSection email={email} onErase={onErase} onErased={onErased} />
        </>
      )}
      {detail.status === 'ready' && detail.refreshFailed && (
        <p role="status" className="mt-4 flex flex-wrap items-center gap-3 text-sm text-slate-700">
          This may be out of date: the latest read failed.
          <RetryButton retry={detail.retry} retrying={detail.retrying} />
        </p>
      )}
    </section>
  );
}

function MemberDetailBody({
  detail,
  email,
  onGrant,
  onRevoke,
}: {
  detail: MemberDetail;
  email: string;
  onGrant: MemberDetailViewProps['onGrant'];
  onRevoke: MemberDetailViewProps['onRevoke'];
}) {
  const [dialog, setDialog] = useState<'grant' | 'revoke' | null>(null);
  const grant = activeGrant(detail);
  return (
    <div className="mt-4 flex flex-col gap-6">
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        <dt className="text-navy-800 font-semibold">Tier</dt>
        <dd className="text-navy-900">{tierText(detail.tier)}</dd>
        <dt className="text-navy-800 font-semibold">Comes from</dt>
        <dd className="text-navy-900 wrap-anywhere">
          <TierSource detail={detail} />
        </dd>
      </dl>

      <div className="flex flex-wrap gap-3">
        <Button variant="gold" onClick={() => setDialog('grant')}>
          Grant a tier
        </Button>
        {grant && (
          <Button variant="outline" onClick={() => setDialog('revoke')}>
            Revoke staff grant
          </Button>
        )}
      </div>
      {!grant && (
        <p className="-mt-3 text-sm text-slate-700">
          No staff grant to revoke. A purchase is removed by refunding it at the checkout.
        </p>
      )}
      <GrantTierDialog
        email={email}
        open={dialog === 'grant'}
        onOpenChange={(open) => setDialog(open ? 'grant' : null)}
        currentTier={detail.tier}
        onGrant={onGrant}
      />
      {grant && (
        <RevokeGrantDialog
          email={email}
          open={dialog === 'revoke'}
          onOpenChange={(open) => setDialog(open ? 'revoke' : null)}
          grantLabel={tierLabel(grant.tier)}
          onRevoke={onRevoke}
        />
      )}

      <Purchases purchases={detail.purchases} />

      <StaffGrants grants={detail.grants} />
      <TierHistory audit={detail.audit} />
    </div>
  );
}

/** Every staff grant the member has had, in force or revoked, with who and why. */
function StaffGrants({ grants }: { grants: MemberDetail['grants'] }) {
  return (
    <section aria-labelledby="member-grants-title">
      <h3 id="member-grants-title" className="text-navy-900 text-lg font-bold">
        Staff grants
      </h3>
      {grants.length === 0 ? (
        <p className="text-navy-800 mt-1">None.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2">
          {grants.map((entry) => (
            <li key={entry.id} className="border-navy-100 rounded-lg border p-3 wrap-anywhere">
              <p className="text-navy-900 font-semibold">
                {tierLabel(entry.tier)} {entry.revoked_at ? '(revoked)' : '(in force)'}
              </p>
              <p className="text-navy-800 text-sm">
                Granted by {entry.granted_by_email ?? 'a former staff member'} on {formatDateTime(entry.granted_at)}:{' '}
                {entry.reason}
              </p>
              {entry.revoked_at && (
                <p className="text-navy-800 text-sm">
                  Revoked by {entry.revoked_by_email ?? 'a former staff member'} on {formatDateTime(entry.revoked_at)}
                  {entry.revoke_reason ? `: ${entry.revoke_reason}` : ''}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Every change of the member's tier: when, from what to what, why and by whom. */
function TierHistory({ audit }: { audit: MemberDetail['audit'] }) {
  return (
    <section aria-labelledby="member-history-title">
      <h3 id="member-history-title" className="text-navy-900 text-lg font-bold">
        Tier history
      </h3>
      {audit.length === 0 ? (
        <p className="text-navy-800 mt-1">No tier changes yet.</p>
      ) : (
        <ol className="mt-2 flex flex-col gap-2">
          {audit.map((entry, index) => (
            <li key={`${entry.changed_at}-${index}`} className="text-navy-800 text-sm wrap-anywhere">
              <span className="font-semibold">{formatDateTime(entry.changed_at)}</span>: {tierText(entry.old_tier)} →{' '}
              {tierText(entry.new_tier)}
              {entry.source ? ` (${sourceLabels[entry.source] ?? entry.source})` : ''}
              {entry.changed_by_email ? ` by ${entry.changed_by_email}` : ''}
              {entry.reason ? `: ${entry.reason}` : ''}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function TierSource({ detail }: { detail: MemberDetail }) {
  const source = detail.tier_source;
  if (!source) return <>{detail.tier ? 'Not recorded' : 'Nothing: no paid purchase and no staff grant'}</>;
  if (source.kind === 'purchase') {
    return (
      <>
        Purchase: {providerName(source.provider)} order {source.order_id}, product {source.product}
      </>
    );
  }
  return (
    <>
      Staff grant by {source.granted_by_email ?? 'a former staff member'} on {formatDateTime(source.granted_at)}.
      Reason: {source.reason}
    </>
  );
}

function Purchases({ purchases }: { purchases: MemberPurchase[] }) {
  return (
    <section aria-labelledby="member-purchases-title">
      <h3 id="member-purchases-title" className="text-navy-900 text-lg font-bold">
        Purchases
      </h3>
      {purchases.length === 0 ? (
        <p className="text-navy-800 mt-1">No purchases.</p>
      ) : (
        <ScrollTable
          captionId="member-purchases-caption"
          caption="Purchases, newest first"
          minWidthClassName="min-w-[40rem]"
          className="mt-2"
          columns={['Date', 'Checkout', 'Order', 'Product', 'Tier', 'Amount', 'Status']}
        >
          {purchases.map((purchase) => (
            <tr key={purchase.id} className="border-navy-100 border-t">
              <td className="px-3 py-2">{formatDateTime(purchase.created_at)}</td>
              <td className="px-3 py-2">{providerName(purchase.provider)}</td>
              <td className="px-3 py-2 break-all">{purchase.order_id}</td>
              <td className="px-3 py-2">{purchase.product}</td>
              <td className="px-3 py-2">{tierLabel(purchase.tier)}</td>
              <td className="px-3 py-2">{formatAmount(purchase.amount_cents, purchase.currency)}</td>
              <td className="px-3 py-2">
                {purchase.status === 'refunded'
                  ? `Refunded ${purchase.refunded_at ? formatDateTime(purchase.refunded_at) : ''}`.trim()
                  : 'Paid'}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

/** Erasure at the member's request, last on the page: separate from the everyday actions. */
function EraseSection({ email, onErase, onErased }: Pick<MemberDetailViewProps, 'email' | 'onErase' | 'onErased'>) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="member-erase-title" className="border-navy-100 mt-6 border-t pt-4">
      <h3 id="member-erase-title" className="text-navy-900 text-lg font-bold">
        {account.erase.open}
      </h3>
      <p className="text-navy-800 mt-1 text-sm">{account.erase.description}</p>
      <Button variant="destructive" className="mt-3" onClick={() => setOpen(true)}>
        {account.erase.open}
      </Button>
      <EraseMemberDialog
        email={email}
        open={open}
        onOpenChange={setOpen}
        onErase={onErase}
        onErased={() => {
          setOpen(false);
          onErased();
        }}
      />
    </section>
  );
}
