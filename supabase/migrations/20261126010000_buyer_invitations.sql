-- Issue 24: each buyer gets exactly one working invitation, and a sale the ledger has recorded is
-- never refused because the e-mail could not go out yet.
--
-- * public.buyer_invitations: one row per buyer e-mail that needs an invitation (a paid purchase
--   recorded without a confirmed account), with its state: pending (waiting, with the reason,
--   e.g. the project's e-mail budget), sending (claimed by one caller), sent (when), failed (why),
--   accepted (the address is confirmed; nothing more to send). The row is written in the
--   transaction that records the purchase, so no buyer is ever waiting unseen.
-- * claim_invitation(email) / finish_invitation(...): the webhook claims the right to send in one
--   statement, so of any number of concurrent deliveries (the same webhook id at once, a new id
--   for the same order, a second order) exactly one invites; the rest find it claimed or sent.
--   GoTrue's invite replaces the previous invitation's token (internal/api/invite.go), so a
--   second invitation would kill the first link: only an expired one (otp_expiry, an hour) is
--   sent again.
-- * claim_due_invitations(limit): the scheduled run (Supabase Cron, below) takes the pending and
--   failed ones once the budget frees.
-- * staff_resend_invitation(email): staff put a buyer back in the queue from /staff/members;
--   staff read the table through its select policy.

create table public.buyer_invitations (
  email text primary key
    check (email = lower(email) and char_length(email) between 3 and 320 and position('@' in email) > 1),
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'accepted')),
  last_error text check (char_length(last_error) <= 500),
  attempts integer not null default 0 check (attempts >= 0),
  claim_id uuid,
  claimed_at timestamptz,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint buyer_invitations_claim_while_sending check ((status = 'sending') = (claim_id is not null)),
  constraint buyer_invitations_sent_at check (status <> 'sent' or sent_at is not null)
);

comment on table public.buyer_invitations is
  'The invitation of each buyer who paid without a confirmed account: pending, sending, sent, failed or accepted. Written by the purchase webhook (service_role RPCs) and the purchases trigger; staff read all and re-queue through staff_resend_invitation().';
comment on column public.buyer_invitations.last_error is
  'Why the invitation is pending or failed: over_email_send_rate_limit (the project''s hourly e-mail budget), or the auth server''s error.';
comment on column public.buyer_invitations.claim_id is 'Set while one caller holds the right to send (status sending).';
comment on column public.buyer_invitations.sent_at is 'When the last invitation went out; its link works for an hour (config.toml otp_expiry).';

create index buyer_invitations_due_idx on public.buyer_invitations (created_at)
  where status in ('pending', 'failed', 'sending');

alter table public.buyer_invitations enable row level security;
revoke all on table public.buyer_invitations from public, anon, authenticated;
grant select on table public.buyer_invitations to authenticated;
grant all on table public.buyer_invitations to service_role;

create policy "Staff read buyer invitations"
  on public.buyer_invitations for select
  to authenticated
  using ((select private.is_staff()));
comment on policy "Staff read buyer invitations" on public.buyer_invitations is
  'Staff select every invitation (the /staff/members list of waiting buyers); nobody else any.';

create policy "No client writes to buyer invitations"
  on public.buyer_invitations
  as restrictive
  for all
  to anon, authenticated
  using (true)
  with check (false);
comment on policy "No client writes to buyer invitations" on public.buyer_invitations is
  'Restrictive: anon and authenticated never write invitations (staff re-queue through staff_resend_invitation).';

/**
 * Trigger on purchases: a paid purchase recorded without a confirmed account (user_id null)
 * needs its buyer invited; the row is made in the same transaction as the sale.
 */
create function private.purchases_need_invitation()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.user_id is null and new.status = 'paid' then
    insert into public.buyer_invitations (email) values (new.email)
    on conflict (email) do nothing;
  end if;
  return null;
end
$$;

