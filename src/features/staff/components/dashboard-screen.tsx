import { lazy, Suspense, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useCoachingAllowances } from '../api/coaching-allowances';
import { useDashboard } from '../api/dashboard';
import { useLiveOverview } from '../api/live';
import { useCoachingAttention } from '../api/sessions';
import { isStaffRefusal } from '../api/staff-rpc';
import { useVisits } from '../api/visits';
import { useWebhookStatus } from '../api/webhook-status';
import { providersWithoutSecret, type WebhookProvider } from '../lib/coaching';
import { DEFAULT_VISIT_PERIOD, type VisitPeriod } from '../lib/visits';
import { StaffOnlyView } from './admin-upload-view';
import { CoachingAttentionView } from './coaching-attention-view';
import { DashboardView } from './dashboard-view';
import { LiveAttentionView } from './live-attention-view';
import { StaffScreen } from './staff-screen';
import { VisitsView } from './visits-view';

// The chart library loads with the chart, after the figures, and only on this page.
const SalesChart = lazy(() => import('./sales-chart'));

const task = 'The dashboard';

/** Container for /staff, the staff's home page. */
export function StaffDashboardScreen({ userId }: { userId: string }) {
  return (
    <StaffScreen userId={userId} path={paths.staff} task={task}>
      <DashboardPage />
    </StaffScreen>
  );
}

function DashboardPage() {
  const dashboard = useDashboard();
  const [visitDays, setVisitDays] = useState<VisitPeriod>(DEFAULT_VISIT_PERIOD);
  const visits = useVisits(visitDays);
  if (dashboard.status === 'error' && isStaffRefusal(dashboard.error))
    return <StaffOnlyView signedIn task={task} path={paths.staff} />;
  return (
    <DashboardView
      dashboard={dashboard}
      visits={<VisitsView visits={visits} days={visitDays} onDaysChange={setVisitDays} />}
      attention={
        <>
          <CoachingAttention />
          <LiveAttention />
        </>
      }
      visitorsPerDay={visits.status === 'ready' ? visits.data.chart : undefined}
      chart={(rows) => (
        <Suspense fallback={<Spinner label="Loading the chart..." className="h-72" />}>
          <SalesChart rows={rows} />
        </Suspense>
      )}
    />
  );
}

/**
 * The coaching's items of "Needs attention". The webhook's providers are judged once both its
 * answer and the booking pages are in; a failed ask says nothing (the cache logs it).
 */
function CoachingAttention() {
  const counts = useCoachingAttention();
  const webhook = useWebhookStatus();
  const allowances = useCoachingAllowances();
  const unrecorded: WebhookProvider[] =
    webhook.status === 'ready' && allowances.status === 'ready'
      ? providersWithoutSecret(webhook.data, allowances.data)
      : [];
  return <CoachingAttentionView counts={counts} unrecorded={unrecorded} />;
}

/** The live sessions' items of "Needs attention": the next sessions and the access ending this week. */
function LiveAttention() {
  return <LiveAttentionView overview={useLiveOverview()} />;
}
