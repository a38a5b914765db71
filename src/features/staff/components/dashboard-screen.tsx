import { lazy, Suspense, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useDashboard } from '../api/dashboard';
import { isStaffRefusal } from '../api/staff-rpc';
import { useVisits } from '../api/visits';
import { DEFAULT_VISIT_PERIOD, type VisitPeriod } from '../lib/visits';
import { StaffOnlyView } from './admin-upload-view';
import { DashboardView } from './dashboard-view';
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
      visitorsPerDay={visits.status === 'ready' ? visits.data.chart : undefined}
      chart={(rows) => (
        <Suspense fallback={<Spinner label="Loading the chart..." className="h-72" />}>
          <SalesChart rows={rows} />
        </Suspense>
      )}
    />
  );
}