comment on function private.purchases_need_invitation() is
  'Trigger: a paid purchase without a confirmed account queues its buyer''s invitation (buyer_invitations).';
revoke execute on function private.purchases_need_invitation() from public, anon, authenticated, service_role;

create trigger purchases_queue_invitation
  after insert on public.purchases
  for each row execute function private.purchases_need_invitation();
comment on trigger purchases_queue_invitation on public.purchases is
  'Queues the buyer''s invitation when a paid purchase is recorded without a confirmed account (private.purchases_need_invitation).';

/** Trigger on auth.users: once an address is confirmed, its invitation has done its work. */
create function private.invitation_accepted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.email is not null and new.email_confirmed_at is not null then
    update public.buyer_invitations i
    set status = 'accepted', claim_id = null, last_error = null, updated_at = now()
    where i.email = lower(new.email) and i.status <> 'accepted';
  end if;
  return null;
end
$$;

comment on function private.invitation_accepted() is
  'Trigger on auth.users: marks the invitation of a newly confirmed address accepted.';
revoke execute on function private.invitation_accepted() from public, anon, authenticated, service_role;

create trigger on_auth_user_email_confirmed_invitation_accepted
  after insert or update of email_confirmed_at, email on auth.users
  for each row execute function private.invitation_accepted();

do $$ begin
  comment on trigger on_auth_user_email_confirmed_invitation_accepted on auth.users is
    'Marks the invitation of a newly confirmed address accepted (private.invitation_accepted).';
exception when insufficient_privilege then null;
end $$;

-- Rows for buyers already waiting when this migration runs (sales recorded before it).
insert into public.buyer_invitations (email, status, sent_at)
select p.email, 'sent', max(p.created_at)
from public.purchases p
where p.user_id is null and p.status = 'paid'
group by p.email
on conflict (email) do nothing;

-- ---------------------------------------------------------------------------------------------
-- The webhook's RPCs (service_role only)

/**
 * Claims the right to invite `p_email`, atomically: one insert-or-update, so of concurrent
 * callers exactly one gets a claim id. Claimable: a pending or failed invitation, one left
 * `sending` for longer than an Edge Function may run (its caller died), and one sent more than
 * an hour ago whose address is still unconfirmed (its link has expired). A sent invitation
 * younger than that is still good and is never replaced. Returns the claim id, or null.
 */
create function private.claim_invitation(p_email text)
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
  -- A confirmed account needs no invitation (and GoTrue would refuse one).
  if exists (select 1 from auth.users u where lower(u.email) = v_email and u.email_confirmed_at is not null) then
    update public.buyer_invitations i set status = 'accepted', claim_id = null, last_error = null, updated_at = now()
    where i.email = v_email and i.status <> 'accepted';
    return null;
  end if;
  insert into public.buyer_invitations as i (email, status, claim_id, claimed_at, attempts)
  values (v_email, 'sending', v_claim, now(), 1)
  on conflict (email) do update
    set status = 'sending', claim_id = v_claim, claimed_at = now(), attempts = i.attempts + 1, updated_at = now()
    where i.status in ('pending', 'failed')
       or (i.status = 'sending' and i.claimed_at < now() - interval '10 minutes')
       or (i.status = 'sent' and i.sent_at < now() - interval '1 hour')
  returning i.claim_id into v_got;
  return v_got;
end
$$;

comment on function private.claim_invitation(text) is
  'Atomically claims the right to invite an e-mail (null: someone else holds it, it is sent and still good, or the account is confirmed).';
revoke execute on function private.claim_invitation(text) from public, anon, authenticated;
grant execute on function private.claim_invitation(text) to service_role;

create function public.claim_invitation(p_email text)
returns uuid
language sql
security invoker
set search_path = ''
as $$
  select private.claim_invitation(p_email)
$$;

comment on function public.claim_invitation(text) is
  'service_role only (the purchase webhook): claims the right to invite a buyer. Security invoker over private.claim_invitation().';
