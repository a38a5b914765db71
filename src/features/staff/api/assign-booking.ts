import { useMutation, useQueryClient } from '@tanstack/react-query';
import { exactAccount, type StaffBooking } from '../lib/coaching';
import { coachingKeys } from './coaching-keys';
import { listMembers } from './list-members';
import { callStaffRpc, StaffRpcError } from './staff-rpc';

/**
 * A search answers every member whose e-mail contains the text, by e-mail; a whole address is
 * contained in few others, so one page of the function's most holds the exact one.
 */
const SEARCH_ROWS = 1000;

/**
 * The account with exactly this e-mail, found as the members page finds members
 * (staff_list_members, a case-insensitive part of the e-mail); refused in words when none.
 */
export async function findAccountByEmail(email: string): Promise<{ userId: string; email: string }> {
  const { members } = await listMembers(email.trim(), 0, SEARCH_ROWS);
  const account = exactAccount(members, email);
  if (!account) {
    throw new StaffRpcError(
      `No account has the e-mail ${email.trim()}. Check the spelling, or ask the member which address they signed up with.`,
    );
  }
  return { userId: account.userId, email: account.email };
}

/** Ties a booking to the member with this e-mail; answers their e-mail as the account has it. */
export async function assignBooking(bookingId: string, email: string): Promise<string> {
  const account = await findAccountByEmail(email);
  try {
    await callStaffRpc('staff_assign_booking', { p_booking: bookingId, p_user: account.userId });
  } catch (caught) {
    if (caught instanceof StaffRpcError && caught.message === 'no confirmed account with that id') {
      throw new StaffRpcError(
        `${account.email} has not confirmed their e-mail yet: assign the booking once they have.`,
        caught.code,
      );
    }
    if (caught instanceof StaffRpcError && caught.message === 'no such booking') {
      throw new StaffRpcError('This booking is gone (the list was out of date).', caught.code);
    }
    throw caught;
  }
  return account.email;
}

export type BookingAssignment = { bookingId: string; email: string };

/** The booking leaves the unmatched list at once; then every coaching read is read again. */
export function useAssignBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bookingId, email }: BookingAssignment) => assignBooking(bookingId, email),
    onSuccess: (_email, { bookingId }) => {
      queryClient.setQueryData<StaffBooking[]>(coachingKeys.unmatched, (old) =>
        old?.filter((booking) => booking.id !== bookingId),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: coachingKeys.all }),
    meta: { errorMessage: 'Could not assign the booking' },
  });
}
