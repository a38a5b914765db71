-- Baseline: the whole schema of "Yes, You Can!", each object created once (issue 21, item 4).
--
-- Before the first deploy, the fifteen migrations of 22-25 November 2026 were squashed into
-- this one file: they repeated themselves (object_fits_bucket was defined three times, policies
-- were created and then altered, set_user_tier was added and later dropped, a global default
-- privilege was set and then undone). Their history, with the reason for every rule, stays in
-- git: `git log --follow -- supabase/migrations/<old file>` or `git show <commit of this
-- file>^:supabase/migrations`. `node scripts/schema-facts.mjs --old <that commit>` rebuilds
-- both on PostgreSQL 17 and shows that the squash changed no catalog fact (docs/database.md).
--
-- Nothing had been pushed to a hosted project, so no database ever recorded the old versions.
-- From here on the baseline is never edited: every later change is a new migration with a
-- later version (supabase/migrations/<yyyymmddhhmmss>_<name>.sql).
--
-- Hosted Supabase runs migrations as `postgres`, which owns public and private but not
-- auth.users or storage.objects. Statements that need ownership of those (comments on their
-- triggers and policies) sit in do-blocks that skip them on insufficient_privilege rather than
-- roll back the whole file. The rest runs unchanged on hosted projects (`supabase db push`),
-- `supabase start` / `supabase db reset`, the local stand-in (PGlite) and the database tests
-- (PostgreSQL 17), each over the platform's own schemas (supabase/local/bootstrap.sql here).
--
-- Contents: 1 default privileges, 2 schema private, 3 tiers, 4 staff, 5 profiles, 6 user
-- tiers and their audit, 7 the purchases ledger's tables, 8 the tier rule, 9 webhook RPCs,
-- 10 staff RPCs, 11 storage, 12 passwords set before an address is proven, 13 realtime.

-- =============================================================================================
-- 1. Default privileges
--
-- The platform grants anon and authenticated everything on each new table, sequence and
-- function in public. Taking that back for the migration role (postgres) means a later
-- migration that forgets a revoke exposes nothing; service_role keeps its defaults. PUBLIC's
-- EXECUTE on new functions is PostgreSQL's global default and stays: it cannot be taken away
-- per schema, and taking it away everywhere closed pgTAP and every extension enabled later
-- (issue 21). Instead each function below states who may execute it, and the database tests
-- (supabase/tests/database/privileges.test.sql, supabase/tests/schema-guards.test.ts) fail
-- when a function of ours is executable by anon or authenticated off their allow-list.

alter default privileges for role postgres in schema public revoke all on tables from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on sequences from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on functions from anon, authenticated;

-- supabase_admin holds the same platform defaults on hosted projects, but the migration role
-- may not be allowed to change another role's defaults: skip rather than fail a db push.
do $$ begin
  alter default privileges for role supabase_admin in schema public revoke all on tables from anon, authenticated;
  alter default privileges for role supabase_admin in schema public revoke all on sequences from anon, authenticated;
  alter default privileges for role supabase_admin in schema public revoke all on functions from anon, authenticated;
exception when insufficient_privilege or undefined_object then
  raise notice 'default privileges of supabase_admin left as they are: %', sqlerrm;
end $$;

-- =============================================================================================
-- 2. Schema private
--
-- Security definer helpers live here, not in public: the API does not expose this schema
-- (config.toml [api] schemas), so the database linter's lints 0028 / 0029 (definer functions
-- callable through the API) cannot fire. The app's RPCs stay in public as security invoker
-- wrappers over these.

create schema if not exists private;
comment on schema private is
  'Helpers for policies and triggers. Not exposed by the API (not in config.toml [api] schemas).';
revoke all on schema private from public;
-- Policies run as the caller, so the API roles need to reach the helpers they call.
grant usage on schema private to anon, authenticated, service_role;

-- =============================================================================================
-- 3. Tiers and their order
--
-- The same order lives in src/content/tiers.ts; the database tests check that the two agree.

/** The four subscription tiers, lowest first (enum order = rank order). */
create type public.tier as enum ('ebook', 'foundation', 'accelerated', 'complete');

comment on type public.tier is 'Subscription tier, lowest to highest: ebook, foundation, accelerated, complete.';

/**
 * tier_rank(text): ebook 0, foundation 1, accelerated 2, complete 3; null for null or any
 * other text, so a policy comparing ranks refuses unknown tiers (e.g. a bogus folder name).
 * Harmless, and called by the storage policies, which run as the caller.
 */
