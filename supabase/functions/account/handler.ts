// The account function (issue 26), as a plain `(Request) => Response` function:
//
//   GET  …/account/export   the caller's own data as one JSON file (their session only)
//   POST …/account/delete   { password }: the caller deletes their own account
//   POST …/account/erase    { user_id, email, reason }: staff erase a member
//
// Every route first asks the auth server who the bearer is (GET /auth/v1/user): a forged,
// expired or signed-out token, or one whose user is gone, is refused with 401 before anything
// is read. The export reads with the caller's token, so row level security scopes it; the
// deletions use the service role, after the checks below, in this order: the erasure is logged
// (account_erasures), the avatar files are removed through the Storage API (which deletes the
// bytes, not only the row), the user is deleted through GoTrue's admin API
// (DELETE /admin/users/{id}: identities, sessions and refresh tokens go with it; the database's
// foreign keys and triggers remove the profile, tier, grants and staff row, and detach the
// purchases), and the log row is completed.
import type { SupabaseClient, User } from 'npm:@supabase/supabase-js@2.109.0';

export type AccountConfig = { supabaseUrl: string; anonKey: string; serviceRoleKey: string };

export type LogEntry = { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>;

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

/** Hosted functions answer CORS themselves; the site calls this one from the browser. */
const CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': 'Content-Disposition',
};

/** Nothing this function answers may be kept by the browser or any proxy. */
const NO_STORE = { 'Cache-Control': 'no-store' };

export class AccountError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, ...NO_STORE, 'Content-Type': 'application/json', ...extra },
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_BODY_BYTES = 16 * 1024;

async function readJson(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new AccountError(413, 'too_large', 'The request is too large.');
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new AccountError(400, 'bad_json', 'The request must be a JSON object.');
}

function bearer(req: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  if (!match?.[1]) throw new AccountError(401, 'not_signed_in', 'Sign in first.');
  return match[1];
}

/** The route: the path segment after `account`. */
function routeOf(url: URL): string {
  const parts = url.pathname.split('/').filter(Boolean);
  const at = parts.lastIndexOf('account');
  return (at >= 0 ? parts.slice(at + 1) : parts).join('/');
}

