import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { FullPageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useSessionRevalidation } from '@/lib/use-session-revalidation';
import { useIsStaff } from '../api/is-staff';
import { StaffCheckFailedView, StaffOnlyView } from './admin-upload-view';

/**
 * The container of a staff page, for the user its route loader let in: signed out while open,
 * to sign in (and back); the staff check while it runs; "staff only" for anyone else. The
 * check only chooses what to show: the database refuses the staff functions to non-staff.
 */
export function StaffScreen({
  userId,
  path,
  task,
  children,
}: {
  userId: string;
  path: string;
  /** What the page is for, in "… is for programme staff". */
  task: string;
  children: ReactNode;
}) {
  const sessionUserId = useSessionRevalidation(userId);
  if (!sessionUserId) return <Navigate to={`${paths.auth}?next=${path}`} replace />;
  return (
    <StaffGate userId={sessionUserId} path={path} task={task}>
      {children}
    </StaffGate>
  );
}

function StaffGate({
  userId,
  path,
  task,
  children,
}: {
  userId: string;
  path: string;
  task: string;
  children: ReactNode;
}) {
  const staff = useIsStaff(userId);
  if (staff.status === 'loading')
    return <FullPageSpinner label={staff.retrying ? 'Still checking access...' : 'Checking access...'} />;
  if (staff.status === 'error') return <StaffCheckFailedView retry={staff.retry} retrying={staff.retrying} />;
  if (!staff.data) return <StaffOnlyView signedIn task={task} path={path} />;
  return <>{children}</>;
}