revoke execute on function public.claim_invitation(text) from public, anon, authenticated;
grant execute on function public.claim_invitation(text) to service_role;

/**
 * Records what became of a claimed invitation: sent, pending (it may go later: the e-mail
 * budget), failed (with the reason) or accepted (the address turned out confirmed). Only the
 * holder of the claim may; returns whether it did.
 */
create function private.finish_invitation(p_email text, p_claim uuid, p_outcome text, p_reason text)
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
      updated_at = now()
  where i.email = lower(btrim(p_email)) and i.claim_id = p_claim and i.status = 'sending';
  return found;
end
$$;

comment on function private.finish_invitation(text, uuid, text, text) is
  'Records the outcome of a claimed invitation (sent, pending, failed with reason, accepted), for the claim''s holder only.';
revoke execute on function private.finish_invitation(text, uuid, text, text) from public, anon, authenticated;
grant execute on function private.finish_invitation(text, uuid, text, text) to service_role;

create function public.finish_invitation(p_email text, p_claim uuid, p_outcome text, p_reason text)
returns boolean
language sql
security invoker
set search_path = ''
as $$
  select private.finish_invitation(p_email, p_claim, p_outcome, p_reason)
$$;

comment on function public.finish_invitation(text, uuid, text, text) is
  'service_role only (the purchase webhook): records what became of a claimed invitation. Security invoker over private.finish_invitation().';
revoke execute on function public.finish_invitation(text, uuid, text, text) from public, anon, authenticated;
grant execute on function public.finish_invitation(text, uuid, text, text) to service_role;

/**
 * The scheduled run's batch: claims up to p_limit invitations that are pending, failed (fewer
 * than 5 attempts: a staff member re-queues the rest) or left sending by a caller that died,
 * oldest first; skips rows another run holds locked.
 */
create function private.claim_due_invitations(p_limit integer)
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
    set status = 'sending', claim_id = gen_random_uuid(), claimed_at = now(), attempts = i.attempts + 1, updated_at = now()
    where i.email in (
      select d.email from public.buyer_invitations d
      where d.status = 'pending'
         or (d.status = 'failed' and d.attempts < 5)
         or (d.status = 'sending' and d.claimed_at < now() - interval '10 minutes')
      order by d.created_at
      limit p_limit
      for update skip locked
    )
    returning i.email, i.claim_id;
end
$$;

comment on function private.claim_due_invitations(integer) is
  'Claims a batch of due invitations (pending, failed with attempts left, abandoned) for the scheduled run.';
revoke execute on function private.claim_due_invitations(integer) from public, anon, authenticated;
grant execute on function private.claim_due_invitations(integer) to service_role;

create function public.claim_due_invitations(p_limit integer)
returns table (email text, claim_id uuid)
language sql
security invoker
set search_path = ''
as $$
  select * from private.claim_due_invitations(p_limit)
$$;

comment on function public.claim_due_invitations(integer) is
  'service_role only (the scheduled run of the purchase webhook). Security invoker over private.claim_due_invitations().';
revoke execute on function public.claim_due_invitations(integer) from public, anon, authenticated;
grant execute on function public.claim_due_invitations(integer) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Staff: send again

/**
 * Staff put a buyer's invitation back in the queue: a pending or failed one, or a sent one
 * whose link has expired while the address is unconfirmed. The next scheduled run sends it (in
 * a minute, or when the e-mail budget frees). 42501 for non-staff; P0002 when there is nothing
 * to send again. Returns the row's new state.
 */
