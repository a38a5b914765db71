-- Issue 8: the purchases ledger. A user's tier is no longer set by hand: it is derived by the
-- database from what the user holds, and recomputed on every change:
--
--   tier = the highest of (their paid purchases attached to their account, their active staff grant)
--
-- * public.purchases: one row per order, written only by the checkout webhook (service_role)
--   through record_purchase() / record_refund(). A purchase attaches to an account
--   (user_id) only once an account with the buyer's e-mail is *confirmed*, so nobody can take
--   a purchase by signing up first with someone else's address. Production must keep e-mail
--   confirmation on (docs/database.md).
-- * public.webhook_events: every sale / refund event id seen, so a replay changes nothing and
--   a refund that arrives before its sale is remembered.
-- * public.tier_grants: staff grants, with a required reason; grant_tier() / revoke_tier()
--   replace set_user_tier().
-- * public.user_tiers keeps one row per user who ever held a tier; tier is null when they hold
--   nothing now (Realtime publishes inserts and updates only, so a delete would never reach
--   an open /resources page). It joins the supabase_realtime publication.
-- * tier_audit records the source and reason of every change.
-- * staff_list_members() / staff_member_detail(): the staff members page reads e-mails from
--   auth.users only through these staff-checked functions.

-- ---------------------------------------------------------------------------------------------
-- user_tiers and tier_audit

alter table public.user_tiers alter column tier drop not null;

comment on column public.user_tiers.tier is
  'The highest of the user''s paid, attached purchases and active staff grant; null when they hold none. Derived by the database (private.recompute_user_tier), never written by the client.';
comment on table public.user_tiers is
  'The tier a user holds (at most one row per user; tier null = none any more). Readable by its owner, published to Realtime; derived by the database from purchases and tier_grants; audited in tier_audit.';

alter table public.tier_audit
  add column reason text check (char_length(reason) <= 1000),
  add column source text not null default 'system'
    check (source in ('purchase', 'refund', 'staff_grant', 'staff_revoke', 'account_confirmed', 'system'));

comment on column public.tier_audit.reason is 'Why: the staff member''s reason, or the order a purchase / refund came from.';
comment on column public.tier_audit.source is
  'What changed the tier: purchase, refund, staff_grant, staff_revoke, account_confirmed, or system (a direct write by SQL / service_role).';

/**
 * Writes one tier_audit row per insert / update / delete on user_tiers, with the source and
 * reason that private.recompute_user_tier() sets for the transaction ('system' for a direct
 * write). Security definer so the row is written whoever changes the tier.
 */
create or replace function public.audit_user_tier_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.tier_audit (target_user, old_tier, new_tier, changed_by, changed_by_role, source, reason)
  values (
    coalesce(new.user_id, old.user_id),
    case when tg_op = 'INSERT' then null else old.tier end,
    case when tg_op = 'DELETE' then null else new.tier end,
    (select auth.uid()),
    coalesce((select auth.role()), session_user::text),
    coalesce(nullif(current_setting('app.tier_source', true), ''), 'system'),
    nullif(current_setting('app.tier_reason', true), '')
  );
  return null;
end
$$;

comment on function public.audit_user_tier_change() is
  'Trigger: records every change of user_tiers in tier_audit, with its source and reason.';

-- ---------------------------------------------------------------------------------------------
-- purchases, webhook_events, tier_grants

/** One row per order a checkout reported paid. */
create table public.purchases (
  id uuid primary key default gen_random_uuid(),
  provider text not null check (provider in ('shopify', 'stripe')),
  provider_event_id text not null check (char_length(provider_event_id) between 1 and 255),
  order_id text not null check (char_length(order_id) between 1 and 255),
  email text not null check (email = lower(email) and char_length(email) between 3 and 320 and position('@' in email) > 1),
  product text not null check (char_length(product) between 1 and 255),
  tier public.tier not null,
  amount_cents bigint not null check (amount_cents >= 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  status text not null default 'paid' check (status in ('paid', 'refunded')),
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  refunded_at timestamptz,
  constraint purchases_provider_order_key unique (provider, order_id),
  constraint purchases_refunded_at_with_status check ((status = 'refunded') = (refunded_at is not null))
);

comment on table public.purchases is
  'Orders a checkout reported paid (and later refunded). Written only by the purchase webhook (service_role, record_purchase / record_refund). A user selects their own rows, staff select all.';
comment on column public.purchases.provider_event_id is 'The provider''s id of the event that recorded the sale.';
comment on column public.purchases.email is 'Buyer e-mail at checkout, lower-cased.';
comment on column public.purchases.amount_cents is 'Amount paid in minor units of currency.';
comment on column public.purchases.currency is 'ISO 4217 code, upper case.';
comment on column public.purchases.user_id is
  'The account the purchase belongs to: set only once an account with this e-mail is confirmed.';
comment on column public.purchases.refunded_at is 'When the refund happened (null while paid).';

create index purchases_user_id_idx on public.purchases (user_id);
create index purchases_unattached_email_idx on public.purchases (email) where user_id is null;

alter table public.purchases enable row level security;
revoke all on table public.purchases from public, anon, authenticated;
grant select on table public.purchases to authenticated;
grant all on table public.purchases to service_role;

/** One select policy (lint 0006: no second permissive policy): own rows, or all for staff. */
create policy "Users read their own purchases, staff read all"
  on public.purchases for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));
