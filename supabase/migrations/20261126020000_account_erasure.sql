-- Issue 26: a member can leave, staff can honour an erasure request, and the books stay right.
--
-- The erasure itself runs in the Edge Function `account` (supabase/functions/account) with the
-- service role: it deletes the avatar through the Storage API and the user through GoTrue's
-- admin API (DELETE /admin/users/{id}). The database does the rest when auth.users loses the
-- row: profile, tier, staff grants and staff membership go (on delete cascade), sessions,
-- identities and refresh tokens go with them (GoTrue's own foreign keys), and purchases keep
-- their rows with user_id set null (the baseline, `on delete set null`). This file adds:
--
-- * purchases.account_removed_at: stamped when the account a purchase belonged to is deleted.
--   Such a purchase never re-attaches by itself: the attach-by-e-mail trigger skips it, so a
--   new account made later with the same address starts with nothing (staff can grant again).
--   A refund that arrives later still records (record_refund matches on provider and order).
-- * public.account_erasures: that an erasure happened, who asked (the member, or the staff
--   member and their reason), when it was requested and completed. Not what was erased.
-- * is_own_avatar_path() also requires the caller's profile to exist: PostgREST and Storage
--   accept an unexpired access token of a deleted user, and the avatar policies were the only
--   ones granting anything by the token's sub alone (every other policy needs a row the
--   deletion removed: a profile, a tier, a purchase attached, a staff row).

-- ---------------------------------------------------------------------------------------------
-- Purchases of a deleted account stay detached

alter table public.purchases add column account_removed_at timestamptz;

comment on column public.purchases.account_removed_at is
  'When the account this purchase was attached to was deleted (user_id is then null). Such a purchase never re-attaches by e-mail; staff may grant a tier to a new account instead.';

/**
 * Trigger before a user is deleted: marks the purchases attached to them as belonging to a
 * removed account. The foreign key then sets their user_id null; the rows stay for the books.
 */
create function private.detach_purchases_of_deleted_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.purchases p
  set account_removed_at = now()
  where p.user_id = old.id and p.account_removed_at is null;
  return old;
end
$$;

comment on function private.detach_purchases_of_deleted_user() is
  'Trigger on auth.users (before delete): stamps purchases.account_removed_at on the deleted user''s purchases, so they never re-attach by e-mail.';

revoke execute on function private.detach_purchases_of_deleted_user() from public, anon, authenticated, service_role;

create trigger on_auth_user_deleted_detach_purchases
  before delete on auth.users
  for each row execute function private.detach_purchases_of_deleted_user();

do $$ begin
  comment on trigger on_auth_user_deleted_detach_purchases on auth.users is
    'Marks the deleted user''s purchases as detached for good (private.detach_purchases_of_deleted_user).';
exception when insufficient_privilege then null;
end $$;

/**
 * The attach-by-e-mail trigger of the baseline (issue 8), now skipping purchases whose account was
 * deleted: an address confirmed again by a new account does not inherit them.
 */
create or replace function private.attach_purchases_of_confirmed_email()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.email is null or new.email_confirmed_at is null then
    return null;
  end if;
  if tg_op = 'UPDATE' and old.email_confirmed_at is not null and old.email is not distinct from new.email then
    return null;
  end if;
  update public.purchases p
  set user_id = new.id
  where p.user_id is null and p.account_removed_at is null and p.email = lower(new.email);
  return null;
end
$$;

comment on function private.attach_purchases_of_confirmed_email() is
  'Trigger on auth.users: attaches the purchases made with an e-mail to the account once that e-mail is confirmed, except those of a deleted account.';

-- ---------------------------------------------------------------------------------------------
-- The erasure log

/** That an account was erased, at whose request and why; never what the account held. */
create table public.account_erasures (
  id bigint generated always as identity primary key,
  erased_user uuid not null,
  requested_by uuid not null,
  kind text not null check (kind in ('self', 'staff')),
  reason text check (char_length(btrim(reason)) between 1 and 500),
  requested_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint account_erasures_staff_reason check ((kind = 'staff') = (reason is not null)),
  constraint account_erasures_self_is_self check (kind = 'staff' or requested_by = erased_user)
);

comment on table public.account_erasures is
  'Append-only log of account erasures: whose (the id only), requested by the member themselves or by a staff member with a reason, requested and completed times. Written only by the account Edge Function (service_role); no API role can read or write it.';
comment on column public.account_erasures.completed_at is
  'Set once the auth user is deleted; null means the request was made and the deletion did not finish.';

alter table public.account_erasures enable row level security;
revoke all on table public.account_erasures from public, anon, authenticated, service_role;
grant select, insert on table public.account_erasures to service_role;
grant update (completed_at) on table public.account_erasures to service_role;
-- An identity column draws its ids without any privilege on its sequence: nobody needs one.
revoke all on sequence public.account_erasures_id_seq from public, anon, authenticated, service_role;

create policy "No API access to account erasures"
  on public.account_erasures
  as restrictive
  for all
  to anon, authenticated
  using (false)
  with check (false);
comment on policy "No API access to account erasures" on public.account_erasures is
  'Deny-all for anon and authenticated: only the account function (service_role) records erasures.';

-- ---------------------------------------------------------------------------------------------
-- A deleted user's unexpired token writes no avatar

/**
 * is_own_avatar_path(name): name is exactly {caller's user id}/avatar.{png|jpg|jpeg|webp|gif}
 * and the caller's profile exists (it goes with the account, so an access token that outlives
 * its user writes nothing). Security invoker: the profile is read through its owner's policy.
 */
create or replace function public.is_own_avatar_path(name text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    storage.foldername(name) = array[(select auth.uid())::text]
    and lower(storage.filename(name)) in ('avatar.png', 'avatar.jpg', 'avatar.jpeg', 'avatar.webp', 'avatar.gif')
    and exists (select 1 from public.profiles p where p.id = (select auth.uid())),
    false
  )
$$;

comment on function public.is_own_avatar_path(text) is
  'Storage policy helper: true only for {auth.uid()}/avatar.{png|jpg|jpeg|webp|gif} while the caller''s profile exists.';

revoke execute on function public.is_own_avatar_path(text) from public, anon, authenticated;
grant execute on function public.is_own_avatar_path(text) to authenticated, service_role;
