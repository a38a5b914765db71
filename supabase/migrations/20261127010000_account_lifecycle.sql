-- Every way back in for a returning buyer, and an erased member's purchases stay theirs.
-- See docs/decisions/065-account-lifecycle-and-the-invitation-ledger.md.
--
-- * Deleting an account ends its address's invitation row: a buyer who deleted their account (or
--   was erased) and buys again is invited afresh, and staff "Send again" works for them. An
--   `accepted` row left by an earlier deletion no longer blocks the sale, the schedule or staff.
-- * An erasure (the account function logs it in account_erasures before it deletes the user)
--   also closes the purchases recorded at the address and not attached to the account (an
--   invited buyer who never accepted): they never attach to a later account at that address.
-- * Removing an unconfirmed account without an erasure (GoTrue's admin delete, a squatter who
--   registered someone else's address) closes only what was attached to it, which is nothing:
--   the address's owner still gets their purchases, and their invitation goes out again.

/**
 * Trigger before a user is deleted: stamps the purchases that were theirs (attached, or, for an
 * erasure in progress, recorded at their address and never attached), then settles the
 * address's invitation: queued again when a paid purchase still waits there, else removed.
 */
create or replace function private.detach_purchases_of_deleted_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(old.email);
  v_erased boolean := exists (
    select 1 from public.account_erasures e where e.erased_user = old.id and e.completed_at is null
  );
begin
  update public.purchases p
  set account_removed_at = now()
  where p.account_removed_at is null
    and (p.user_id = old.id or (v_erased and p.user_id is null and p.email = v_email));
  if v_email is null then
    return old;
  end if;
  if exists (
    select 1 from public.purchases p
    where p.email = v_email and p.user_id is null and p.account_removed_at is null and p.status = 'paid'
  ) then
    update public.buyer_invitations i
    set status = 'pending', claim_id = null, attempts = 0, last_error = null, updated_at = now()
    where i.email = v_email;
  else
    delete from public.buyer_invitations i where i.email = v_email;
  end if;
  return old;
end
$$;

comment on function private.detach_purchases_of_deleted_user() is
  'Trigger on auth.users (before delete): stamps account_removed_at on the deleted user''s purchases (for an erasure, also those recorded at the address and never attached) and settles the address''s invitation (queued again if a paid purchase still waits, else removed).';

/** A paid purchase without a confirmed account queues its buyer; an old `accepted` row is reopened. */
create or replace function private.purchases_need_invitation()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.user_id is null and new.status = 'paid' then
    insert into public.buyer_invitations as i (email) values (new.email)
    on conflict (email) do update
      set status = 'pending', attempts = 0, last_error = null, updated_at = now()
      where i.status = 'accepted';
  end if;
  return null;
end
$$;

comment on function private.purchases_need_invitation() is
  'Trigger: a paid purchase without a confirmed account queues its buyer''s invitation (buyer_invitations), reopening an accepted one (the account that accepted it is gone).';

/**
 * claim_invitation as before, and an `accepted` row is claimable too: reaching the claim, the
 * address has no confirmed account (that case returns first), so whoever accepted it is gone.
 */
create or replace function private.claim_invitation(p_email text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(p_email));
  v_claim uuid := gen_random_uuid();
  v_got uuid;
begin
  if v_email is null or position('@' in v_email) < 2 then
    raise exception 'a buyer e-mail is required' using errcode = '22023';
  end if;
  if exists (select 1 from auth.users u where lower(u.email) = v_email and u.email_confirmed_at is not null) then
    update public.buyer_invitations i set status = 'accepted', claim_id = null, last_error = null, updated_at = now()
    where i.email = v_email and i.status <> 'accepted';
    return null;
  end if;
  insert into public.buyer_invitations as i (email, status, claim_id, claimed_at, attempts)
  values (v_email, 'sending', v_claim, now(), 1)
  on conflict (email) do update
    set status = 'sending', claim_id = v_claim, claimed_at = now(), attempts = i.attempts + 1, updated_at = now()
    where i.status in ('pending', 'failed', 'accepted')
       or (i.status = 'sending' and i.claimed_at < now() - interval '10 minutes')
       or (i.status = 'sent' and i.sent_at < now() - interval '1 hour')
  returning i.claim_id into v_got;
  return v_got;
end
$$;

/**
 * staff_resend_invitation as before, and an `accepted` invitation whose address has no
 * confirmed account any more (the buyer deleted it, or was erased) is queued again too.
 */
create or replace function private.staff_resend_invitation(p_email text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(p_email));
begin
  if not private.is_staff() then
    raise exception 'only staff can send invitations again' using errcode = '42501';
  end if;
  update public.buyer_invitations i
  set status = 'pending', attempts = 0, last_error = null, updated_at = now()
  where i.email = v_email
    and (i.status in ('pending', 'failed')
      or (i.status = 'sent' and i.sent_at < now() - interval '1 hour')
      or (i.status = 'accepted'
        and not exists (select 1 from auth.users u where lower(u.email) = v_email and u.email_confirmed_at is not null)));
  if not found then
    raise exception 'no invitation waits for this address' using errcode = 'P0002';
  end if;
  return 'pending';
end
$$;

-- Rows that earlier deletions left `accepted` with no confirmed account at the address: queued
-- again where a paid purchase waits, removed otherwise.
update public.buyer_invitations i
set status = 'pending', attempts = 0, last_error = null, updated_at = now()
where i.status = 'accepted'
  and not exists (select 1 from auth.users u where lower(u.email) = i.email and u.email_confirmed_at is not null)
  and exists (select 1 from public.purchases p
              where p.email = i.email and p.user_id is null and p.account_removed_at is null and p.status = 'paid');
delete from public.buyer_invitations i
where i.status = 'accepted'
  and not exists (select 1 from auth.users u where lower(u.email) = i.email and u.email_confirmed_at is not null);