create function private.staff_resend_invitation(p_email text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can send invitations again' using errcode = '42501';
  end if;
  update public.buyer_invitations i
  set status = 'pending', attempts = 0, last_error = null, updated_at = now()
  where i.email = lower(btrim(p_email))
    and (i.status in ('pending', 'failed') or (i.status = 'sent' and i.sent_at < now() - interval '1 hour'));
  if not found then
    raise exception 'no invitation waits for this address' using errcode = 'P0002';
  end if;
  return 'pending';
end
$$;

comment on function private.staff_resend_invitation(text) is
  'Staff only (else 42501): re-queues a pending, failed or expired invitation (P0002 when none). Called by public.staff_resend_invitation().';
revoke execute on function private.staff_resend_invitation(text) from public, anon, authenticated, service_role;
grant execute on function private.staff_resend_invitation(text) to authenticated;

create function public.staff_resend_invitation(p_email text)
returns text
language sql
security invoker
set search_path = ''
as $$
  select private.staff_resend_invitation(p_email)
$$;

comment on function public.staff_resend_invitation(text) is
  'Staff only (else 42501): queues a buyer''s invitation to be sent again. Security invoker over private.staff_resend_invitation().';
revoke execute on function public.staff_resend_invitation(text) from public, anon, authenticated, service_role;
grant execute on function public.staff_resend_invitation(text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The schedule (hosted): Supabase Cron calls the function every minute through pg_net. Where
-- the platform offers neither extension (the local stand-in's engine, the test server) nothing
-- is scheduled here: the stand-in calls the same URL on its own timer (supabase/local).
-- The call needs two Vault secrets, set once per project (README, "Going live"):
--   select vault.create_secret('https://<ref>.supabase.co', 'project_url');
--   select vault.create_secret('<service role key>', 'purchase_webhook_service_key');
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
                        where status = 'pending'
                           or (status = 'failed' and attempts < 5)
                           or (status = 'sending' and claimed_at < now() - interval '10 minutes'))
        $job$
      )
    $cron$;
  else
    raise notice 'pg_cron / pg_net / vault not available: the invitation schedule is not created here';
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- One call per delivery: record the sale and, for a buyer without a confirmed account, claim the
-- invitation in the same transaction (a launch-day spike makes every round trip count).

/**
 * record_purchase(...) and then, unless the account is confirmed, claim_invitation(email):
 * record_purchase's answer plus `invitation_claim` (the claim id, or null when another delivery
 * holds it or it is sent and still good). Concurrent deliveries of one order wait on the first
 * one's row, so exactly one of them gets the claim.
 */
create function private.record_sale(
  p_provider text, p_event_id text, p_order_id text, p_email text, p_product text,
  p_tier public.tier, p_amount_cents bigint, p_currency text, p_occurred_at timestamptz
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_result jsonb;
begin
  v_result := private.record_purchase(p_provider, p_event_id, p_order_id, p_email, p_product, p_tier,
    p_amount_cents, p_currency, p_occurred_at);
  if v_result ->> 'account' = 'confirmed' then
    return v_result;
  end if;
  return v_result || jsonb_build_object('invitation_claim', private.claim_invitation(p_email));
end
$$;

comment on function private.record_sale(text, text, text, text, text, public.tier, bigint, text, timestamptz) is
  'record_purchase, then claim_invitation for a buyer without a confirmed account, in one transaction. Called by public.record_sale().';
revoke execute on function private.record_sale(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  from public, anon, authenticated;
grant execute on function private.record_sale(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  to service_role;

create function public.record_sale(
  p_provider text, p_event_id text, p_order_id text, p_email text, p_product text,
  p_tier public.tier, p_amount_cents bigint, p_currency text, p_occurred_at timestamptz
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.record_sale(p_provider, p_event_id, p_order_id, p_email, p_product, p_tier, p_amount_cents, p_currency, p_occurred_at)
$$;

comment on function public.record_sale(text, text, text, text, text, public.tier, bigint, text, timestamptz) is
  'service_role only (the purchase webhook): records a paid order idempotently and claims the buyer''s invitation. Security invoker over private.record_sale().';
revoke execute on function public.record_sale(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  from public, anon, authenticated;
grant execute on function public.record_sale(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  to service_role;
