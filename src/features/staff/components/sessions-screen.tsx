import { paths } from '@/config/paths';
import { useAssignBooking } from '../api/assign-booking';
import { SESSIONS_LIMIT, useMemberEmails, useUnmatchedBookings, useUpcomingSessions } from '../api/sessions';
import { SessionsView } from './sessions-view';
import { StaffScreen } from './staff-screen';
import { UnmatchedBookingsView } from './unmatched-bookings-view';

const task = 'Seeing the coaching sessions';

/**
 * Container for /staff/sessions. Its reads are table reads, which RLS answers with the caller's
 * own rows rather than a refusal: the staff gate alone decides what a non-staff user sees.
 */
export function StaffSessionsScreen({ userId }: { userId: string }) {
  return (
    <StaffScreen userId={userId} path={paths.staffSessions} task={task}>
      <SessionsPage />
    </StaffScreen>
  );
}

function SessionsPage() {
  const upcoming = useUpcomingSessions();
  const unmatched = useUnmatchedBookings();
  const assign = useAssignBooking();
  const memberEmails = useMemberEmails(upcoming.status === 'ready' ? upcoming.data : []);
  return (
    <SessionsView
      upcoming={upcoming}
      memberEmails={memberEmails}
      limit={SESSIONS_LIMIT}
      unmatched={
        <UnmatchedBookingsView
          unmatched={unmatched}
          onAssign={(bookingId, email) => assign.mutateAsync({ bookingId, email })}
        />
      }
    />
  );
}
