// What every route of the account function works with, and who is calling.
import type { SupabaseClient, User } from 'npm:@supabase/supabase-js@2.109.0';
import { AccountError, bearer } from './http.ts';

export type LogEntry = { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>;

export type AccountContext = {
  /** A supabase-js client for `key`, sending `accessToken` as the bearer when given. */
  createClient: (key: string, accessToken?: string) => SupabaseClient;
  anonKey: string;
  /** The service-role client: used only after a route's checks. */
  admin: SupabaseClient;
  log: (entry: LogEntry) => void;
  now: () => Date;
};

/** Who the bearer is, according to the auth server (the session must still exist). */
export async function caller(
  ctx: AccountContext,
  req: Request,
): Promise<{ token: string; user: User; client: SupabaseClient }> {
  const token = bearer(req);
  const client = ctx.createClient(ctx.anonKey, token);
  const { data, error } = await client.auth.getUser(token);
  if (error || !data.user) throw new AccountError(401, 'not_signed_in', 'Your session has ended. Sign in again.');
  if (data.user.is_anonymous) throw new AccountError(403, 'not_a_member', 'Sign in to your own account first.');
  return { token, user: data.user, client };
}