comment on policy "Users read their own purchases, staff read all" on public.purchases is
  'A signed-in user selects the rows attached to their account; staff select every row.';

create policy "No client writes to purchases"
  on public.purchases
  as restrictive
  for all
  to anon, authenticated
  using (true)
  with check (false);
comment on policy "No client writes to purchases" on public.purchases is
  'Restrictive: anon and authenticated never insert or update purchases, even if a later grant allowed it (reads are left to the select policy).';

/** Sale and refund events seen, per provider: de-duplication and refunds that come first. */
create table public.webhook_events (
  id bigint generated always as identity primary key,
  provider text not null check (provider in ('shopify', 'stripe')),
  event_id text not null check (char_length(event_id) between 1 and 255),
  kind text not null check (kind in ('sale', 'refund')),
  order_id text not null check (char_length(order_id) between 1 and 255),
  occurred_at timestamptz,
  received_at timestamptz not null default now(),
  constraint webhook_events_provider_event_key unique (provider, event_id)
);

comment on table public.webhook_events is
  'Checkout events recorded (sale or refund), unique per provider event id: a replay changes nothing, and a refund seen before its sale keeps that sale from granting. service_role / SQL only.';

create index webhook_events_order_idx on public.webhook_events (provider, order_id) where kind = 'refund';

alter table public.webhook_events enable row level security;
revoke all on table public.webhook_events from public, anon, authenticated;
grant all on table public.webhook_events to service_role;
revoke all on sequence public.webhook_events_id_seq from public, anon, authenticated, service_role;

create policy "No API access to webhook events"
  on public.webhook_events
  as restrictive
  for all
  to anon, authenticated
  using (false)
  with check (false);
comment on policy "No API access to webhook events" on public.webhook_events is
  'Deny-all for anon and authenticated: only the webhook (service_role) records events.';

/** Tiers granted by staff, with why; at most one active grant per user. */
create table public.tier_grants (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  tier public.tier not null,
  reason text not null check (char_length(btrim(reason)) between 1 and 500),
  granted_by uuid references auth.users (id) on delete set null,
  granted_at timestamptz not null default now(),
  revoked_at timestamptz,
  revoked_by uuid references auth.users (id) on delete set null,
  revoke_reason text check (char_length(btrim(revoke_reason)) between 1 and 500),
  constraint tier_grants_revoked_with_reason check ((revoked_at is null) = (revoke_reason is null))
);

comment on table public.tier_grants is
  'Staff grants of a tier: who granted it, when and why, and who revoked it, when and why. At most one active (revoked_at null) grant per user. Written through grant_tier() / revoke_tier(); staff read all.';
comment on column public.tier_grants.granted_by is 'The staff member (null: SQL / service_role, e.g. seed data).';

create unique index tier_grants_one_active_per_user on public.tier_grants (user_id) where revoked_at is null;

alter table public.tier_grants enable row level security;
revoke all on table public.tier_grants from public, anon, authenticated;
grant select on table public.tier_grants to authenticated;
grant all on table public.tier_grants to service_role;

create policy "Staff read tier grants"
  on public.tier_grants for select
  to authenticated
  using ((select private.is_staff()));
comment on policy "Staff read tier grants" on public.tier_grants is 'Staff select every grant; nobody else any.';

create policy "No client writes to tier grants"
  on public.tier_grants
  as restrictive
  for all
  to anon, authenticated
  using (true)
  with check (false);
