-- Issue 25: whoever registers someone else's address first gets nothing of theirs.
--
-- With e-mail confirmations on, anyone may still sign up with a buyer's address and a password
-- of their own: the account stays unconfirmed, and GoTrue keeps that password through what
-- follows (an invitation keeps it, `signupVerify` sets one only when there is none, a later
-- sign-up with the same address changes nothing). When the owner then proves the address
-- (accepts the invitation, follows the sign-up or recovery link), the account becomes theirs,
-- purchases attach to it, and the stranger's password would open it.
--
-- So the moment an address is proven for an account (its first confirmation, or a confirmed
-- change of the account's e-mail to an address whose owner followed the link), a password that
-- was set before, by an earlier request, stops working: it is replaced by '' (GoTrue's HasPassword() and Authenticate() treat
-- '' as "no password", so password sign-in is refused), and every session and refresh token of
-- the user ends. The owner is signed in by the very link that confirmed the address (GoTrue
-- issues that session after the confirming update, in the same transaction) and is asked to
-- choose a password. A password set by the same transaction that confirms is kept: GoTrue's
-- sign-up with confirmations off, an admin creating or confirming a user with a password, and
-- the random password `signupVerify` gives an invited user without one (docs/database.md).
--
-- Hosted Supabase allows triggers on auth.users but no new objects in the auth schema: the
-- functions live in `private`, which the API does not expose.

/**
 * BEFORE INSERT, or UPDATE OF encrypted_password, on auth.users: remembers, for the running
 * transaction only, that it set this user's password.
 */
create function private.note_password_set_in_transaction()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' or new.encrypted_password is distinct from old.encrypted_password then
    perform set_config('yyc_auth.password_set_' || replace(new.id::text, '-', ''), 'on', true);
  end if;
  return new;
end
$$;

comment on function private.note_password_set_in_transaction() is
  'Trigger on auth.users: marks (transaction-local setting) that this transaction set the user''s password.';
revoke execute on function private.note_password_set_in_transaction() from public, anon, authenticated, service_role;

/**
 * BEFORE UPDATE OF email_confirmed_at, email on auth.users: when an address is proven for the
 * account (first confirmation, or a confirmed account taking a new e-mail) and the password was
 * set before, by another transaction, the password is made unusable and every session (with its
 * refresh tokens) ends.
 */
create function private.forget_password_set_before_confirmation()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.email_confirmed_at is not null
     and (old.email_confirmed_at is null or lower(new.email) is distinct from lower(old.email))
     and coalesce(old.encrypted_password, '') <> ''
     and new.encrypted_password is not distinct from old.encrypted_password
     and coalesce(current_setting('yyc_auth.password_set_' || replace(new.id::text, '-', ''), true), '') <> 'on'
  then
    new.encrypted_password := '';
    delete from auth.refresh_tokens where user_id = new.id::text;
    delete from auth.sessions where user_id = new.id;
  end if;
  return new;
end
$$;

comment on function private.forget_password_set_before_confirmation() is
  'Trigger on auth.users: when an address is proven (first confirmation, confirmed e-mail change), a password set before it by another transaction stops working and all sessions end.';
revoke execute on function private.forget_password_set_before_confirmation() from public, anon, authenticated, service_role;

create trigger on_auth_user_password_set
  before insert or update of encrypted_password on auth.users
  for each row execute function private.note_password_set_in_transaction();

create trigger on_auth_user_address_proven_forget_password
  before update of email_confirmed_at, email on auth.users
  for each row execute function private.forget_password_set_before_confirmation();

do $$ begin
  comment on trigger on_auth_user_password_set on auth.users is
    'Marks a password set in this transaction (private.note_password_set_in_transaction).';
  comment on trigger on_auth_user_address_proven_forget_password on auth.users is
    'A password set before the address was proven stops working when it is (private.forget_password_set_before_confirmation).';
exception when insufficient_privilege then null;
end $$;