create function public.tier_rank(tier text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case tier
    when 'ebook' then 0
    when 'foundation' then 1
    when 'accelerated' then 2
    when 'complete' then 3
  end
$$;

comment on function public.tier_rank(text) is
  'Rank of a tier name: ebook 0, foundation 1, accelerated 2, complete 3; null when unknown.';
revoke execute on function public.tier_rank(text) from public, anon, authenticated, service_role;
grant execute on function public.tier_rank(text) to anon, authenticated, service_role;

-- =============================================================================================
-- 4. Staff
--
-- The server-side notion of who may manage tiers and paid files. Membership lives in a table
-- no API role can touch, never in user_metadata (which every user can edit). The owner makes
-- someone staff with one line, in the SQL editor or `psql` as postgres:
--   insert into public.staff (user_id) select id from auth.users where email = 'someone@example.com';

/** One row per staff member. No client privileges at all: only postgres / service_role write it. */
create table public.staff (
  user_id uuid primary key references auth.users (id) on delete cascade,
  note text check (char_length(note) <= 200),
  created_at timestamptz not null default now()
);

comment on table public.staff is
  'Users who may manage tiers and upload paid resources. Written only by the owner (postgres / service_role); no API role can read or write it.';
comment on column public.staff.note is 'Free text for the owner (who this is, since when), at most 200 characters.';

alter table public.staff enable row level security;

-- The platform's default grants are revoked above; restated so the table's privileges read here.
revoke all on table public.staff from public, anon, authenticated;
grant all on table public.staff to service_role;

/**
 * Lint 0008 (RLS enabled, no policy) would say nothing about intent. A restrictive policy that
 * is always false keeps denying the API roles even if a later migration grants them the table
 * and adds a permissive policy.
 */
create policy "No API access to staff"
  on public.staff
  as restrictive
  for all
  to anon, authenticated
  using (false)
  with check (false);
comment on policy "No API access to staff" on public.staff is
  'Deny-all for anon and authenticated: staff membership is read only through is_staff().';

/**
 * Whether the calling user is staff. Security definer: callers cannot read public.staff; it
 * reveals only their own membership, and false to anonymous callers. Every policy and staff
 * RPC asks this one.
 */
create function private.is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.staff s where s.user_id = (select auth.uid())
  )
$$;

comment on function private.is_staff() is
  'True when the calling user (auth.uid()) is staff. Called by policies and public.is_staff().';
revoke execute on function private.is_staff() from public, anon, authenticated, service_role;
grant execute on function private.is_staff() to anon, authenticated, service_role;

/**
 * The app's rpc('is_staff'). Security invoker: it runs with the caller's rights and asks
 * private.is_staff(), so nothing in an exposed schema runs with its owner's rights.
 */
create function public.is_staff()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select private.is_staff()
$$;

comment on function public.is_staff() is
  'True when the calling user (auth.uid()) is staff; the app calls it (rpc is_staff). Security invoker over private.is_staff().';
revoke execute on function public.is_staff() from public, anon, authenticated, service_role;
grant execute on function public.is_staff() to anon, authenticated, service_role;