comment on policy "No client writes to tier grants" on public.tier_grants is
  'Restrictive: anon and authenticated never insert or update grants directly (grant_tier / revoke_tier do).';

-- ---------------------------------------------------------------------------------------------
-- The tier rule

/**
 * Recomputes one user's tier: the highest of their paid attached purchases and active staff
 * grant. Writes user_tiers only when the tier changes (inserting the row the first time); the
 * audit trigger records source and reason. With always_audit (staff actions), an unchanged
 * tier is audited too, so every grant and revoke leaves a row.
 */
create function private.recompute_user_tier(p_user uuid, p_source text, p_reason text, p_always_audit boolean)
returns public.tier
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_new public.tier;
  v_old public.tier;
  v_has_row boolean;
begin
  if p_user is null or not exists (select 1 from auth.users u where u.id = p_user) then
    return null;
  end if;

  -- One recompute per user at a time, and the tier computed only once the lock is held: two
  -- webhook deliveries for the same buyer in parallel (read committed) then see each other's
  -- committed purchase, so the later one cannot write a stale, lower tier.
  perform pg_advisory_xact_lock(hashtextextended('public.user_tiers:' || p_user::text, 0));

  select greatest(
    (select max(p.tier) from public.purchases p where p.user_id = p_user and p.status = 'paid'),
    (select g.tier from public.tier_grants g where g.user_id = p_user and g.revoked_at is null)
  ) into v_new;

  select t.tier, true into v_old, v_has_row from public.user_tiers t where t.user_id = p_user for update;
  v_has_row := coalesce(v_has_row, false);

  perform set_config('app.tier_source', coalesce(p_source, 'system'), true);
  perform set_config('app.tier_reason', coalesce(left(p_reason, 1000), ''), true);

  if not v_has_row then
    if v_new is not null then
      insert into public.user_tiers (user_id, tier) values (p_user, v_new);
    elsif p_always_audit then
      insert into public.tier_audit (target_user, old_tier, new_tier, changed_by, changed_by_role, source, reason)
      values (p_user, null, null, (select auth.uid()), coalesce((select auth.role()), session_user::text), p_source, p_reason);
    end if;
  elsif v_old is distinct from v_new then
    update public.user_tiers set tier = v_new where user_id = p_user;
  elsif p_always_audit then
    insert into public.tier_audit (target_user, old_tier, new_tier, changed_by, changed_by_role, source, reason)
    values (p_user, v_old, v_new, (select auth.uid()), coalesce((select auth.role()), session_user::text), p_source, p_reason);
  end if;

  perform set_config('app.tier_source', '', true);
  perform set_config('app.tier_reason', '', true);
  return v_new;
end
$$;

comment on function private.recompute_user_tier(uuid, text, text, boolean) is
  'Sets user_tiers.tier to the highest of the user''s paid attached purchases and active staff grant (null: none); audited with source and reason.';

revoke execute on function private.recompute_user_tier(uuid, text, text, boolean) from public, anon, authenticated, service_role;

/** Trigger on purchases: recomputes the tier of the user(s) a row change concerns. */
create function private.purchases_after_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_source text;
  v_row public.purchases := coalesce(new, old);
begin
  v_source := case
    when tg_op = 'UPDATE' and old.user_id is null and new.user_id is not null then 'account_confirmed'
    when tg_op <> 'DELETE' and new.status = 'refunded' then 'refund'
    when tg_op = 'DELETE' then 'system'
    else 'purchase'
  end;
  if tg_op <> 'INSERT' and old.user_id is not null then
    perform private.recompute_user_tier(old.user_id, v_source,
      format('%s order %s (%s)', v_row.provider, v_row.order_id, v_row.product), false);
  end if;
  if tg_op <> 'DELETE' and new.user_id is not null and new.user_id is distinct from old.user_id then
    perform private.recompute_user_tier(new.user_id, v_source,
      format('%s order %s (%s)', v_row.provider, v_row.order_id, v_row.product), false);
  end if;
  return null;
end
$$;

comment on function private.purchases_after_change() is
  'Trigger: after a purchase is recorded, attached, refunded or removed, recomputes the tier of its user.';
revoke execute on function private.purchases_after_change() from public, anon, authenticated, service_role;

create trigger purchases_recompute_tier
  after insert or update or delete on public.purchases
  for each row execute function private.purchases_after_change();

