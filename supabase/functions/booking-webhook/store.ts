// The database side: one public.record_booking call per verified delivery, with the service-role
// key. The function is idempotent per booking id and event, so a retried delivery records nothing
// twice. Its failure throws, and the handler answers 500 so the provider retries.
import type { BookingEvent, BookingStore, RecordBookingResult } from './types.ts';

/** supabase-js's `rpc`, narrowed to what this store uses. */
export type Rpc = (
  fn: string,
  args: Record<string, unknown>,
) => PromiseLike<{ data: unknown; error: { message: string } | null }>;

/** The RPC's arguments for one event (the names public.record_booking declares). */
export function recordBookingArgs(event: BookingEvent): Record<string, unknown> {
  return {
    p_provider: event.provider,
    p_event: event.event,
    p_booking_id: event.bookingId,
    p_previous_booking_id: event.previousBookingId,
    p_member_id: event.memberId,
    p_email: event.email,
    p_name: event.name,
    p_starts_at: event.startsAt,
    p_ends_at: event.endsAt,
    p_meeting_url: event.meetingUrl,
    p_occurred_at: event.occurredAt,
  };
}

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

export function createSupabaseStore(rpc: Rpc): BookingStore {
  return {
    async recordBooking(event): Promise<RecordBookingResult> {
      const { data, error } = await rpc('record_booking', recordBookingArgs(event));
      if (error) throw new Error(`record_booking failed: ${error.message}`);
      const row = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
      return {
        bookingId: stringOrNull(row.booking_id),
        userId: stringOrNull(row.user_id),
        status: stringOrNull(row.status),
        overAllowance: row.over_allowance === true,
      };
    },
  };
}