-- =============================================================================================
-- 5. Profiles
--
-- A display name and avatar per user. id is the user id (check user_id = id), so the app
-- selects and updates "where user_id = me". The database owns the row: a trigger on
-- auth.users creates one for every new user (Supabase's documented handle_new_user pattern)
-- and users only ever update it, so the client never needs "insert, or on a race update".

/** One profile per user, created by the database, updated by its owner, never deleted from the client. */
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  user_id uuid not null unique references auth.users (id) on delete cascade,
  display_name text check (char_length(display_name) <= 80),
  avatar_url text check (char_length(avatar_url) <= 2048 and avatar_url ~ '^https?://'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profiles_id_is_user_id check (user_id = id)
);

comment on table public.profiles is
  'Display name and avatar URL of a user. id = user_id = auth.users.id. Created for every user by the on_auth_user_created trigger; the owner selects it and updates display_name / avatar_url; nobody inserts or deletes from the client.';
comment on column public.profiles.display_name is 'Shown in the profile menu; null shows "No name set". At most 80 characters.';
comment on column public.profiles.avatar_url is 'Public URL of {user id}/avatar.{ext} in the avatars bucket (http(s) only).';
comment on constraint profiles_id_is_user_id on public.profiles is
  'id and user_id are both the auth user id: the app filters on user_id, the primary key is id.';

alter table public.profiles enable row level security;

-- Read, and update the content columns: no insert (the trigger below creates the row), no
-- delete, no update of id / user_id / timestamps (so supabase-js upsert, which rewrites every
-- sent column, is refused).
revoke all on table public.profiles from public, anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (display_name, avatar_url) on table public.profiles to authenticated;
grant all on table public.profiles to service_role;

/** Users can read their own profile (the realtime subscription relies on this too). */
create policy "Users can read their own profile"
  on public.profiles for select
  to authenticated
  using (user_id = (select auth.uid()));
comment on policy "Users can read their own profile" on public.profiles is
  'A signed-in user selects only the row whose user_id is theirs.';

/** Users can update their own profile and cannot hand it to someone else. */
create policy "Users can update their own profile"
  on public.profiles for update
  to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
comment on policy "Users can update their own profile" on public.profiles is
  'A signed-in user updates only their own row (column grants limit it to display_name and avatar_url).';

/**
 * Keeps id, user_id and created_at fixed and stamps updated_at, whoever updates the row
 * (belt and braces behind the column grants, also for service_role scripts).
 */
create function public.profiles_before_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.id is distinct from old.id or new.user_id is distinct from old.user_id then
    raise exception 'profiles.id and profiles.user_id cannot change' using errcode = '42501';
  end if;
  new.created_at := old.created_at;
  new.updated_at := now();
  return new;
end
$$;

comment on function public.profiles_before_update() is
  'Trigger: refuses changes to profiles.id / user_id, keeps created_at, stamps updated_at.';
-- A trigger function needs no EXECUTE to fire. service_role keeps the grant the platform's
-- defaults in public give it (it cannot call a trigger function anyway).
revoke execute on function public.profiles_before_update() from public, anon, authenticated, service_role;
grant execute on function public.profiles_before_update() to service_role;

create trigger profiles_before_update
  before update on public.profiles
  for each row execute function public.profiles_before_update();
comment on trigger profiles_before_update on public.profiles is
  'Refuses id / user_id changes, keeps created_at, stamps updated_at (public.profiles_before_update).';

/**
 * Trigger: creates the profile row (id = user_id = the new user's id, no name, no avatar) for
 * each new auth.users row. Security definer, owned by the migration role (which owns
 * public.profiles), because the auth server inserts users as a role with no privilege on
 * public tables.
 */
create function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, user_id) values (new.id, new.id);
  return new;
end
$$;

comment on function public.handle_new_user() is
  'Trigger on auth.users: inserts the new user''s profile row (id = user_id = auth.users.id).';
-- A trigger function needs no execute grant to fire; nobody calls it directly.
revoke execute on function public.handle_new_user() from public, anon, authenticated, service_role;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- Commenting on a trigger needs ownership of auth.users, which the migration role has locally
-- but may not have on a hosted project: skip the comment there rather than fail the migration.
do $$ begin
  comment on trigger on_auth_user_created on auth.users is
    'Creates public.profiles row for each new user (public.handle_new_user).';
exception when insufficient_privilege then null;
end $$;

-- Users who signed up before this migration ran (a hosted project's auth works before the
-- first db push) get their empty profile row too.
insert into public.profiles (id, user_id)
select u.id, u.id from auth.users u
on conflict do nothing;

-- =============================================================================================
-- 6. User tiers and the tier audit
--
-- Which tier a user holds. Users read their own row; nobody writes it from the client: the
-- database derives it from purchases and staff grants (sections 7 and 8) and audits every
-- change.

/**
 * One row per user who ever held a tier; tier is null once they hold none. The row is kept,
 * not deleted: Realtime publishes inserts and updates only (section 13), so a delete would
 * never reach an open /resources page.
 */
