import { supabase } from '@/lib/supabase';

/** A failed staff function call, with the Postgres error code the page decides on. */
export class StaffRpcError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.name = 'StaffRpcError';
    this.code = code;
  }
}

const messages: Record<string, string> = {
  '42501': 'Your account does not have staff access.',
  P0002: 'This member has no staff grant to revoke (it may have just been revoked).',
};

/** The database's answer as a sentence for staff; its own text where it already is one (22023). */
export function toStaffError(error: { message: string; code?: string }): StaffRpcError {
  return new StaffRpcError((error.code && messages[error.code]) ?? error.message, error.code);
}

/** The database refused because the caller is not staff: retrying cannot help. */
export function isStaffRefusal(error: unknown): boolean {
  return error instanceof StaffRpcError && error.code === '42501';
}

/**
 * Calls a staff function; throws a StaffRpcError on `error`. postgrest-js's own retries are
 * off (react-query's are the one retry layer, see get-user-tier).
 */
export async function callStaffRpc(fn: StaffFunction, args: Record<string, unknown>): Promise<unknown> {
  // The generated types gain these functions with the ledger migration (issue 8's contract).
  const rpc = supabase.rpc.bind(supabase) as unknown as UntypedRpc;
  const { data, error } = await rpc(fn, args).retry(false);
  if (error) throw toStaffError(error);
  return data;
}

type StaffFunction = 'staff_list_members' | 'staff_member_detail' | 'grant_tier' | 'revoke_tier';
type UntypedRpc = (
  fn: string,
  args: Record<string, unknown>,
) => { retry: (enabled: boolean) => PromiseLike<{ data: unknown; error: { message: string; code?: string } | null }> };
