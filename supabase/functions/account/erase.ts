// POST …/account/delete (a member deletes their own account, with their password) and
// POST …/account/erase (staff erase a member), and the erasure both end in.
import { caller, type AccountContext } from './context.ts';
import { AccountError, json, readJson } from './http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks the password by signing in with it, on a client of its own (the session is ended after). */
async function passwordMatches(ctx: AccountContext, email: string, password: string): Promise<boolean> {
  const check = ctx.createClient(ctx.anonKey);
  const { data, error } = await check.auth.signInWithPassword({ email, password });
  if (error || !data.session) {
    if (error && error.status !== 400) throw new Error(`password check failed: ${error.message}`);
    return false;
  }
  // The check's own session is not needed: end it (the member's own session is untouched).
  await check.auth.signOut({ scope: 'local' });
  return true;
}

/** Removes every file under the member's folder in the avatars bucket. */
async function removeAvatars(ctx: AccountContext, target: string): Promise<void> {
  const avatars = ctx.admin.storage.from('avatars');
  const listed = await avatars.list(target, { limit: 100 });
  if (listed.error) throw new Error(`listing the avatar failed: ${listed.error.message}`);
  const names = (listed.data ?? []).filter((o) => o.id !== null).map((o) => `${target}/${o.name}`);
  if (names.length) {
    const removed = await avatars.remove(names);
    if (removed.error) throw new Error(`removing the avatar failed: ${removed.error.message}`);
  }
}

/**
 * Removes the member's stamped copies ({member}/{object}/{version}.{ext} in stamped-downloads, made
 * by the download function): each carries their e-mail address.
 */
async function removeStampedCopies(ctx: AccountContext, target: string): Promise<void> {
  const bucket = ctx.admin.storage.from('stamped-downloads');
  const folders = await bucket.list(target, { limit: 1000 });
  if (folders.error) throw new Error(`listing the stamped copies failed: ${folders.error.message}`);
  for (const folder of folders.data ?? []) {
    const files = await bucket.list(`${target}/${folder.name}`, { limit: 1000 });
    if (files.error) throw new Error(`listing the stamped copies failed: ${files.error.message}`);
    const names = (files.data ?? []).filter((o) => o.id !== null).map((o) => `${target}/${folder.name}/${o.name}`);
    const removed = names.length ? await bucket.remove(names) : { error: null };
    if (removed.error) throw new Error(`removing the stamped copies failed: ${removed.error.message}`);
  }
}

/** Logs, removes the avatar files and stamped copies, deletes the auth user, completes the log row. */
async function erase(
  ctx: AccountContext,
  target: string,
  entry: { requested_by: string; kind: 'self' | 'staff'; reason: string | null },
): Promise<{ purchases_kept: number }> {
  const { admin, log } = ctx;
  const kept = await admin.from('purchases').select('id', { count: 'exact', head: true }).eq('user_id', target);
  if (kept.error) throw new Error(`counting purchases failed: ${kept.error.message}`);
  const logged = await admin
    .from('account_erasures')
    .insert({ erased_user: target, ...entry })
    .select('id')
    .single();
  if (logged.error) throw new Error(`logging the erasure failed: ${logged.error.message}`);

  await removeAvatars(ctx, target);
  await removeStampedCopies(ctx, target);

  const deleted = await admin.auth.admin.deleteUser(target);
  if (deleted.error) throw new Error(`deleting the user failed: ${deleted.error.message}`);

  const done = await admin
    .from('account_erasures')
    .update({ completed_at: ctx.now().toISOString() })
    .eq('id', (logged.data as { id: number }).id);
  if (done.error) log({ level: 'warn', message: 'erasure done, log row not completed', error: done.error.message });
  log({ level: 'info', message: 'account erased', kind: entry.kind, erasure: (logged.data as { id: number }).id });
  return { purchases_kept: kept.count ?? 0 };
}

export async function deleteOwn(ctx: AccountContext, req: Request): Promise<Response> {
  const { user } = await caller(ctx, req);
  const body = await readJson(req);
  const password = typeof body.password === 'string' ? body.password : '';
  if (!password) throw new AccountError(400, 'password_required', 'Enter your password to confirm.');
  if (!user.email || !(await passwordMatches(ctx, user.email, password))) {
    throw new AccountError(403, 'wrong_password', 'That password is not right.');
  }
  const result = await erase(ctx, user.id, { requested_by: user.id, kind: 'self', reason: null });
  return json(200, { deleted: true, ...result });
}

/** The member staff may erase: named by id and by the e-mail typed, and not staff. */
async function checkErasable(ctx: AccountContext, target: string, typed: string): Promise<void> {
  const found = await ctx.admin.auth.admin.getUserById(target);
  if (found.error || !found.data.user) throw new AccountError(404, 'no_such_member', 'There is no such member.');
  if (!typed || typed !== (found.data.user.email ?? '').toLowerCase()) {
    throw new AccountError(400, 'email_mismatch', "The e-mail typed does not match this member's.");
  }
  const isStaff = await ctx.admin.from('staff').select('user_id').eq('user_id', target).maybeSingle();
  if (isStaff.error) throw new Error(`staff lookup failed: ${isStaff.error.message}`);
  if (isStaff.data) {
    throw new AccountError(
      403,
      'target_is_staff',
      'Staff accounts cannot be erased here; remove their staff role first.',
    );
  }
}

export async function eraseMember(ctx: AccountContext, req: Request): Promise<Response> {
  const { user, client } = await caller(ctx, req);
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

  await checkErasable(ctx, target, typed);
  const result = await erase(ctx, target, { requested_by: user.id, kind: 'staff', reason });
  return json(200, { erased: true, ...result });
}
