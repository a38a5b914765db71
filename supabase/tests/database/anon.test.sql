-- pgTAP, actor by actor: anon, a visitor with the publishable (anon) key and no
-- session. What each table, function, storage path and realtime channel allows and refuses,
-- each refusal with the error or the empty result the client would see. Needs the seed.
-- One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(27);

-- Fixtures, as postgres: a file in each tier folder and a member's avatar.
insert into storage.objects (bucket_id, name, owner, metadata) values
  ('resources', 'ebook/sample/ebook-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('resources', 'complete/sample/complete-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('avatars', '00000000-0000-4000-8000-000000000002/avatar.png', '00000000-0000-4000-8000-000000000002', '{"mimetype": "image/png", "size": 10}');

-- As PostgREST, Storage and Realtime act for a request with the anon key.
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select set_config('storage.operation', 'storage.object.upload', true);

-- Tables: no privilege at all, so PostgREST answers 401/403 with 42501.
select throws_ok('select * from public.profiles', '42501', 'permission denied for table profiles', 'profiles: no read');
select throws_ok('select * from public.user_tiers', '42501', 'permission denied for table user_tiers', 'user_tiers: no read');
select throws_ok('select * from public.purchases', '42501', 'permission denied for table purchases', 'purchases: no read');
select throws_ok('select * from public.tier_grants', '42501', 'permission denied for table tier_grants', 'tier_grants: no read');
select throws_ok('select * from public.staff', '42501', 'permission denied for table staff', 'staff: no read');
select throws_ok('select * from public.tier_audit', '42501', 'permission denied for table tier_audit', 'tier_audit: no read');
select throws_ok('select * from public.webhook_events', '42501', 'permission denied for table webhook_events', 'webhook_events: no read');
select throws_ok($$ insert into public.user_tiers (user_id, tier) values ('00000000-0000-4000-8000-000000000005', 'complete') $$,
  '42501', 'permission denied for table user_tiers', 'user_tiers: no insert');
select throws_ok($$ update public.profiles set display_name = 'x' $$, '42501', 'permission denied for table profiles', 'profiles: no update');

-- Functions: the two anon may call, and every other RPC refused by its privilege.
select is(public.is_staff(), false, 'is_staff() is false');
select is(public.tier_rank('accelerated'), 2, 'tier_rank() answers');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'complete', 'anon') $$,
  '42501', 'permission denied for function grant_tier', 'grant_tier: refused');
select throws_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000001', 'anon') $$,
  '42501', 'permission denied for function revoke_tier', 'revoke_tier: refused');
select throws_ok($$ select * from public.staff_list_members() $$,
  '42501', 'permission denied for function staff_list_members', 'staff_list_members: refused');
select throws_ok($$ select public.staff_member_detail('00000000-0000-4000-8000-000000000001') $$,
  '42501', 'permission denied for function staff_member_detail', 'staff_member_detail: refused');
select throws_ok($$ select public.record_purchase('stripe', 'evt_anon', 'ord_anon', 'anon@example.com', 'bundle', 'complete', 100, 'EUR', now()) $$,
  '42501', 'permission denied for function record_purchase', 'record_purchase: refused');
select throws_ok($$ select public.record_refund('stripe', 'evt_anon_r', 'ord_anon', now()) $$,
  '42501', 'permission denied for function record_refund', 'record_refund: refused');
select throws_ok($$ select public.current_tier_rank() $$,
  '42501', 'permission denied for function current_tier_rank', 'current_tier_rank: refused');

-- Storage: anon sees no object through the API (public avatars are served by their public
-- URL, which needs no policy), and writes nothing in either bucket.
select is_empty($$ select name from storage.objects where bucket_id = 'resources' $$, 'resources: nothing listed');
select is_empty($$ select name from storage.objects where bucket_id = 'avatars' $$, 'avatars: nothing listed');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'ebook/sample/mine.pdf', '{"mimetype": "application/pdf", "size": 10}') $$,
  '42501', 'new row violates row-level security policy for table "objects"', 'resources: no upload');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000002/avatar.gif', '{"mimetype": "image/gif", "size": 10}') $$,
  '42501', 'new row violates row-level security policy for table "objects"', 'avatars: no upload');
select is_empty($$ update storage.objects set metadata = '{}' returning name $$, 'no object can be overwritten');
select is_empty($$ delete from storage.objects returning name $$, 'no object can be deleted');
select set_config('storage.operation', 'storage.object.copy', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', 'copied/avatar.png', '{"mimetype": "image/png", "size": 10}') $$,
  '42501', 'new row violates row-level security policy for table "objects"', 'avatars: no copy');
select set_config('storage.operation', 'storage.object.move', true);
select is_empty($$ update storage.objects set name = 'ebook/sample/moved.pdf' where bucket_id = 'resources' returning name $$, 'resources: no move');

-- Realtime: it sends a subscriber only the rows its RLS lets them select; anon has no
-- privilege on either published table, so a channel on them stays silent.
reset role;
select results_eq(
  $$ select format('%s.%s', schemaname, tablename) collate "default" from pg_publication_tables where pubname = 'supabase_realtime' order by 1 $$,
  $$ values ('public.profiles'), ('public.user_tiers') $$,
  'realtime publishes profiles and user_tiers, nothing else');

select * from finish();
rollback;
