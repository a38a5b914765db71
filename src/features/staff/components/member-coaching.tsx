import { useAdjustCoaching } from '../api/adjust-coaching';
import { useMemberCoaching } from '../api/member-coaching';
import { useSaveBookingNotes } from '../api/save-booking-notes';
import { MemberCoachingView } from './member-coaching-view';

/** Container of a chosen member's coaching: its read, the adjustment and the session notes. */
export function MemberCoaching({ userId, email }: { userId: string; email: string }) {
  const coaching = useMemberCoaching(userId);
  const adjust = useAdjustCoaching();
  const notes = useSaveBookingNotes();
  return (
    <MemberCoachingView
      email={email}
      coaching={coaching}
      onAdjust={(delta, reason) => adjust.mutateAsync({ userId, delta, reason })}
      onSaveNotes={(bookingId, memberNote, privateNote) => notes.mutateAsync({ bookingId, memberNote, privateNote })}
    />
  );
}