create table public.user_tiers (
  user_id uuid primary key references auth.users (id) on delete cascade,
  tier public.tier,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.user_tiers is
  'The tier a user holds (at most one row per user; tier null = none any more). Readable by its owner, published to Realtime; derived by the database from purchases and tier_grants; audited in tier_audit.';
comment on column public.user_tiers.tier is
  'The highest of the user''s paid, attached purchases and active staff grant; null when they hold none. Derived by the database (private.recompute_user_tier), never written by the client.';

alter table public.user_tiers enable row level security;

-- No insert / update / delete for anon or authenticated, whatever the policies say.
revoke all on table public.user_tiers from public, anon, authenticated;
grant select on table public.user_tiers to authenticated;
grant all on table public.user_tiers to service_role;

/** Users can read their own tier (the realtime subscription of /resources relies on this too). */
create policy "Users can read their own tier"
  on public.user_tiers for select
  to authenticated
  using (user_id = (select auth.uid()));
comment on policy "Users can read their own tier" on public.user_tiers is
  'A signed-in user selects only the row whose user_id is theirs.';

/** Every change of any user's tier, whoever made it, and every staff grant or revoke. */
create table public.tier_audit (
  id bigint generated always as identity primary key,
  target_user uuid not null,
  old_tier public.tier,
  new_tier public.tier,
  changed_by uuid,
  changed_by_role text not null,
  changed_at timestamptz not null default now(),
  reason text check (char_length(reason) <= 1000),
  source text not null default 'system'
    check (source in ('purchase', 'refund', 'staff_grant', 'staff_revoke', 'account_confirmed', 'system'))
);

comment on table public.tier_audit is
  'Append-only log of tier changes: who (auth.uid(), null for SQL / service_role), whose, from and to, why. anon and authenticated can neither read nor write it; service_role only reads it; only the audit triggers write it. Kept when a user is deleted.';
comment on column public.tier_audit.target_user is 'The user whose tier changed (no foreign key: the log outlives the account).';
comment on column public.tier_audit.changed_by is 'auth.uid() of the caller (the staff member for grants and revokes); null from SQL and service_role.';
comment on column public.tier_audit.changed_by_role is 'auth.role() of the caller, or the session user for SQL.';
comment on column public.tier_audit.reason is 'Why: the staff member''s reason, or the order a purchase / refund came from.';
comment on column public.tier_audit.source is
  'What changed the tier: purchase, refund, staff_grant, staff_revoke, account_confirmed, or system (a direct write by SQL / service_role).';

alter table public.tier_audit enable row level security;
revoke all on table public.tier_audit from public, anon, authenticated;
-- service_role reads the log (the e2e suite does) and never writes it: only the audit triggers,
-- which run as their owner, do. Listing the write privileges (not `revoke all` + `grant
-- select`) leaves what else the platform's defaults give it, as before the squash.
revoke insert, update, delete, truncate, references, trigger on table public.tier_audit from service_role;
grant select on table public.tier_audit to service_role;
-- The identity sequence got the default grants too (usage, select, update: nextval / setval).
-- Only the definer triggers insert audit rows, so no API role needs it.
revoke all on sequence public.tier_audit_id_seq from public, anon, authenticated, service_role;

/** Deny-all for the API roles (lint 0008), as on staff. */
create policy "No API access to the tier audit"
  on public.tier_audit
  as restrictive
  for all
  to anon, authenticated
  using (false)
  with check (false);
comment on policy "No API access to the tier audit" on public.tier_audit is
  'Deny-all for anon and authenticated: the log is written by the audit trigger and read by service_role / SQL.';

/**
 * Writes one tier_audit row per insert / update / delete on user_tiers, with the source and
 * reason that private.recompute_user_tier() sets for the transaction ('system' for a direct
 * write). Security definer so the row is written whoever changes the tier.
 */
create function public.audit_user_tier_change()
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
-- Trigger function: service_role keeps the platform default's grant, nobody else has one.
revoke execute on function public.audit_user_tier_change() from public, anon, authenticated, service_role;
grant execute on function public.audit_user_tier_change() to service_role;

create trigger user_tiers_audit
  after insert or update or delete on public.user_tiers
  for each row execute function public.audit_user_tier_change();
comment on trigger user_tiers_audit on public.user_tiers is
  'Writes a tier_audit row for every insert, update and delete (public.audit_user_tier_change).';

/** Stamps updated_at and keeps created_at on every update. */
create function public.user_tiers_before_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.created_at := old.created_at;
  new.updated_at := now();
  return new;
end
$$;

comment on function public.user_tiers_before_update() is 'Trigger: stamps user_tiers.updated_at.';
revoke execute on function public.user_tiers_before_update() from public, anon, authenticated, service_role;
grant execute on function public.user_tiers_before_update() to service_role;

create trigger user_tiers_before_update
  before update on public.user_tiers
  for each row execute function public.user_tiers_before_update();
comment on trigger user_tiers_before_update on public.user_tiers is
  'Keeps created_at, stamps updated_at (public.user_tiers_before_update).';

/**
 * The tier rank of the calling user, or null without a tier. Security invoker: it reads
 * user_tiers through the caller's own select policy. The resources storage policy calls it.
 */
create function public.current_tier_rank()
returns integer
language sql
stable
set search_path = ''
as $$
  select public.tier_rank(t.tier::text)
  from public.user_tiers t
  where t.user_id = (select auth.uid())
$$;

comment on function public.current_tier_rank() is
  'Rank (0..3) of the calling user''s tier, null without one. Used by the resources storage policy.';
revoke execute on function public.current_tier_rank() from public, anon, authenticated, service_role;
grant execute on function public.current_tier_rank() to authenticated, service_role;

-- =============================================================================================
-- 7. The purchases ledger: purchases, webhook events, staff grants
--
-- A user's tier is never set by hand: it is derived by the database from what the user holds,
-- and recomputed on every change (section 8):
--
--   tier = the highest of (their paid purchases attached to their account, their active staff grant)
--
-- A purchase attaches to an account (user_id) only once an account with the buyer's e-mail is
-- *confirmed*, so nobody can take a purchase by signing up first with someone else's address.
-- Production must keep e-mail confirmation on (docs/database.md).

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
comment on column public.purchases.tier is 'The tier the sale grants (the webhook maps products to tiers with src/content/products.ts).';
comment on column public.purchases.amount_cents is 'Amount paid in minor units of currency.';
comment on column public.purchases.currency is 'ISO 4217 code, upper case.';
comment on column public.purchases.status is 'paid, or refunded (then refunded_at is set and the purchase grants nothing).';
comment on column public.purchases.user_id is
  'The account the purchase belongs to: set only once an account with this e-mail is confirmed.';
comment on column public.purchases.refunded_at is 'When the refund happened (null while paid).';
comment on constraint purchases_provider_order_key on public.purchases is
  'One row per order: a second sale event for the same order records nothing.';

-- The purchases of a user (RLS, the staff pages) and the unattached ones of an e-mail (the
-- attach-on-confirmation trigger).
create index purchases_user_id_idx on public.purchases (user_id);
comment on index public.purchases_user_id_idx is 'A user''s purchases: their select policy, the tier rule, the staff pages.';
create index purchases_unattached_email_idx on public.purchases (email) where user_id is null;
comment on index public.purchases_unattached_email_idx is
  'Purchases waiting for a confirmed account with their e-mail (private.attach_purchases_of_confirmed_email).';

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

/** Restrictive: keeps client writes out even if a later grant allowed them; reads are left to the policy above. */
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
comment on column public.webhook_events.occurred_at is 'When the provider says the event happened (null: not given; received_at stands in).';
comment on constraint webhook_events_provider_event_key on public.webhook_events is
  'A replayed event (same provider and event id) is recorded once and changes nothing.';

-- Refunds of an order, looked up when its sale arrives after them.
create index webhook_events_order_idx on public.webhook_events (provider, order_id) where kind = 'refund';
comment on index public.webhook_events_order_idx is
  'Refund events of an order: a sale arriving after its refund is recorded as refunded.';

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
comment on column public.tier_grants.reason is 'Why staff granted it (required, 1..500 characters after trimming).';
comment on column public.tier_grants.granted_by is 'The staff member (null: SQL / service_role, e.g. seed data).';
comment on column public.tier_grants.revoked_at is 'When the grant ended (null: active).';
comment on constraint tier_grants_revoked_with_reason on public.tier_grants is
  'A grant is revoked with a reason, and only a revoked grant has one.';

create unique index tier_grants_one_active_per_user on public.tier_grants (user_id) where revoked_at is null;
comment on index public.tier_grants_one_active_per_user is
  'At most one active staff grant per user (grant_tier closes the old one first).';

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

-- =============================================================================================
-- 8. The tier rule

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
comment on trigger purchases_recompute_tier on public.purchases is
  'Recomputes the tier of the purchase''s user(s) (private.purchases_after_change).';

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
comment on trigger purchases_before_update on public.purchases is
  'Keeps id, provider, order_id and created_at, stamps updated_at (private.purchases_before_update).';

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
comment on trigger tier_grants_recompute_tier on public.tier_grants is
  'Recomputes and audits the grant''s user''s tier (private.tier_grants_after_change).';

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

-- =============================================================================================
-- 9. Webhook RPCs (service_role only)

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

/** Records a sale once per event id and once per order (definer: writes the ledger). */
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
  from public, anon, authenticated, service_role;
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
  from public, anon, authenticated, service_role;
grant execute on function public.record_purchase(text, text, text, text, text, public.tier, bigint, text, timestamptz)
  to service_role;

/** Marks an order refunded once per event id, or remembers the refund for a sale still to come. */
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
revoke execute on function private.record_refund(text, text, text, timestamptz) from public, anon, authenticated, service_role;
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
revoke execute on function public.record_refund(text, text, text, timestamptz) from public, anon, authenticated, service_role;
grant execute on function public.record_refund(text, text, text, timestamptz) to service_role;

-- =============================================================================================
-- 10. Staff RPCs: grant and revoke a tier, the members list and a member's detail
--
-- Each public function is a security invoker wrapper that the app calls; its private definer
-- version refuses anyone but staff (42501) before it reads or writes. They stay callable by
-- authenticated on purpose (docs/database.md, "Database linter").

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

/** Staff only: replaces the user's active grant with a new one (definer: writes tier_grants). */
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

/** The app's rpc('grant_tier'). */
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

/** Staff only: ends the user's active grant (a purchased tier ends only with a refund). */
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

/** The app's rpc('revoke_tier'). */
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

/** Staff only: one page of members by e-mail (definer: reads auth.users). */
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

/** The app's rpc('staff_list_members'). */
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

/** Staff only: a member's tier and its source, purchases, grants and audit (definer: reads auth.users). */
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

/** The app's rpc('staff_member_detail'). */
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

-- =============================================================================================
-- 11. Storage: the avatars and resources buckets
--
-- The storage server enforces a bucket's file_size_limit and allowed_mime_types itself on its
-- upload routes (hosted, `supabase start` and the local stand-in). The policies refuse the
-- same things again from the object's metadata, reading the limits from the bucket row, so a
-- write that bypasses those routes (copy, move) still cannot store an SVG avatar or a huge
-- file. The buckets are declared here for hosted projects (`db push`) and in config.toml for
-- `supabase start`; a test keeps the two equal.
--
-- The storage.objects policy comments sit in do-blocks that let insufficient_privilege pass:
-- storage.objects belongs to supabase_storage_admin, and some hosted images refuse COMMENT ON
-- POLICY to the migration role ("must be owner of relation objects"), which would roll back
-- the whole file.

/** Avatars: public (public URLs need no select policy), images only (no SVG, which can carry script), 2 MB. */
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 2097152, array['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

/** Resources: private, the paid files, 200 MB; objects are {tier}/{card slug}/{file}. */
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values (
  'resources', 'resources', false, 209715200,
  array['application/pdf', 'application/epub+zip', 'application/x-mobipocket-ebook', 'audio/mpeg']
)
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

/**
 * Storage policy helper: false when metadata names a mimetype the bucket does not allow, or a
 * size (contentLength, which hosted Storage tests an upload with, or size, which a copy's
 * source metadata has) that is not a number or is above the bucket's limit. Missing keys pass
 * (the storage server checks them itself on its upload routes). Security definer because API
 * roles cannot read storage.buckets; it only reveals the bucket's public limits.
 */
create function private.object_fits_bucket(bucket text, metadata jsonb)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select
      (
        metadata is null
        or metadata ->> 'mimetype' is null
        or b.allowed_mime_types is null
        or exists (
          select 1
          from unnest(b.allowed_mime_types) as allowed(mime)
          where lower(btrim(split_part(metadata ->> 'mimetype', ';', 1)))
                like replace(lower(allowed.mime), '*', '%')
        )
      )
      and (
        metadata is null
        or not exists (
          select 1
          from unnest(array['contentLength', 'size']) as k(key)
          where metadata -> k.key is not null
            and (
              jsonb_typeof(metadata -> k.key) <> 'number'
              or (b.file_size_limit is not null and (metadata ->> k.key)::numeric > b.file_size_limit)
            )
        )
      )
    from storage.buckets b
    where b.id = bucket
  ), false)