/** Keeps id, provider, order and created_at fixed and stamps updated_at. */
create function private.purchases_before_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.id := old.id;
  new.provider := old.provider;
  new.order_id := old.order_id;
  new.created_at := old.created_at;
  new.updated_at := now();
  return new;
end
$$;

comment on function private.purchases_before_update() is 'Trigger: keeps a purchase''s identity and created_at, stamps updated_at.';
revoke execute on function private.purchases_before_update() from public, anon, authenticated, service_role;

create trigger purchases_before_update
  before update on public.purchases
  for each row execute function private.purchases_before_update();

/** Trigger on tier_grants: recomputes the tier of the grant's user, audited as a staff action. */
create function private.tier_grants_after_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- grant_tier() closes the grant it replaces inside the same call: no recompute (and no
  -- brief drop of the tier) for that step; the new grant's insert recomputes.
  if current_setting('app.replacing_tier_grant', true) = 'on' then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform private.recompute_user_tier(new.user_id, 'staff_grant', new.reason, true);
  elsif tg_op = 'UPDATE' then
    if old.revoked_at is null and new.revoked_at is not null then
      perform private.recompute_user_tier(new.user_id, 'staff_revoke', new.revoke_reason, true);
    else
      perform private.recompute_user_tier(new.user_id, 'system', null, false);
    end if;
  else
    perform private.recompute_user_tier(old.user_id, 'system', null, false);
  end if;
  return null;
end
$$;

comment on function private.tier_grants_after_change() is
  'Trigger: after a staff grant is made, revoked or removed, recomputes (and audits) the user''s tier.';
revoke execute on function private.tier_grants_after_change() from public, anon, authenticated, service_role;

create trigger tier_grants_recompute_tier
  after insert or update or delete on public.tier_grants
  for each row execute function private.tier_grants_after_change();

/**
 * Trigger on auth.users: when an account's e-mail becomes confirmed (created confirmed, an
 * invitation or sign-up link followed, or a confirmed e-mail change), attaches that e-mail's
 * unattached purchases to it; the purchases trigger then recomputes the tier.
 */
create function private.attach_purchases_of_confirmed_email()
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
  where p.user_id is null and p.email = lower(new.email);
  return null;
end
$$;

comment on function private.attach_purchases_of_confirmed_email() is
  'Trigger on auth.users: attaches the purchases made with an e-mail to the account once that e-mail is confirmed.';
revoke execute on function private.attach_purchases_of_confirmed_email() from public, anon, authenticated, service_role;

create trigger on_auth_user_email_confirmed_attach_purchases
  after insert or update of email_confirmed_at, email on auth.users
  for each row execute function private.attach_purchases_of_confirmed_email();

do $$ begin
  comment on trigger on_auth_user_email_confirmed_attach_purchases on auth.users is
    'Attaches unattached purchases of a newly confirmed e-mail (private.attach_purchases_of_confirmed_email).';
exception when insufficient_privilege then null;
end $$;

-- ---------------------------------------------------------------------------------------------
-- Webhook RPCs (service_role only)

/** The confirmed account with this e-mail, and whether an unconfirmed one exists. */
create function private.account_for_email(p_email text, out user_id uuid, out account text)
language sql
stable
security definer
set search_path = ''
as $$
  select
    (select u.id from auth.users u
     where lower(u.email) = lower(p_email) and u.email_confirmed_at is not null
     order by u.created_at limit 1),
    case
      when exists (select 1 from auth.users u where lower(u.email) = lower(p_email) and u.email_confirmed_at is not null)
        then 'confirmed'
      when exists (select 1 from auth.users u where lower(u.email) = lower(p_email)) then 'unconfirmed'
      else 'none'
    end
$$;

comment on function private.account_for_email(text) is
  'The confirmed account (user_id) with an e-mail, and account = confirmed | unconfirmed | none.';
revoke execute on function private.account_for_email(text) from public, anon, authenticated, service_role;

create function private.record_purchase(
  p_provider text, p_event_id text, p_order_id text, p_email text, p_product text,
  p_tier public.tier, p_amount_cents bigint, p_currency text, p_occurred_at timestamptz
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(p_email));
  v_account record;
  v_purchase_id uuid;
  v_refunded_at timestamptz;
  v_new boolean;
