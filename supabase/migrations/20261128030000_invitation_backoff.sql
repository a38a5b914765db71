-- A mail outage heals itself, and staff can see when invitations go through Auth.
-- See docs/decisions/097-a-mail-outage-heals-itself.md.
--
-- * buyer_invitations.next_attempt_at / retries: when the mail provider (or Auth) answers 5xx or
--   cannot be reached, the invitation stays pending and its next try waits: the function passes
--   its backoff (invitations.ts, 1, 5, 15 and 60 minutes) to retry_invitation, which applies it
--   with the database's clock and fails the invitation, with the reason for staff, only after
--   the last try. `retries` counts those tries in a row; a 429 (budget or quota) is not one.
-- * claim_due_invitations and claim_invitation take a pending invitation only once its next
--   attempt is due: the schedule owns the retries, a later delivery does not cut them short.
--   A failed invitation is final for the schedule (decision 054 as amended): staff "Send again"
--   (which resets the backoff) or a new delivery sends it.
-- * private.mail_status and staff_mail_status(): the webhook records whether it invites through
--   the mail API or through Auth's fallback (no MAIL_API_KEY), so the staff dashboard can say so.

alter table public.buyer_invitations
  add column next_attempt_at timestamptz,
  add column retries integer not null default 0 check (retries >= 0);

comment on column public.buyer_invitations.next_attempt_at is
  'A pending invitation whose last try met a mail outage (5xx, no answer) is not tried again before this time; null: due now.';
comment on column public.buyer_invitations.retries is
  'Tries in a row the mail provider or Auth could not take (5xx, no answer): the step of the backoff. Reset when the invitation is sent or sent again by staff, and when a new series of tries is claimed.';

-- Failed invitations the old schedule would still have retried (fewer than 5 attempts, whatever
-- the failure): they get the new series of tries instead.
update public.buyer_invitations i
set status = 'pending', next_attempt_at = null, retries = 0, updated_at = now()
where i.status = 'failed' and i.attempts < 5;

/**
 * claim_invitation as before (20261127010000), except that a pending invitation waiting out a
 * mail outage is not claimed before its next attempt is due. Claiming an invitation that was
 * never tried since it was queued again (attempts 0), failed, sent or accepted starts a new series
 * of tries.
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
    set status = 'sending', claim_id = v_claim, claimed_at = now(), attempts = i.attempts + 1,
        retries = case when i.status in ('pending', 'sending') and i.attempts > 0 then i.retries else 0 end,
        next_attempt_at = null, updated_at = now()
    where (i.status = 'pending' and (i.attempts = 0 or i.next_attempt_at is null or i.next_attempt_at <= now()))
       or i.status in ('failed', 'accepted')
       or (i.status = 'sending' and i.claimed_at < now() - interval '10 minutes')
       or (i.status = 'sent' and i.sent_at < now() - interval '1 hour')
  returning i.claim_id into v_got;
  return v_got;
end
$$;

/**
 * finish_invitation as before, and it settles the backoff: a sent or accepted invitation has none
 * left; a pending one (429: the budget or quota) is due again at the next scheduled run.
 */