$$;

comment on function private.object_fits_bucket(text, jsonb) is
  'Storage policy helper: false when object metadata has a mimetype or size (contentLength / size) the bucket does not allow.';
revoke execute on function private.object_fits_bucket(text, jsonb) from public, anon, authenticated, service_role;
grant execute on function private.object_fits_bucket(text, jsonb) to authenticated, service_role;

/**
 * is_own_avatar_path(name): name is exactly {caller's user id}/avatar.{png|jpg|jpeg|webp|gif}
 * (extension in any case). Anything else, including '..' segments, extra folders or another
 * user's id, is false.
 */
create function public.is_own_avatar_path(name text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    storage.foldername(name) = array[(select auth.uid())::text]
    and lower(storage.filename(name)) in ('avatar.png', 'avatar.jpg', 'avatar.jpeg', 'avatar.webp', 'avatar.gif'),
    false
  )
$$;

comment on function public.is_own_avatar_path(text) is
  'Storage policy helper: true only for {auth.uid()}/avatar.{png|jpg|jpeg|webp|gif}.';
revoke execute on function public.is_own_avatar_path(text) from public, anon, authenticated, service_role;
grant execute on function public.is_own_avatar_path(text) to authenticated, service_role;

/**
 * resource_path_tier(name): the tier named by a well-formed resource object name, else null.
 * Well-formed: exactly three segments, a tier, a lowercase slug (a-z, 0-9, single hyphens),
 * and a file name that does not start with '.', has no control characters or backslashes,
 * ends in .pdf / .epub / .mobi / .mp3 and is at most 200 characters. So '..', empty
 * segments, extra folders and unknown tiers all give null.
 */
