-- pgTAP: who may execute which function. No global default privilege closes new functions
-- (one would also close pgTAP and every extension enabled later); each function
-- of ours is closed in its migration, and this file is the guarantee: in every schema of
-- ours (anything but the platform's and extensions'), anon and authenticated may execute
-- exactly the functions on the allow-list below. The same list is in
-- supabase/tests/schema-guards.test.ts; keep the two equal.
-- Runs as `postgres`, in one transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(9);

-- Who may execute what (trigger functions are left out: nobody can call one directly).
create temporary table allowed (role text, fn text) on commit drop;
insert into allowed values
  -- Whether the caller is staff (false for anon), and the tier order.
  ('anon', 'private.is_staff()'),
  ('anon', 'public.is_staff()'),
  ('anon', 'public.tier_rank(text)'),
  -- The security invoker wrappers' private halves: they check staff themselves (42501).
  ('authenticated', 'private.checked_reason(text)'),
  ('authenticated', 'private.grant_tier(uuid,tier,text)'),
  -- Called by policies, which run as the caller.
  ('authenticated', 'private.is_staff()'),
  ('authenticated', 'private.object_fits_bucket(text,jsonb)'),
  ('authenticated', 'private.revoke_tier(uuid,text)'),
  ('authenticated', 'private.save_media_progress(text,double precision,double precision)'),
  ('authenticated', 'private.set_playback_rate(numeric)'),
  ('authenticated', 'private.member_coaching()'),
  ('authenticated', 'private.member_benefits()'),
  ('authenticated', 'private.member_live_sessions()'),
  ('authenticated', 'private.session_join_link(uuid)'),
  ('authenticated', 'private.staff_adjust_coaching(uuid,integer,text)'),
  ('authenticated', 'private.staff_assign_booking(uuid,uuid)'),
  ('authenticated', 'private.staff_cancel_live_session(uuid)'),
  ('authenticated', 'private.staff_change_benefit(uuid,text,text,integer,text)'),
  ('authenticated', 'private.staff_download_flags(integer,integer)'),
  ('authenticated', 'private.staff_export_members(text,text,uuid,integer)'),
  ('authenticated', 'private.staff_list_members(text,integer,integer)'),
  ('authenticated', 'private.staff_live_overview()'),
  ('authenticated', 'private.staff_mail_status()'),
  ('authenticated', 'private.staff_member_coaching(uuid)'),
  ('authenticated', 'private.staff_member_benefits(uuid)'),
  ('authenticated', 'private.staff_member_detail(uuid)'),
  ('authenticated', 'private.staff_save_booking_notes(uuid,text,text)'),
  ('authenticated', 'private.staff_save_coaching(tier,integer,integer,text)'),
  ('authenticated', 'private.staff_save_live_session(uuid,text,text,timestamp with time zone,integer,text,text,text)'),
  ('authenticated', 'private.staff_save_timed_benefit(text,integer,text)'),
  ('authenticated', 'private.staff_resend_invitation(text)'),
  ('authenticated', 'private.staff_catalog()'),
  ('authenticated', 'private.staff_dashboard()'),
  ('authenticated', 'private.staff_map_provider_id(text,text,tier)'),
  ('authenticated', 'private.staff_save_product(tier,jsonb)'),
  ('authenticated', 'private.staff_visits(integer)'),
  -- Policies (resources, avatars) and the app's RPCs.
  ('authenticated', 'public.current_tier_rank()'),
  ('authenticated', 'public.grant_tier(uuid,tier,text)'),
  ('authenticated', 'public.is_own_avatar_path(text)'),
  ('authenticated', 'public.is_staff()'),
  ('authenticated', 'public.media_finished(double precision,double precision)'),
  ('authenticated', 'public.member_coaching()'),
  ('authenticated', 'public.member_benefits()'),
  ('authenticated', 'public.member_live_sessions()'),
  ('authenticated', 'public.member_resources()'),
  ('authenticated', 'public.resource_path_tier(text)'),
  ('authenticated', 'public.revoke_tier(uuid,text)'),
  ('authenticated', 'public.save_media_progress(text,double precision,double precision)'),
  ('authenticated', 'public.set_playback_rate(numeric)'),
  ('authenticated', 'public.session_join_link(uuid)'),
  ('authenticated', 'public.staff_adjust_coaching(uuid,integer,text)'),
  ('authenticated', 'public.staff_assign_booking(uuid,uuid)'),
  ('authenticated', 'public.staff_cancel_live_session(uuid)'),
  ('authenticated', 'public.staff_change_benefit(uuid,text,text,integer,text)'),
  ('authenticated', 'public.staff_download_flags(integer,integer)'),
  ('authenticated', 'public.staff_download_totals()'),
  ('authenticated', 'public.staff_export_members(text,text,uuid,integer)'),
  ('authenticated', 'public.staff_list_members(text,integer,integer)'),
  ('authenticated', 'public.staff_live_overview()'),
  ('authenticated', 'public.staff_mail_status()'),
  ('authenticated', 'public.staff_member_coaching(uuid)'),
  ('authenticated', 'public.staff_member_benefits(uuid)'),
  ('authenticated', 'public.staff_member_detail(uuid)'),
  ('authenticated', 'public.staff_save_booking_notes(uuid,text,text)'),
  ('authenticated', 'public.staff_save_coaching(tier,integer,integer,text)'),
  ('authenticated', 'public.staff_save_live_session(uuid,text,text,timestamp with time zone,integer,text,text,text)'),
  ('authenticated', 'public.staff_save_timed_benefit(text,integer,text)'),
  ('authenticated', 'public.staff_resend_invitation(text)'),
  ('authenticated', 'public.staff_catalog()'),
  ('authenticated', 'public.staff_dashboard()'),
  ('authenticated', 'public.staff_map_provider_id(text,text,tier)'),
  ('authenticated', 'public.staff_save_product(tier,jsonb)'),
  ('authenticated', 'public.staff_visits(integer)'),
  ('authenticated', 'public.tier_rank(text)');