begin
  if p_provider is null or p_provider not in ('shopify', 'stripe') then
    raise exception 'unknown provider' using errcode = '22023';
  end if;
  if coalesce(btrim(p_event_id), '') = '' or coalesce(btrim(p_order_id), '') = '' then
    raise exception 'event id and order id are required' using errcode = '22023';
  end if;
  if v_email is null or position('@' in v_email) < 2 then
    raise exception 'a buyer e-mail is required' using errcode = '22023';
  end if;
  if p_tier is null or coalesce(btrim(p_product), '') = '' then
    raise exception 'product and tier are required' using errcode = '22023';
  end if;
  if p_amount_cents is null or p_amount_cents < 0 or p_currency is null or upper(btrim(p_currency)) !~ '^[A-Z]{3}$' then
    raise exception 'amount and ISO 4217 currency are required' using errcode = '22023';
  end if;

  select * into v_account from private.account_for_email(v_email);

  insert into public.webhook_events (provider, event_id, kind, order_id, occurred_at)
  values (p_provider, p_event_id, 'sale', p_order_id, p_occurred_at)
  on conflict (provider, event_id) do nothing;
  v_new := found;

  if v_new then
    -- A refund that arrived first: the sale is recorded as refunded and grants nothing.
    select min(coalesce(e.occurred_at, e.received_at)) into v_refunded_at
    from public.webhook_events e
    where e.provider = p_provider and e.order_id = p_order_id and e.kind = 'refund';

    insert into public.purchases (
      provider, provider_event_id, order_id, email, product, tier, amount_cents, currency,
      status, user_id, created_at, refunded_at
    ) values (
      p_provider, p_event_id, p_order_id, v_email, p_product, p_tier, p_amount_cents, upper(btrim(p_currency)),
      case when v_refunded_at is null then 'paid' else 'refunded' end,
      v_account.user_id, coalesce(p_occurred_at, now()), v_refunded_at
    )
    on conflict (provider, order_id) do nothing
    returning id into v_purchase_id;
    v_new := v_purchase_id is not null;
  end if;

  if not v_new then
    select p.id, p.user_id into v_purchase_id, v_account.user_id
    from public.purchases p where p.provider = p_provider and p.order_id = p_order_id;
  end if;

  return jsonb_build_object(
    'duplicate', not v_new,
    'purchase_id', v_purchase_id,
    'user_id', v_account.user_id,
    'account', v_account.account
  );
end
$$;

comment on function private.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz) is
  'Records a sale once per event id and once per order; attaches it to the confirmed account with the e-mail. Called by public.record_purchase().';
revoke execute on function private.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  from public, anon, authenticated;
grant execute on function private.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  to service_role;

/**
 * record_purchase(...): the webhook records a paid order. Returns {duplicate, purchase_id,
 * user_id, account}: duplicate when the event id (or the order) was already recorded, in which
 * case nothing changes; account says whether a confirmed, an unconfirmed or no account has
 * the e-mail (the webhook invites the buyer when there is none).
 */
create function public.record_purchase(
  p_provider text, p_event_id text, p_order_id text, p_email text, p_product text,
  p_tier public.tier, p_amount_cents bigint, p_currency text, p_occurred_at timestamptz
)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.record_purchase(p_provider, p_event_id, p_order_id, p_email, p_product, p_tier, p_amount_cents, p_currency, p_occurred_at)
$$;

comment on function public.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz) is
  'service_role only (the purchase webhook): records a paid order idempotently. Security invoker over private.record_purchase().';
revoke execute on function public.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  from public, anon, authenticated;
grant execute on function public.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  to service_role;

