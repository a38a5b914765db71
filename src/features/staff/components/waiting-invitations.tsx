import { useResendInvitation, useWaitingInvitations } from '../api/waiting-invitations';
import { WaitingInvitationsView } from './waiting-invitations-view';

/** Container of the waiting-invitations section of /staff/members: its read and its action. */
export function WaitingInvitations() {
  const invitations = useWaitingInvitations();
  const resend = useResendInvitation();
  return <WaitingInvitationsView invitations={invitations} onResend={(email) => resend.mutateAsync(email)} />;
}