create function public.resource_path_tier(name text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when array_length(string_to_array(name, '/'), 1) = 3
      and public.tier_rank(split_part(name, '/', 1)) is not null
      and split_part(name, '/', 2) ~ '^[a-z0-9]+(-[a-z0-9]+)*$'
      and split_part(name, '/', 3) ~* '^[^./\\[:cntrl:]][^/\\[:cntrl:]]*\.(pdf|epub|mobi|mp3)$'
      and char_length(split_part(name, '/', 3)) <= 200
    then split_part(name, '/', 1)
  end
$$;

comment on function public.resource_path_tier(text) is
  'Storage policy helper: the tier of a well-formed {tier}/{slug}/{file.pdf|epub|mobi|mp3} name, else null.';
revoke execute on function public.resource_path_tier(text) from public, anon, authenticated, service_role;
grant execute on function public.resource_path_tier(text) to authenticated, service_role;

/**
 * Users can see the objects in their own avatar folder and nothing else: supabase-js upsert
 * needs it, and it keeps listing as narrow as possible. Public reads go through the public
 * URL, which needs no policy.
 */
create policy "Users can see their own avatar folder"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'avatars'
    and storage.foldername(name) = array[(select auth.uid())::text]
  );

/** Users can upload their own avatar: right path, image type, within the size limit. */
create policy "Users can upload their own avatar"
  on storage.objects for insert
  to authenticated
  with check (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
    and private.object_fits_bucket(bucket_id, metadata)
  );

