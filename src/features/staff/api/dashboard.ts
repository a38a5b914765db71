import { queryOptions, useQuery } from '@tanstack/react-query';
import { readState, type ReadState } from '@/lib/read-state';
import { parseDashboard, type StaffDashboard } from '../lib/dashboard';
import { retryUnlessRefused } from './list-members';
import { callStaffRpc } from './staff-rpc';

export const dashboardKeys = {
  all: ['staff', 'dashboard'] as const,
};

/** The figures refresh while the page is open: sales keep arriving. */
const REFRESH_MS = 60_000;

export async function getDashboard(): Promise<StaffDashboard> {
  const [figures, mailStatus] = await Promise.all([
    callStaffRpc('staff_dashboard', {}),
    callStaffRpc('staff_mail_status', {}),
  ]);
  return parseDashboard(figures, mailStatus);
}

export function dashboardQueryOptions() {
  return queryOptions({
    queryKey: dashboardKeys.all,
    queryFn: getDashboard,
    retry: retryUnlessRefused,
    refetchInterval: REFRESH_MS,
    meta: { errorMessage: 'Could not load the dashboard' },
  });
}

export function useDashboard(): ReadState<StaffDashboard> {
  return readState(useQuery(dashboardQueryOptions()));
}