create or replace function private.finish_invitation(p_email text, p_claim uuid, p_outcome text, p_reason text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_outcome is null or p_outcome not in ('sent', 'pending', 'failed', 'accepted') then
    raise exception 'outcome must be sent, pending, failed or accepted' using errcode = '22023';
  end if;
  update public.buyer_invitations i
  set status = p_outcome,
      claim_id = null,
      sent_at = case when p_outcome = 'sent' then now() else i.sent_at end,
      last_error = case when p_outcome in ('pending', 'failed') then left(p_reason, 500) end,
      retries = case when p_outcome in ('sent', 'accepted') then 0 else i.retries end,
      next_attempt_at = null,
      updated_at = now()
  where i.email = lower(btrim(p_email)) and i.claim_id = p_claim and i.status = 'sending';
  return found;
end
$$;

/**
 * The claimed invitation met a mail outage (the provider's or Auth's 5xx, or no answer): one more
 * retry in a row. While the backoff has a step for it (p_backoff_seconds[retries]) the invitation
 * is pending until now() plus that step; past the last step it is failed, with the reason. Only
 * the holder of the claim may; returns { status, next_attempt_at, retries }, or null.
 */
create function private.retry_invitation(p_email text, p_claim uuid, p_reason text, p_backoff_seconds integer[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_steps integer := coalesce(cardinality(p_backoff_seconds), 0);
  v_result jsonb;
begin
  if p_backoff_seconds is null or v_steps > 20
     or exists (select 1 from unnest(p_backoff_seconds) s where s is null or s < 1 or s > 86400) then
    raise exception 'p_backoff_seconds must be at most 20 steps of 1 to 86400 seconds' using errcode = '22023';
  end if;
  update public.buyer_invitations i
  set retries = i.retries + 1,
      status = case when i.retries + 1 > v_steps then 'failed' else 'pending' end,
      next_attempt_at = case when i.retries + 1 > v_steps then null
                             else now() + make_interval(secs => p_backoff_seconds[i.retries + 1]) end,
      claim_id = null,
      last_error = left(p_reason, 500),
      updated_at = now()
  where i.email = lower(btrim(p_email)) and i.claim_id = p_claim and i.status = 'sending'
  returning jsonb_build_object('status', i.status, 'next_attempt_at', i.next_attempt_at, 'retries', i.retries)
    into v_result;
  return v_result;
end
$$;

comment on function private.retry_invitation(text, uuid, text, integer[]) is
  'Records a claimed invitation''s mail outage: pending until its backoff step has passed, or failed after the last step. For the claim''s holder only.';
revoke execute on function private.retry_invitation(text, uuid, text, integer[]) from public, anon, authenticated;
grant execute on function private.retry_invitation(text, uuid, text, integer[]) to service_role;

create function public.retry_invitation(p_email text, p_claim uuid, p_reason text, p_backoff_seconds integer[])
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.retry_invitation(p_email, p_claim, p_reason, p_backoff_seconds)
$$;

comment on function public.retry_invitation(text, uuid, text, integer[]) is
  'service_role only (the purchase webhook): records a mail outage met by a claimed invitation, with the function''s backoff. Security invoker over private.retry_invitation().';
revoke execute on function public.retry_invitation(text, uuid, text, integer[]) from public, anon, authenticated;
grant execute on function public.retry_invitation(text, uuid, text, integer[]) to service_role;

/**
 * The scheduled run's batch: pending invitations whose next attempt is due, and those left
 * sending by a caller that died, oldest first; skips rows another run holds locked. A failed
 * invitation waits for staff ("Send again") or a new delivery.
 */
create or replace function private.claim_due_invitations(p_limit integer)
returns table (email text, claim_id uuid)
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'p_limit must be between 1 and 1000' using errcode = '22023';
  end if;
  return query
    update public.buyer_invitations i
    set status = 'sending', claim_id = gen_random_uuid(), claimed_at = now(), attempts = i.attempts + 1,
        retries = case when i.status = 'pending' and i.attempts = 0 then 0 else i.retries end,
        next_attempt_at = null, updated_at = now()
    where i.email in (
      select d.email from public.buyer_invitations d
      where (d.status = 'pending' and (d.attempts = 0 or d.next_attempt_at is null or d.next_attempt_at <= now()))
         or (d.status = 'sending' and d.claimed_at < now() - interval '10 minutes')
      order by d.created_at
      limit p_limit
      for update skip locked
    )
    returning i.email, i.claim_id;
end
$$;

comment on function private.claim_due_invitations(integer) is
  'Claims a batch of due invitations (pending whose next attempt is due, abandoned) for the scheduled run.';

/** staff_resend_invitation as before (20261127010000), and the backoff starts over: due now. */
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
  set status = 'pending', attempts = 0, retries = 0, next_attempt_at = null, last_error = null, updated_at = now()
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

-- ---------------------------------------------------------------------------------------------
-- How the webhook sends invitations: through the mail API, or through Auth's own invite (no
-- MAIL_API_KEY), which shares Auth's hourly e-mail budget with sign-ups and resets.

/** One row: the mail path the purchase webhook last reported. Only its functions read or write it. */
create table private.mail_status (
  id boolean primary key default true check (id),
  invites_via_auth boolean not null,
  since timestamptz not null default now(),
  last_seen timestamptz not null default now()
);

comment on table private.mail_status is
  'One row: whether the purchase webhook invites buyers through Auth''s fallback (no MAIL_API_KEY) rather than the mail API, since when, and when it last said so. Written by record_mail_path (service_role), read by staff_mail_status().';
revoke all on table private.mail_status from public, anon, authenticated, service_role;
grant select, insert, update on table private.mail_status to service_role;

/**
 * For the purchase webhook (service_role), when it sends an invitation and on its scheduled run:
 * whether it invites through Auth (true) or through the mail API (false). `since` moves only when
 * the answer changes; `last_seen` every time.
 */
create function public.record_mail_path(p_via_auth boolean)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  insert into private.mail_status as s (id, invites_via_auth) values (true, p_via_auth)
  on conflict (id) do update
    set invites_via_auth = excluded.invites_via_auth,
        since = case when s.invites_via_auth = excluded.invites_via_auth then s.since else now() end,
        last_seen = now()
$$;

comment on function public.record_mail_path(boolean) is
  'service_role only (the purchase webhook): records whether invitations go through Auth''s fallback (true) or the mail API (false).';
revoke execute on function public.record_mail_path(boolean) from public, anon, authenticated, service_role;
grant execute on function public.record_mail_path(boolean) to service_role;

/**
 * Staff only (else 42501): { invites_via_auth, since, last_seen }, all null until the webhook has
 * sent an invitation or run its schedule.
 */
create function private.staff_mail_status()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can read the mail status' using errcode = '42501';
  end if;
  return coalesce(
    (select jsonb_build_object('invites_via_auth', s.invites_via_auth, 'since', s.since, 'last_seen', s.last_seen)
     from private.mail_status s),
    jsonb_build_object('invites_via_auth', null, 'since', null, 'last_seen', null));
end
$$;

comment on function private.staff_mail_status() is
  'Staff only (else 42501): whether the purchase webhook invites through Auth''s fallback, since when and when it last said so. Called by public.staff_mail_status().';
revoke execute on function private.staff_mail_status() from public, anon, authenticated, service_role;
grant execute on function private.staff_mail_status() to authenticated;

create function public.staff_mail_status()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.staff_mail_status()
$$;

comment on function public.staff_mail_status() is
  'Staff only (else 42501): { invites_via_auth, since, last_seen } of the purchase webhook''s invitations (null until it has reported). Security invoker over private.staff_mail_status().';
revoke execute on function public.staff_mail_status() from public, anon, authenticated, service_role;
grant execute on function public.staff_mail_status() to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The schedule (hosted): the same job as 20261126010000's (cron.schedule replaces a job of the
-- same name), called only while an invitation is due by the new rule.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron')
     and exists (select 1 from pg_available_extensions where name = 'pg_net')
     and exists (select 1 from pg_namespace where nspname = 'vault') then
    create extension if not exists pg_cron with schema pg_catalog;
    create extension if not exists pg_net with schema extensions;
    execute $cron$
      select cron.schedule(
        'purchase-webhook-invitations',
        '* * * * *',
        $job$
          select net.http_post(
            url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url')
                   || '/functions/v1/purchase-webhook/invitations',
            headers := jsonb_build_object(
              'Content-Type', 'application/json',
              'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets
                                             where name = 'purchase_webhook_service_key')),
            body := '{}'::jsonb,
            timeout_milliseconds := 60000
          )
          where exists (select 1 from public.buyer_invitations
                        where (status = 'pending'
                               and (attempts = 0 or next_attempt_at is null or next_attempt_at <= now()))
                           or (status = 'sending' and claimed_at < now() - interval '10 minutes'))
        $job$
      )
    $cron$;
  else
    raise notice 'pg_cron / pg_net / vault not available: the invitation schedule is not changed here';
  end if;
end
$$;