/** Users can replace their own avatar, under the same rules as an upload. */
create policy "Users can replace their own avatar"
  on storage.objects for update
  to authenticated
  using (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
  )
  with check (
    bucket_id = 'avatars'
    and public.is_own_avatar_path(name)
    and private.object_fits_bucket(bucket_id, metadata)
  );

/** Users can delete their own avatar folder's objects. */
create policy "Users can delete their own avatar"
  on storage.objects for delete
  to authenticated
  using (
    bucket_id = 'avatars'
    and storage.foldername(name) = array[(select auth.uid())::text]
  );

/**
 * Writes (insert, update) into avatars only while Storage serves an upload route. Storage sets
 * the transaction-local storage.operation for every request (names from storage-api's
 * src/http/routes/operations.ts): a new upload or upsert (storage.object.upload), an overwrite
 * (storage.object.upload_update), and the signed-upload pair (storage.object.sign_upload_url,
 * storage.object.upload_signed). Copy and move skip the bucket's type and size limits, so they
 * are refused, as are TUS, S3 and direct PostgREST / SQL writes (no storage.operation).
 * Restrictive: it narrows the permissive avatar policies, it grants nothing.
 */
create policy "Avatar writes only through the upload routes"
  on storage.objects
  as restrictive
  for insert
  to public
  with check (
    bucket_id <> 'avatars'
    or current_setting('storage.operation', true) in (
      'storage.object.upload',
      'storage.object.upload_update',
      'storage.object.sign_upload_url',
      'storage.object.upload_signed'
    )
  );

/** The same guard for updates: an overwrite keeps working, a move into or out of avatars does not. */
create policy "Avatar updates only through the upload routes"
  on storage.objects
  as restrictive
  for update
  to public
  using (
    bucket_id <> 'avatars'
    or current_setting('storage.operation', true) in (
      'storage.object.upload',
      'storage.object.upload_update',
      'storage.object.sign_upload_url',
      'storage.object.upload_signed'
    )
  )
  with check (
    bucket_id <> 'avatars'
    or current_setting('storage.operation', true) in (
      'storage.object.upload',
      'storage.object.upload_update',
      'storage.object.sign_upload_url',
      'storage.object.upload_signed'
    )
  );

/**
 * Subscribers can read the resources of their tier and below (download, sign, list); staff
 * read everything in the bucket, including anything malformed left from before.
 */
create policy "Subscribers can read resources of their tier and below"
  on storage.objects for select
  to authenticated
  using (
    bucket_id = 'resources'
    and (
      public.tier_rank(public.resource_path_tier(name)) <= (select public.current_tier_rank())
      or (select private.is_staff())
    )
  );

/** Staff can upload resources to a well-formed path with an allowed type and size. */
create policy "Staff can upload resources"
  on storage.objects for insert
  to authenticated
  with check (
    bucket_id = 'resources'
    and (select private.is_staff())
    and public.resource_path_tier(name) is not null
    and private.object_fits_bucket(bucket_id, metadata)
  );

/** Staff can replace resources, under the same rules as an upload. */
create policy "Staff can replace resources"
  on storage.objects for update
  to authenticated
  using (
    bucket_id = 'resources'
    and (select private.is_staff())
  )
  with check (
    bucket_id = 'resources'
    and (select private.is_staff())
    and public.resource_path_tier(name) is not null
    and private.object_fits_bucket(bucket_id, metadata)
  );