export function createAccountHandler(options: AccountHandlerOptions): (req: Request) => Promise<Response> {
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const admin = options.createClient(options.serviceRoleKey);

  /** Who the bearer is, according to the auth server (the session must still exist). */
  async function caller(req: Request): Promise<{ token: string; user: User; client: SupabaseClient }> {
    const token = bearer(req);
    const client = options.createClient(options.anonKey, token);
    const { data, error } = await client.auth.getUser(token);
    if (error || !data.user) throw new AccountError(401, 'not_signed_in', 'Your session has ended. Sign in again.');
    if (data.user.is_anonymous) throw new AccountError(403, 'not_a_member', 'Sign in to your own account first.');
    return { token, user: data.user, client };
  }

  async function exportData(req: Request): Promise<Response> {
    const { user, client } = await caller(req);
    // Every read carries the member's own token: row level security decides, and the filters
    // on their id keep a staff member's export to their own rows too.
    const [profile, tier, purchases] = await Promise.all([
      client
        .from('profiles')
        .select('display_name, avatar_url, created_at, updated_at')
        .eq('id', user.id)
        .maybeSingle(),
      client.from('user_tiers').select('tier, updated_at').eq('user_id', user.id).maybeSingle(),
      client
        .from('purchases')
        .select('provider, order_id, product, tier, amount_cents, currency, status, email, created_at, refunded_at')
        .eq('user_id', user.id)
        .order('created_at', { ascending: true }),
    ]);
    for (const read of [profile, tier, purchases]) {
      if (read.error) throw new Error(`export read failed: ${read.error.message}`);
    }
    const held = (tier.data?.tier as string | null | undefined) ?? null;
    const paid = (purchases.data ?? []).some((p) => p.status === 'paid' && p.tier === held);
    const body = {
      exported_at: now().toISOString(),
      account: {
        id: user.id,
        email: user.email ?? null,
        signed_up_at: user.created_at,
        email_confirmed_at: user.email_confirmed_at ?? null,
        last_sign_in_at: user.last_sign_in_at ?? null,
      },
      profile: profile.data ?? null,
      tier: {
        tier: held,
        // A member cannot read staff grants; a tier no paid purchase explains was granted by staff.
        source: held === null ? null : paid ? 'purchase' : 'staff_grant',
        since: tier.data?.updated_at ?? null,
      },
      purchases: purchases.data ?? [],
    };
    const day = now().toISOString().slice(0, 10);
    return json(200, body, { 'Content-Disposition': `attachment; filename="yes-you-can-my-data-${day}.json"` });
  }

  /** Checks the password by signing in with it, on a client of its own (the session is ended after). */
  async function passwordMatches(email: string, password: string): Promise<boolean> {
    const check = options.createClient(options.anonKey);
    const { data, error } = await check.auth.signInWithPassword({ email, password });
    if (error || !data.session) {
      if (error && error.status !== 400) throw new Error(`password check failed: ${error.message}`);
      return false;
    }
    // The check's own session is not needed: end it (the member's own session is untouched).
    await check.auth.signOut({ scope: 'local' });
    return true;
  }

  /** Logs, removes the avatar files, deletes the auth user, completes the log row. */
  async function erase(
    target: string,
    entry: { requested_by: string; kind: 'self' | 'staff'; reason: string | null },
  ): Promise<{ purchases_kept: number }> {
    const kept = await admin.from('purchases').select('id', { count: 'exact', head: true }).eq('user_id', target);
    if (kept.error) throw new Error(`counting purchases failed: ${kept.error.message}`);
    const logged = await admin
      .from('account_erasures')
      .insert({ erased_user: target, ...entry })
      .select('id')
      .single();
    if (logged.error) throw new Error(`logging the erasure failed: ${logged.error.message}`);

    const avatars = admin.storage.from('avatars');
    const listed = await avatars.list(target, { limit: 100 });
    if (listed.error) throw new Error(`listing the avatar failed: ${listed.error.message}`);
    const names = (listed.data ?? []).filter((o) => o.id !== null).map((o) => `${target}/${o.name}`);
    if (names.length) {
      const removed = await avatars.remove(names);
      if (removed.error) throw new Error(`removing the avatar failed: ${removed.error.message}`);
    }

    const deleted = await admin.auth.admin.deleteUser(target);
    if (deleted.error) throw new Error(`deleting the user failed: ${deleted.error.message}`);

    const done = await admin
      .from('account_erasures')
      .update({ completed_at: now().toISOString() })
      .eq('id', (logged.data as { id: number }).id);
    if (done.error) log({ level: 'warn', message: 'erasure done, log row not completed', error: done.error.message });
    log({ level: 'info', message: 'account erased', kind: entry.kind, erasure: (logged.data as { id: number }).id });
    return { purchases_kept: kept.count ?? 0 };
  }

  async function deleteOwn(req: Request): Promise<Response> {
    const { user } = await caller(req);
    const body = await readJson(req);
    const password = typeof body.password === 'string' ? body.password : '';
    if (!password) throw new AccountError(400, 'password_required', 'Enter your password to confirm.');
    if (!user.email || !(await passwordMatches(user.email, password))) {
      throw new AccountError(403, 'wrong_password', 'That password is not right.');
    }
    const result = await erase(user.id, { requested_by: user.id, kind: 'self', reason: null });
    return json(200, { deleted: true, ...result });
  }

  async function eraseMember(req: Request): Promise<Response> {
    const { user, client } = await caller(req);
    const staff = await client.rpc('is_staff');
    if (staff.error) throw new Error(`staff check failed: ${staff.error.message}`);
    if (staff.data !== true) throw new AccountError(403, 'not_staff', 'Only staff can erase a member.');

    const body = await readJson(req);
    const target = typeof body.user_id === 'string' ? body.user_id : '';
    const typed = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
    if (!UUID.test(target)) throw new AccountError(400, 'bad_user', 'Which member? The user id is missing.');
    if (!reason) throw new AccountError(400, 'reason_required', 'Give the reason for the erasure.');
    if (reason.length > 500) throw new AccountError(400, 'reason_too_long', 'Keep the reason under 500 characters.');
    if (target === user.id) {
      throw new AccountError(403, 'cannot_erase_self', 'You cannot erase your own account from the staff page.');
    }

    const found = await admin.auth.admin.getUserById(target);
    if (found.error || !found.data.user) throw new AccountError(404, 'no_such_member', 'There is no such member.');
    if (!typed || typed !== (found.data.user.email ?? '').toLowerCase()) {
      throw new AccountError(400, 'email_mismatch', "The e-mail typed does not match this member's.");
    }
    const isStaff = await admin.from('staff').select('user_id').eq('user_id', target).maybeSingle();
    if (isStaff.error) throw new Error(`staff lookup failed: ${isStaff.error.message}`);
    if (isStaff.data) {
      throw new AccountError(
        403,
        'target_is_staff',
        'Staff accounts cannot be erased here; remove their staff role first.',
      );
    }
    const result = await erase(target, { requested_by: user.id, kind: 'staff', reason });
    return json(200, { erased: true, ...result });
  }

  return async function handle(req: Request): Promise<Response> {
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
    const route = routeOf(new URL(req.url));
    try {
      if (route === 'export') {
        if (req.method !== 'GET') throw new AccountError(405, 'method_not_allowed', 'Use GET.');
        return await exportData(req);
      }
      if (route === 'delete' || route === 'erase') {
        if (req.method !== 'POST') throw new AccountError(405, 'method_not_allowed', 'Use POST.');
        return await (route === 'delete' ? deleteOwn(req) : eraseMember(req));
      }
      throw new AccountError(404, 'not_found', 'No such route: use export, delete or erase.');
    } catch (error) {
      if (error instanceof AccountError) {
        return json(error.status, { error: error.code, message: error.message });
      }
      log({ level: 'error', message: 'account function failed', route, error: String(error) });
      return json(500, { error: 'internal', message: 'Something went wrong on our side. Try again in a moment.' });
    }
  };
}