create function private.record_refund(p_provider text, p_event_id text, p_order_id text, p_occurred_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_new boolean;
  v_user uuid;
  v_found boolean;
begin
  if p_provider is null or p_provider not in ('shopify', 'stripe') then
    raise exception 'unknown provider' using errcode = '22023';
  end if;
  if coalesce(btrim(p_event_id), '') = '' or coalesce(btrim(p_order_id), '') = '' then
    raise exception 'event id and order id are required' using errcode = '22023';
  end if;

  insert into public.webhook_events (provider, event_id, kind, order_id, occurred_at)
  values (p_provider, p_event_id, 'refund', p_order_id, p_occurred_at)
  on conflict (provider, event_id) do nothing;
  v_new := found;

  if v_new then
    update public.purchases p
    set status = 'refunded', refunded_at = coalesce(p_occurred_at, now())
    where p.provider = p_provider and p.order_id = p_order_id and p.status = 'paid';
  end if;

  select p.user_id, true into v_user, v_found
  from public.purchases p where p.provider = p_provider and p.order_id = p_order_id;

  return jsonb_build_object('duplicate', not v_new, 'found', coalesce(v_found, false), 'user_id', v_user);
end
$$;

comment on function private.record_refund(text, text, text, timestamptz) is
  'Marks an order refunded once per event id (remembered if the sale has not arrived yet). Called by public.record_refund().';
revoke execute on function private.record_refund(text, text, text, timestamptz) from public, anon, authenticated;
grant execute on function private.record_refund(text, text, text, timestamptz) to service_role;

/**
 * record_refund(...): the webhook records a refund. Returns {duplicate, found, user_id}. The
 * user's tier falls back to their highest remaining paid purchase or staff grant.
 */
create function public.record_refund(p_provider text, p_event_id text, p_order_id text, p_occurred_at timestamptz)
returns jsonb
language sql
security invoker
set search_path = ''
as $$
  select private.record_refund(p_provider, p_event_id, p_order_id, p_occurred_at)
$$;

comment on function public.record_refund(text, text, text, timestamptz) is
  'service_role only (the purchase webhook): records a refund idempotently. Security invoker over private.record_refund().';
revoke execute on function public.record_refund(text, text, text, timestamptz) from public, anon, authenticated;
grant execute on function public.record_refund(text, text, text, timestamptz) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Staff RPCs: grant_tier / revoke_tier replace set_user_tier

drop function public.set_user_tier(uuid, public.tier);
drop function private.set_user_tier(uuid, public.tier);

/** Checks a staff reason: required, not blank, at most 500 characters (else 22023). */
create function private.checked_reason(reason text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  if reason is null or btrim(reason) = '' then
    raise exception 'a reason is required' using errcode = '22023';
  end if;
  if char_length(btrim(reason)) > 500 then
    raise exception 'the reason is longer than 500 characters' using errcode = '22023';
  end if;
  return btrim(reason);
end
$$;

comment on function private.checked_reason(text) is 'The trimmed reason, or error 22023 when blank or over 500 characters.';
revoke execute on function private.checked_reason(text) from public, anon, authenticated, service_role;
grant execute on function private.checked_reason(text) to authenticated;

create function private.grant_tier(target_user uuid, new_tier public.tier, reason text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_reason text;
begin
  if not private.is_staff() then
    raise exception 'only staff can grant tiers' using errcode = '42501';
  end if;
  v_reason := private.checked_reason(reason);
  if target_user is null or new_tier is null then
    raise exception 'target_user and new_tier are required' using errcode = '22004';
  end if;
  if not exists (select 1 from auth.users u where u.id = target_user) then
    raise exception 'no such user' using errcode = '22023';
  end if;
  -- Replaces the active grant: the old one is closed without its own audit row (the new
  -- grant's row records the change), then the new one recomputes and audits.
  perform set_config('app.replacing_tier_grant', 'on', true);
  update public.tier_grants g
  set revoked_at = now(), revoked_by = (select auth.uid()), revoke_reason = left('Replaced: ' || v_reason, 500)
  where g.user_id = target_user and g.revoked_at is null;
  perform set_config('app.replacing_tier_grant', '', true);
  insert into public.tier_grants (user_id, tier, reason, granted_by)
  values (target_user, new_tier, v_reason, (select auth.uid()));
end
$$;

comment on function private.grant_tier(uuid, public.tier, text) is
  'Staff only (else 42501): replaces the user''s active staff grant; reason required (22023). Called by public.grant_tier().';
revoke execute on function private.grant_tier(uuid, public.tier, text) from public, anon, authenticated, service_role;
grant execute on function private.grant_tier(uuid, public.tier, text) to authenticated;

create function public.grant_tier(target_user uuid, new_tier public.tier, reason text)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  perform private.grant_tier(target_user, new_tier, reason);
end
$$;

comment on function public.grant_tier(uuid, public.tier, text) is
  'Staff only (else 42501): grants a tier with a required reason (22023), replacing the user''s active grant; the tier becomes the highest of grant and purchases; audited. Security invoker over private.grant_tier().';
revoke execute on function public.grant_tier(uuid, public.tier, text) from public, anon, authenticated, service_role;
grant execute on function public.grant_tier(uuid, public.tier, text) to authenticated;

create function private.revoke_tier(target_user uuid, reason text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_reason text;
begin
  if not private.is_staff() then
    raise exception 'only staff can revoke tiers' using errcode = '42501';
  end if;
  v_reason := private.checked_reason(reason);
  if target_user is null then
    raise exception 'target_user is required' using errcode = '22004';
  end if;
  update public.tier_grants g
  set revoked_at = now(), revoked_by = (select auth.uid()), revoke_reason = v_reason
  where g.user_id = target_user and g.revoked_at is null;
  if not found then
    raise exception 'this member has no active staff grant (a purchased tier ends only with a refund)'
      using errcode = 'P0002';
  end if;
end
$$;

comment on function private.revoke_tier(uuid, text) is
  'Staff only (else 42501): revokes the user''s active staff grant (P0002 when none); reason required (22023). Called by public.revoke_tier().';
revoke execute on function private.revoke_tier(uuid, text) from public, anon, authenticated, service_role;
grant execute on function private.revoke_tier(uuid, text) to authenticated;

create function public.revoke_tier(target_user uuid, reason text)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  perform private.revoke_tier(target_user, reason);
end
$$;

comment on function public.revoke_tier(uuid, text) is
  'Staff only (else 42501): revokes the user''s active staff grant with a required reason; the tier falls back to their purchases; audited. Security invoker over private.revoke_tier().';
revoke execute on function public.revoke_tier(uuid, text) from public, anon, authenticated, service_role;
grant execute on function public.revoke_tier(uuid, text) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Staff members page

/** Where a user's current tier comes from: 'purchase' (wins a tie), 'staff', or null. */
create function private.tier_source_of(p_user uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when t.tier is null then null
    when exists (select 1 from public.purchases p where p.user_id = p_user and p.status = 'paid' and p.tier = t.tier)
      then 'purchase'
    when exists (select 1 from public.tier_grants g where g.user_id = p_user and g.revoked_at is null and g.tier = t.tier)
      then 'staff'
  end
  from (select (select ut.tier from public.user_tiers ut where ut.user_id = p_user) as tier) t
$$;

comment on function private.tier_source_of(uuid) is
  'purchase when a paid attached purchase gives the user''s tier (preferred on a tie), staff when their active grant does, else null.';
revoke execute on function private.tier_source_of(uuid) from public, anon, authenticated, service_role;

create function private.staff_list_members(search text, page_size integer, page_offset integer)
returns table (
  user_id uuid, email text, tier public.tier, tier_source text, purchase_count integer,
  created_at timestamptz, last_sign_in_at timestamptz, total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can list members' using errcode = '42501';
  end if;
  if page_size is null or page_size < 1 or page_size > 1000 then
    raise exception 'page_size must be between 1 and 1000' using errcode = '22023';
  end if;
  if page_offset is null or page_offset < 0 then
    raise exception 'page_offset must not be negative' using errcode = '22023';
  end if;
  return query
    select
      u.id,
      u.email::text,
      ut.tier,
      private.tier_source_of(u.id),
      (select count(*)::integer from public.purchases p where p.user_id = u.id),
      u.created_at,
      u.last_sign_in_at,
      count(*) over ()
    from auth.users u
    left join public.user_tiers ut on ut.user_id = u.id
    where position(lower(coalesce(search, '')) in lower(coalesce(u.email, ''))) > 0
    order by lower(u.email), u.id
    limit page_size offset page_offset;
end
$$;

comment on function private.staff_list_members(text, integer, integer) is
  'Staff only (else 42501): members whose e-mail contains search (case-insensitive), by e-mail, paged, with total_count. Called by public.staff_list_members().';
revoke execute on function private.staff_list_members(text, integer, integer) from public, anon, authenticated, service_role;
grant execute on function private.staff_list_members(text, integer, integer) to authenticated;

create function public.staff_list_members(search text default '', page_size integer default 25, page_offset integer default 0)
returns table (
  user_id uuid, email text, tier public.tier, tier_source text, purchase_count integer,
  created_at timestamptz, last_sign_in_at timestamptz, total_count bigint
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.staff_list_members(search, page_size, page_offset)
$$;

comment on function public.staff_list_members(text, integer, integer) is
  'Staff only (else 42501): one page (page_size 1..1000) of members whose e-mail contains search, case-insensitive, ordered by e-mail; total_count on every row. Security invoker over private.staff_list_members().';
revoke execute on function public.staff_list_members(text, integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.staff_list_members(text, integer, integer) to authenticated;

create function private.staff_member_detail(target_user uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_email text;
  v_tier public.tier;
  v_source text;
  v_source_json jsonb;
begin
  if not private.is_staff() then
    raise exception 'only staff can read member details' using errcode = '42501';
  end if;
  select u.email into v_email from auth.users u where u.id = target_user;
  if not found then
    return null;
  end if;
  select ut.tier into v_tier from public.user_tiers ut where ut.user_id = target_user;
  v_source := private.tier_source_of(target_user);

  if v_source = 'purchase' then
    select jsonb_build_object('kind', 'purchase', 'purchase_id', p.id, 'provider', p.provider,
                              'order_id', p.order_id, 'product', p.product)
    into v_source_json
    from public.purchases p
    where p.user_id = target_user and p.status = 'paid' and p.tier = v_tier
    order by p.created_at desc limit 1;
  elsif v_source = 'staff' then
    select jsonb_build_object('kind', 'staff', 'grant_id', g.id, 'granted_by_email', gu.email,
                              'reason', g.reason, 'granted_at', g.granted_at)
    into v_source_json
    from public.tier_grants g left join auth.users gu on gu.id = g.granted_by
    where g.user_id = target_user and g.revoked_at is null;
  end if;

  return jsonb_build_object(
    'user_id', target_user,
    'email', v_email,
    'tier', v_tier,
    'tier_source', v_source_json,
    'purchases', coalesce((
      select jsonb_agg(jsonb_build_object(
        'id', p.id, 'provider', p.provider, 'order_id', p.order_id, 'product', p.product, 'tier', p.tier,
        'amount_cents', p.amount_cents, 'currency', p.currency, 'status', p.status,
        'created_at', p.created_at, 'refunded_at', p.refunded_at
      ) order by p.created_at desc, p.id)
      from public.purchases p where p.user_id = target_user), '[]'::jsonb),
    'grants', coalesce((
      select jsonb_agg(jsonb_build_object(
        'id', g.id, 'tier', g.tier, 'reason', g.reason, 'granted_by_email', gu.email, 'granted_at', g.granted_at,
        'revoked_at', g.revoked_at, 'revoked_by_email', ru.email, 'revoke_reason', g.revoke_reason
      ) order by g.granted_at desc, g.id)
      from public.tier_grants g
      left join auth.users gu on gu.id = g.granted_by
      left join auth.users ru on ru.id = g.revoked_by
      where g.user_id = target_user), '[]'::jsonb),
    'audit', coalesce((
      select jsonb_agg(jsonb_build_object(
        'changed_at', a.changed_at, 'old_tier', a.old_tier, 'new_tier', a.new_tier, 'source', a.source,
        'reason', a.reason, 'changed_by_email', cu.email
      ) order by a.changed_at desc, a.id desc)
      from public.tier_audit a left join auth.users cu on cu.id = a.changed_by
      where a.target_user = staff_member_detail.target_user), '[]'::jsonb)
  );
end
$$;

comment on function private.staff_member_detail(uuid) is
  'Staff only (else 42501): a member''s e-mail, tier and its source, purchases, grants and tier audit (null for an unknown user). Called by public.staff_member_detail().';
revoke execute on function private.staff_member_detail(uuid) from public, anon, authenticated, service_role;
grant execute on function private.staff_member_detail(uuid) to authenticated;

create function public.staff_member_detail(target_user uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.staff_member_detail(target_user)
$$;

comment on function public.staff_member_detail(uuid) is
  'Staff only (else 42501): a member''s tier, where it came from, purchases, grants and audit, as jsonb. Security invoker over private.staff_member_detail().';
revoke execute on function public.staff_member_detail(uuid) from public, anon, authenticated, service_role;
grant execute on function public.staff_member_detail(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Existing tiers become staff grants, so the rule above reproduces them (the owner set them
-- by hand before there was a ledger). Then every user's tier follows the rule.

insert into public.tier_grants (user_id, tier, reason, granted_by)
select t.user_id, t.tier, 'Tier held before the purchases ledger (migration 20261124000100)', null
from public.user_tiers t
where t.tier is not null;

-- Realtime: /resources follows the user's own row (inserts and updates only, see 20261123000300).
alter publication supabase_realtime add table public.user_tiers;