/** Staff can delete resources. */
create policy "Staff can delete resources"
  on storage.objects for delete
  to authenticated
  using (
    bucket_id = 'resources'
    and (select private.is_staff())
  );

-- The storage policies' comments, in one block (see the note at the top of this section).
do $$ begin
  comment on policy "Users can see their own avatar folder" on storage.objects is
    'avatars: a signed-in user selects / lists only objects directly under {their user id}/.';
  comment on policy "Users can upload their own avatar" on storage.objects is
    'avatars: insert only {their user id}/avatar.{png|jpg|jpeg|webp|gif} with an allowed image type and size.';
  comment on policy "Users can replace their own avatar" on storage.objects is
    'avatars: update (overwrite) only their own avatar object, keeping the path and type rules.';
  comment on policy "Users can delete their own avatar" on storage.objects is
    'avatars: delete only objects directly under {their user id}/.';
  comment on policy "Avatar writes only through the upload routes" on storage.objects is
    'avatars (restrictive): insert only while storage.operation is an upload route, never copy or move.';
  comment on policy "Avatar updates only through the upload routes" on storage.objects is
    'avatars (restrictive): update only while storage.operation is an upload route, never copy or move.';
  comment on policy "Subscribers can read resources of their tier and below" on storage.objects is
    'resources: select when the caller''s tier rank >= the rank of the object''s tier folder, or the caller is staff.';
  comment on policy "Staff can upload resources" on storage.objects is
    'resources: only staff insert, only at {tier}/{slug}/{file.pdf|epub|mobi|mp3}, only allowed types and sizes.';
  comment on policy "Staff can replace resources" on storage.objects is
    'resources: only staff update (overwrite), keeping the path, type and size rules.';
  comment on policy "Staff can delete resources" on storage.objects is
    'resources: only staff delete.';
exception when insufficient_privilege then
  raise notice 'policy comments skipped: storage.objects belongs to the storage admin here';
end $$;

/**
 * Trigger on auth.users: deletes the deleted user's objects in the avatars bucket
 * ({user id}/...), so the public avatar URL stops serving them. Security definer (owner
 * postgres) because the auth server deletes users as a role with no storage privileges.
 * Storage blocks direct SQL deletes (storage.protect_delete) unless the transaction-local
 * storage.allow_delete_query is 'true', which is how the Storage API itself deletes rows;
 * it is set only around this delete. Storage keeps the file's bytes in its backend: the row
 * is what the API serves, so the file is unreachable from here on.
 */
create function private.delete_avatar_of_deleted_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous text := current_setting('storage.allow_delete_query', true);
begin
  perform set_config('storage.allow_delete_query', 'true', true);
  delete from storage.objects
  where bucket_id = 'avatars'
    and name like old.id::text || '/%';
  perform set_config('storage.allow_delete_query', coalesce(previous, ''), true);
  return old;
end
$$;

comment on function private.delete_avatar_of_deleted_user() is
  'Trigger on auth.users: deletes the user''s objects under {user id}/ in the avatars bucket.';
revoke execute on function private.delete_avatar_of_deleted_user() from public, anon, authenticated, service_role;

create trigger on_auth_user_deleted_remove_avatar
  after delete on auth.users
  for each row execute function private.delete_avatar_of_deleted_user();

do $$ begin
  comment on trigger on_auth_user_deleted_remove_avatar on auth.users is
    'Deletes the user''s avatar objects (private.delete_avatar_of_deleted_user).';
exception when insufficient_privilege then null;
end $$;

-- =============================================================================================
-- 12. A password set before an address is proven stops working when it is (issue 25)
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
-- was set before, by an earlier request, stops working: it is replaced by '' (GoTrue's
-- HasPassword() and Authenticate() treat '' as "no password", so password sign-in is refused),
-- and every session and refresh token of the user ends. The owner is signed in by the very
-- link that confirmed the address (GoTrue issues that session after the confirming update, in
-- the same transaction) and is asked to choose a password. A password set by the same
-- transaction that confirms is kept: GoTrue's sign-up with confirmations off, an admin creating
-- or confirming a user with a password, and the random password `signupVerify` gives an
-- invited user without one (docs/database.md).
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

-- =============================================================================================
-- 13. Realtime
--
-- The profile menu follows a rename or new avatar, and /resources follows the user's tier,
-- without a reload (postgres_changes). Realtime applies each table's select policy to every
-- subscriber, so a user receives only their own rows. Inserts and updates only: hosted
-- Realtime cannot ask RLS about a row that is gone, so it sends every subscriber the primary
-- key of each deleted row, and both tables' key is the user id.

alter publication supabase_realtime add table public.profiles, public.user_tiers;
alter publication supabase_realtime set (publish = 'insert, update');
