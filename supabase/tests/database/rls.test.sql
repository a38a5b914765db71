-- pgTAP: the core of the RLS rules, for `supabase test db` against a real `supabase start`
-- stack (Docker). The full matrix runs on PGlite in supabase/tests/*.test.ts; this file
-- checks the same rules on the real platform, where storage and auth are Supabase's own.
-- Needs the seed (demo accounts); everything runs in one transaction and is rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(28);

-- Schema guards ------------------------------------------------------------------------
select is(
  (select count(*)::int from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' and not relrowsecurity),
  0, 'every public table has RLS enabled');
select ok(not has_table_privilege('authenticated', 'public.user_tiers', 'INSERT')
  and not has_table_privilege('authenticated', 'public.user_tiers', 'UPDATE')
  and not has_table_privilege('authenticated', 'public.user_tiers', 'DELETE')
  and not has_any_column_privilege('authenticated', 'public.user_tiers', 'INSERT')
  and not has_any_column_privilege('authenticated', 'public.user_tiers', 'UPDATE'),
  'authenticated cannot write user_tiers');
select ok(not has_table_privilege('anon', 'public.user_tiers', 'INSERT')
  and not has_table_privilege('anon', 'public.user_tiers', 'UPDATE')
  and not has_table_privilege('anon', 'public.user_tiers', 'DELETE'),
  'anon cannot write user_tiers');
select results_eq(
  $$ select public.tier_rank(t) from unnest(array['ebook', 'foundation', 'accelerated', 'complete', 'platinum']) t $$,
  $$ values (0), (1), (2), (3), (null::int) $$,
  'tier_rank orders the tiers and rejects unknown names');
select results_eq(
  $$ select id, public, file_size_limit from storage.buckets where id in ('avatars', 'resources') order by id $$,
  $$ values ('avatars'::text, true, 2097152::bigint), ('resources'::text, false, 1073741824::bigint) $$,
  'buckets exist with their limits');

select is(
  (select count(*)::int from auth.users u where not exists (select 1 from public.profiles p where p.id = u.id)),
  0, 'every user has a profile row (on_auth_user_created trigger, backfill)');

-- Fixtures (as postgres) ---------------------------------------------------------------
insert into storage.objects (bucket_id, name, owner, metadata) values
  ('resources', 'ebook/sample/ebook-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('resources', 'complete/sample/complete-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('avatars', '00000000-0000-4000-8000-000000000002/avatar.png', '00000000-0000-4000-8000-000000000002', '{"mimetype": "image/png", "size": 10}');

-- As the ebook user --------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
-- What the storage server sets while it serves an upload; copy and move set their own.
select set_config('storage.operation', 'storage.object.upload', true);

select results_eq($$ select tier::text from public.user_tiers $$, $$ values ('ebook') $$, 'ebook user reads only their own tier');
select results_eq($$ select display_name from public.profiles $$, $$ values ('Eve Ebook') $$, 'ebook user reads only their own profile');
select throws_ok($$ insert into public.user_tiers (user_id, tier) values ('00000000-0000-4000-8000-000000000001', 'complete') on conflict (user_id) do update set tier = 'complete' $$,
  '42501', null, 'self-grant by upsert is refused');
select throws_ok($$ update public.user_tiers set tier = 'complete' $$, '42501', null, 'self-upgrade by update is refused');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000001', 'complete', 'self-grant') $$, '42501', null, 'grant_tier is refused for non-staff');
select throws_ok($$ update public.profiles set user_id = '00000000-0000-4000-8000-000000000002' $$, '42501', null, 'user_id cannot be rewritten');
select throws_ok($$ delete from public.profiles $$, '42501', null, 'profiles cannot be deleted');
select throws_ok($$ insert into public.profiles (id, user_id) values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001') $$,
  '42501', null, 'profiles cannot be inserted (the database creates them)');
select results_eq($$ update public.profiles set display_name = 'Eve' returning display_name $$, $$ values ('Eve') $$, 'own display name can be updated');
select is_empty($$ update public.profiles set display_name = 'x' where user_id = '00000000-0000-4000-8000-000000000002' returning 1 $$, 'another user profile is untouched');
select ok(not public.is_staff(), 'ebook user is not staff');
select set_config('storage.operation', 'storage.object.list', true);
select results_eq($$ select name from storage.objects where bucket_id = 'resources' $$, $$ values ('ebook/sample/ebook-guide.pdf') $$, 'ebook user sees only ebook resources');
select set_config('storage.operation', 'storage.object.upload', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'ebook/sample/mine.pdf', '{"mimetype": "application/pdf"}') $$,
  '42501', null, 'non-staff cannot upload resources');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000001/avatar.png', '00000000-0000-4000-8000-000000000001', '{"mimetype": "image/png", "size": 100}') $$,
  'own avatar can be uploaded');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000001/avatar.svg', '{"mimetype": "image/svg+xml"}') $$,
  '42501', null, 'SVG avatar is refused');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000002/avatar.gif', '{"mimetype": "image/gif"}') $$,
  '42501', null, 'another user avatar folder is refused');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000001/avatar.jpg', '{"mimetype": "image/jpeg", "contentLength": 3145728}') $$,
  '42501', null, 'a 3 MB avatar, as hosted storage describes an upload, is refused');
select set_config('storage.operation', 'storage.object.copy', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000001/avatar.gif', '00000000-0000-4000-8000-000000000001', '{"mimetype": "image/gif", "size": 100}') $$,
  '42501', null, 'a copy into avatars is refused');
select set_config('storage.operation', 'storage.object.upload', true);
select is_empty($$ select name from storage.objects where bucket_id = 'avatars' and name like '00000000-0000-4000-8000-000000000002/%' $$, 'another user avatar folder is not listed');

-- As staff -----------------------------------------------------------------------------
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select ok(public.is_staff(), 'staff account is staff');
select lives_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'foundation', 'pgTAP') $$, 'staff can grant a tier');
select lives_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'foundation/worksheets/new.pdf', '{"mimetype": "application/pdf", "size": 100}') $$,
  'staff can upload a resource');

reset role;
select * from finish();
rollback;
