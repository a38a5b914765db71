// The account function, as a plain `(Request) => Response` function:
//
//   GET  …/account/export   the caller's own data as one JSON file (their session only)
//   POST …/account/delete   { password }: the caller deletes their own account
//   POST …/account/erase    { user_id, email, reason }: staff erase a member
//
// Every route first asks the auth server who the bearer is (GET /auth/v1/user): a forged,
// expired or signed-out token, or one whose user is gone, is refused with 401 before anything
// is read. The export reads with the caller's token, so row level security scopes it; the
// deletions use the service role, after each route's checks, in this order: the erasure is logged
// (account_erasures), the avatar files are removed through the Storage API (which deletes the
// bytes, not only the row), the user is deleted through GoTrue's admin API
// (DELETE /admin/users/{id}: identities, sessions and refresh tokens go with it; the database's
// foreign keys and triggers remove the profile, tier, grants and staff row, and detach the
// purchases), and the log row is completed.
//
// This file is the route table; export-data.ts and erase.ts hold the routes.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { AccountContext, LogEntry } from './context.ts';
import { deleteOwn, eraseMember } from './erase.ts';
import { exportData } from './export-data.ts';
import { AccountError, CORS, json, routeOf } from './http.ts';

export type { LogEntry } from './context.ts';
export { AccountError } from './http.ts';

export type AccountConfig = { supabaseUrl: string; anonKey: string; serviceRoleKey: string };

export type AccountHandlerOptions = AccountConfig & {
  /** A supabase-js client for `key`, sending `accessToken` as the bearer when given. */
  createClient: (key: string, accessToken?: string) => SupabaseClient;
  log?: (entry: LogEntry) => void;
  now?: () => Date;
};

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`account: ${name} is not set`);
  return value;
}

/** The three values every hosted function gets from the platform. */
export function readAccountConfig(env: Env): AccountConfig {
  return {
    supabaseUrl: required(env, 'SUPABASE_URL'),
    anonKey: required(env, 'SUPABASE_ANON_KEY'),
    serviceRoleKey: required(env, 'SUPABASE_SERVICE_ROLE_KEY'),
  };
}

async function dispatch(ctx: AccountContext, route: string, req: Request): Promise<Response> {
  if (route === 'export') {
    if (req.method !== 'GET') throw new AccountError(405, 'method_not_allowed', 'Use GET.');
    return await exportData(ctx, req);
  }
  if (route === 'delete' || route === 'erase') {
    if (req.method !== 'POST') throw new AccountError(405, 'method_not_allowed', 'Use POST.');
    return await (route === 'delete' ? deleteOwn(ctx, req) : eraseMember(ctx, req));
  }
  throw new AccountError(404, 'not_found', 'No such route: use export, delete or erase.');
}

export function createAccountHandler(options: AccountHandlerOptions): (req: Request) => Promise<Response> {
  const ctx: AccountContext = {
    createClient: options.createClient,
    anonKey: options.anonKey,
    admin: options.createClient(options.serviceRoleKey),
    log: options.log ?? (() => {}),
    now: options.now ?? (() => new Date()),
  };

  return async function handle(req: Request): Promise<Response> {
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
    const path = routeOf(new URL(req.url));
    try {
      return await dispatch(ctx, path, req);
    } catch (error) {
      if (error instanceof AccountError) {
        return json(error.status, { error: error.code, message: error.message });
      }
      ctx.log({ level: 'error', message: 'account function failed', route: path, error: String(error) });
      return json(500, { error: 'internal', message: 'Something went wrong on our side. Try again in a moment.' });
    }
  };
}
