import { useMutation, useQueryClient } from '@tanstack/react-query';
import { coachingKeys } from './coaching-keys';
import { callStaffRpc } from './staff-rpc';

/** A session's note for the member (they read it) and staff's private note; empty removes one. */
export async function saveBookingNotes(bookingId: string, memberNote: string, privateNote: string): Promise<void> {
  await callStaffRpc('staff_save_booking_notes', {
    p_booking: bookingId,
    p_member_note: memberNote,
    p_private_note: privateNote,
  });
}

export type BookingNotes = { bookingId: string; memberNote: string; privateNote: string };

export function useSaveBookingNotes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bookingId, memberNote, privateNote }: BookingNotes) =>
      saveBookingNotes(bookingId, memberNote, privateNote),
    onSettled: () => queryClient.invalidateQueries({ queryKey: coachingKeys.all }),
    meta: { errorMessage: 'Could not save the session’s notes' },
  });
}