-- Functions anon or authenticated may execute, in every schema that is not the platform's.
create temporary view executable as
  select r.role, n.nspname || '.' || p.proname || '(' || replace(oidvectortypes(p.proargtypes), ', ', ',') || ')' as fn
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  cross join unnest(array['anon', 'authenticated']) as r(role)
  where n.nspname not in ('auth', 'storage', 'realtime', 'extensions', 'graphql', 'graphql_public', 'vault',
      'pgsodium', 'pgsodium_masks', 'net', 'cron', 'pgbouncer', 'supabase_functions', 'supabase_migrations',
      'information_schema')
    and n.nspname not like 'pg\_%'
    and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    and p.prorettype not in ('trigger'::regtype, 'event_trigger'::regtype)
    and has_function_privilege(r.role, p.oid, 'EXECUTE');

select is_empty(
  $$ select role, fn from executable except select role, fn from allowed $$,
  'no function of ours is executable by anon or authenticated without being on the allow-list');
select is_empty(
  $$ select role, fn from allowed except select role, fn from executable $$,
  'every function on the allow-list is executable by its role');

-- The check can fail: a function a migration forgets to close, in private or a new schema.
savepoint probe;
create schema probe_schema;
grant usage on schema probe_schema to anon, authenticated;
create function probe_schema.forgotten() returns int language sql set search_path = '' as 'select 1';
create function private.forgotten() returns int language sql set search_path = '' as 'select 1';
select set_eq(
  $$ select role, fn from executable except select role, fn from allowed $$,
  $$ values ('anon', 'private.forgotten()'), ('anon', 'probe_schema.forgotten()'),
            ('authenticated', 'private.forgotten()'), ('authenticated', 'probe_schema.forgotten()') $$,
  'the allow-list check catches a forgotten function (probe)');
rollback to savepoint probe;

-- Trigger functions are left out because nobody, not even their owner, can call one.
select throws_ok('select public.handle_new_user()', '0A000', null,
  'a trigger function cannot be called directly, even by its owner');

-- Enabling an extension (dashboard, SQL editor) creates functions as postgres in extensions
-- after all migrations: the API roles may call them, as PostgreSQL's defaults say.
create function extensions.probe_enabled_later() returns int language sql as 'select 42';
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select is(extensions.probe_enabled_later(), 42, 'authenticated may call a function created in extensions after the migrations');
-- pgTAP itself is such a function: this file and rls.test.sql call it as authenticated.
select ok(has_function_privilege('authenticated', 'extensions.ok(boolean,text)', 'EXECUTE'),
  'authenticated may call pgTAP, created after the migrations');
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select is(extensions.probe_enabled_later(), 42, 'anon may call it too');
reset role;

-- The global default that closed them is gone: a function postgres creates in a schema with
-- no defaults of its own is executable by PUBLIC, as PostgreSQL's own default says.
create schema probe_later;
create function probe_later.f() returns int language sql as 'select 1';
select ok(has_function_privilege('public', 'probe_later.f()', 'EXECUTE'),
  'PUBLIC may execute a function postgres creates later in a new schema');

-- The wrappers the app calls are still closed to the roles that must not call them.
select ok(
  not has_function_privilege('anon', 'public.grant_tier(uuid,public.tier,text)', 'EXECUTE')
  and not has_function_privilege('authenticated', 'public.record_purchase(text,text,text,text,text,public.tier,bigint,text,timestamptz)', 'EXECUTE')
  and not has_function_privilege('authenticated', 'public.record_refund(text,text,text,timestamptz)', 'EXECUTE')
  and not has_function_privilege('anon', 'public.count_visits(jsonb)', 'EXECUTE')
  and not has_function_privilege('authenticated', 'public.count_visits(jsonb)', 'EXECUTE')
  and has_function_privilege('service_role', 'public.count_visits(jsonb)', 'EXECUTE'),
  'anon cannot grant tiers; authenticated cannot record purchases or refunds; only service_role counts visits');

select * from finish();
rollback;
