import { supabase } from '@/lib/supabase';
import type { Database } from '@/types/database';

/** A failed staff function call, with the Postgres error code the page decides on. */
export class StaffRpcError extends Error {
  readonly code: string | undefined;
  /** The database's hint: the catalog functions name the refused field there. */
  readonly hint: string | undefined;
  constructor(message: string, code?: string, hint?: string) {
    super(message);
    this.name = 'StaffRpcError';
    this.code = code;
    this.hint = hint;
  }
}

const messages: Record<string, string> = {
  '42501': 'Your account does not have staff access.',
  P0002: 'This member has no staff grant to revoke (it may have just been revoked).',
};

/** The database's answer as a sentence for staff; its own text where it already is one (22023). */
export function toStaffError(error: { message: string; code?: string; hint?: string | null }): StaffRpcError {
  return new StaffRpcError((error.code && messages[error.code]) ?? error.message, error.code, error.hint ?? undefined);
}

/** The database refused because the caller is not staff: retrying cannot help. */
export function isStaffRefusal(error: unknown): boolean {
  return error instanceof StaffRpcError && error.code === '42501';
}

type StaffFunction =
  | 'staff_list_members'
  | 'staff_export_members'
  | 'staff_member_detail'
  | 'grant_tier'
  | 'revoke_tier'
  | 'staff_catalog'
  | 'staff_save_product'
  | 'staff_map_provider_id'
  | 'staff_dashboard'
  | 'staff_mail_status'
  | 'staff_member_coaching'
  | 'staff_adjust_coaching'
  | 'staff_save_booking_notes'
  | 'staff_assign_booking'
  | 'staff_save_coaching'
  | 'staff_live_overview'
  | 'staff_save_live_session'
  | 'staff_cancel_live_session'
  | 'staff_save_timed_benefit'
  | 'staff_member_benefits'
  | 'staff_change_benefit';
type StaffArgs<F extends StaffFunction> = Database['public']['Functions'][F]['Args'];

/**
 * Calls a staff function; throws a StaffRpcError on `error`. The answer is returned unread:
 * the caller checks its shape (lib/members.ts), since jsonb and nullable columns come back
 * typed looser or stricter than they are. postgrest-js's own retries are off (react-query's
 * are the one retry layer, see get-user-tier).
 */
export async function callStaffRpc<F extends StaffFunction>(fn: F, args: StaffArgs<F>): Promise<unknown> {
  const { data, error } = await supabase.rpc(fn, args).retry(false);
  if (error) throw toStaffError(error);
  return data;
}
