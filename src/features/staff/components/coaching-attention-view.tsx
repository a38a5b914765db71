import { Link } from 'react-router-dom';
import { RetryButton } from '@/components/ui/retry-button';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/error-message';
import type { ReadState } from '@/lib/read-state';
import type { CoachingAttention } from '../api/sessions';
import { providerLabel, type WebhookProvider } from '../lib/coaching';

const card = 'hover:bg-navy-50 rounded-xl bg-white p-4 shadow-sm';

/** Each provider's secret, as the booking webhook reads it (README, "Coaching bookings"). */
const secretNames: Record<WebhookProvider, string> = {
  calcom: 'CALCOM_WEBHOOK_SECRET',
  calendly: 'CALENDLY_WEBHOOK_SIGNING_KEY',
};

/**
 * The dashboard's coaching items of "Needs attention": the bookings to assign and the sessions
 * to come booked over their member's allowance, each leading to /staff/sessions; and, when the
 * webhook cannot record a provider the booking pages use, which one and the step that fixes it.
 */
export function CoachingAttentionView({
  counts,
  unrecorded,
}: {
  counts: ReadState<CoachingAttention>;
  /** The providers of the tiers' booking pages whose bookings the webhook cannot record. */
  unrecorded: readonly WebhookProvider[];
}) {
  return (
    <>
      {counts.status === 'ready' && (
        <>
          <Link to={paths.staffSessions} className={card}>
            <span className="text-navy-900 block text-3xl font-bold">{counts.data.unmatched}</span>{' '}
            <span className="text-navy-800">Unmatched bookings to assign to a member</span>
          </Link>
          <Link to={paths.staffSessions} className={card}>
            <span className="text-navy-900 block text-3xl font-bold">{counts.data.overAllowance}</span>{' '}
            <span className="text-navy-800">Upcoming sessions booked over allowance</span>
          </Link>
        </>
      )}
      {counts.status === 'error' && (
        <div role="alert" className="flex flex-col items-start gap-2 rounded-xl bg-white p-4 shadow-sm sm:col-span-2">
          <p className="text-navy-900 font-semibold">We couldn&apos;t count the coaching bookings.</p>
          <p className="text-navy-800 text-sm">{errorMessage(counts.error)}</p>
          <RetryButton retry={counts.retry} retrying={counts.retrying} />
        </div>
      )}
      {unrecorded.length > 0 && <UnrecordedProviders providers={unrecorded} />}
    </>
  );
}

function UnrecordedProviders({ providers }: { providers: readonly WebhookProvider[] }) {
  const names = providers.map(providerLabel).join(' and ');
  return (
    <div className="rounded-xl border-l-4 border-red-700 bg-white p-4 shadow-sm sm:col-span-2">
      <h2 className="text-navy-900 text-xl font-semibold">Bookings on {names} are not recorded</h2>
      <p className="text-navy-800 mt-1">
        The booking webhook has no signing secret for {names} (or is not deployed), so a session booked there is not
        counted and its member does not see it. Set the secret, and add the webhook at the provider (README,
        &ldquo;Coaching bookings&rdquo;):
      </p>
      <pre className="bg-navy-50 text-navy-900 mt-2 overflow-x-auto rounded-lg p-3 text-sm">
        <code>supabase secrets set {providers.map((provider) => `${secretNames[provider]}=…`).join(' ')}</code>
      </pre>
    </div>
  );
}
