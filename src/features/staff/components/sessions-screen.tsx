import { paths } from '@/config/paths';
import { useAssignBooking } from '../api/assign-booking';
import { useCancelLiveSession, useLiveOverview, useSaveLiveSession, useSaveTimedBenefit } from '../api/live';
import { SESSIONS_LIMIT, useMemberEmails, useUnmatchedBookings, useUpcomingSessions } from '../api/sessions';
import { LiveSessionsView } from './live-sessions-view';
import { SessionsView } from './sessions-view';
import { StaffScreen } from './staff-screen';
import { TimedBenefitsView } from './timed-benefits-view';
import { UnmatchedBookingsView } from './unmatched-bookings-view';

const task = 'Seeing the coaching sessions';

/**
 * Container for /staff/sessions. Its coaching reads are table reads, which RLS answers with the
 * caller's own rows rather than a refusal: the staff gate alone decides what a non-staff user
 * sees. The live sessions' read is a staff function, whose refusal its sections say.
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
      live={<LiveSections />}
    />
  );
}

/** The live sessions and the timed benefits: one read (the overview), each change read again. */
function LiveSections() {
  const overview = useLiveOverview();
  const save = useSaveLiveSession();
  const cancel = useCancelLiveSession();
  const saveBenefit = useSaveTimedBenefit();
  return (
    <>
      <LiveSessionsView
        overview={overview}
        onSave={async (id, data) => {
          await save.mutateAsync({ id, data });
        }}
        onCancel={(id) => cancel.mutateAsync(id)}
      />
      <TimedBenefitsView overview={overview} onSave={(benefit, data) => saveBenefit.mutateAsync({ benefit, data })} />
    </>
  );
}
