-- pgTAP, actor by actor: a signed-in staff member (staff@example.com, who also
-- holds the complete tier). What the staff RPCs, the tables, both buckets and realtime allow
-- and refuse, each refusal with the error or the empty result the client would see. Needs
-- the seed. One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(41);

-- Fixtures, as postgres: a file in two tier folders, a member's avatar, and a purchase by
-- the ebook member (recorded as the checkout webhook records it).
insert into storage.objects (bucket_id, name, owner, metadata) values
  ('resources', 'ebook/sample/ebook-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('resources', 'complete/sample/complete-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('avatars', '00000000-0000-4000-8000-000000000002/avatar.png', '00000000-0000-4000-8000-000000000002', '{"mimetype": "image/png", "size": 10}');
select public.record_purchase('stripe', 'evt_pgtap_1', 'ord_pgtap_1', 'ebook@example.com', 'ebook', 'ebook', 1999, 'EUR', now());

set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select set_config('storage.operation', 'storage.object.upload', true);

select is(public.is_staff(), true, 'is_staff() is true');

-- The member list.
select results_eq(
  $$ select email, tier::text, tier_source, purchase_count, total_count from public.staff_list_members() $$,
  $$ values ('accelerated@example.com', 'accelerated', 'staff', 0, 6::bigint),
            ('complete@example.com', 'complete', 'staff', 0, 6::bigint),
            ('ebook@example.com', 'ebook', 'purchase', 1, 6::bigint),
            ('foundation@example.com', 'foundation', 'staff', 0, 6::bigint),
            ('notier@example.com', null, null, 0, 6::bigint),
            ('staff@example.com', 'complete', 'staff', 0, 6::bigint) $$,
  'lists every member by e-mail, with tier, its source, purchase count and total');
select results_eq($$ select email, total_count from public.staff_list_members('EBOOK') $$,
  $$ values ('ebook@example.com', 1::bigint) $$, 'searches e-mails case-insensitively');
select results_eq($$ select email from public.staff_list_members('', 2, 2) $$,
  $$ values ('ebook@example.com'), ('foundation@example.com') $$, 'pages with page_size and page_offset');
select throws_ok($$ select * from public.staff_list_members('', 0) $$, '22023', 'page_size must be between 1 and 1000', 'refuses a page size of 0');
select throws_ok($$ select * from public.staff_list_members('', 1001) $$, '22023', 'page_size must be between 1 and 1000', 'refuses a page size over 1000');
select throws_ok($$ select * from public.staff_list_members('', 25, -1) $$, '22023', 'page_offset must not be negative', 'refuses a negative offset');

-- The member detail.
select is(public.staff_member_detail('00000000-0000-4000-8000-000000000001') ->> 'email', 'ebook@example.com', 'member detail: e-mail');
select is(public.staff_member_detail('00000000-0000-4000-8000-000000000001') ->> 'tier', 'ebook', 'member detail: tier');
select is(jsonb_array_length(public.staff_member_detail('00000000-0000-4000-8000-000000000001') -> 'purchases'), 1, 'member detail: purchases');
select is(public.staff_member_detail('20000000-0000-4000-8000-000000000099'), null, 'member detail of an unknown user is null');

-- Grant and revoke.
select lives_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'foundation', 'pgTAP grant') $$, 'grants a tier');
select is(public.staff_member_detail('00000000-0000-4000-8000-000000000005') ->> 'tier', 'foundation', 'the granted tier is the member''s tier');
select lives_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'accelerated', 'pgTAP upgrade') $$, 'a second grant replaces the first');
select results_eq($$ select tier::text from public.tier_grants where user_id = '00000000-0000-4000-8000-000000000005' and revoked_at is null $$,
  $$ values ('accelerated') $$, 'one active grant per member');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'complete', '  ') $$, '22023', 'a reason is required', 'a blank reason is refused');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'complete', repeat('x', 501)) $$, '22023', 'the reason is longer than 500 characters', 'a reason over 500 characters is refused');
select throws_ok($$ select public.grant_tier('20000000-0000-4000-8000-000000000099', 'complete', 'nobody') $$, '22023', 'no such user', 'an unknown user is refused');
select lives_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000005', 'pgTAP revoke') $$, 'revokes the grant');
select is(public.staff_member_detail('00000000-0000-4000-8000-000000000005') ->> 'tier', null, 'without a grant or purchase the member has no tier');
select throws_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000005', 'again') $$, 'P0002',
  'this member has no active staff grant (a purchased tier ends only with a refund)', 'revoking with no active grant is refused');
select lives_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000001', 'pgTAP: purchase stays') $$, 'revokes the ebook member''s grant');
select is(public.staff_member_detail('00000000-0000-4000-8000-000000000001') ->> 'tier', 'ebook', 'a purchased tier survives the revoke');

-- Tables: staff read every purchase and grant; nothing else opens.
select is((select count(*)::int from public.purchases), 1, 'reads every purchase');
select is((select count(distinct user_id)::int from public.tier_grants), 6, 'reads every member''s grants');
select throws_ok($$ insert into public.tier_grants (user_id, tier, reason) values ('00000000-0000-4000-8000-000000000005', 'complete', 'direct') $$,
  '42501', 'permission denied for table tier_grants', 'cannot write grants except through grant_tier');
select throws_ok('select * from public.staff', '42501', 'permission denied for table staff', 'cannot read the staff table');
select throws_ok('select * from public.tier_audit', '42501', 'permission denied for table tier_audit', 'cannot read the tier audit directly');
select throws_ok($$ select public.record_purchase('stripe', 'evt_staff', 'ord_staff', 'staff@example.com', 'bundle', 'complete', 1, 'EUR', now()) $$,
  '42501', 'permission denied for function record_purchase', 'cannot record a purchase (the webhook does)');
-- Realtime: staff's channels receive their own rows only, like anyone's.
select results_eq($$ select id::text from public.profiles $$, $$ values ('00000000-0000-4000-8000-000000000006') $$, 'reads only their own profile');
select results_eq($$ select tier::text from public.user_tiers $$, $$ values ('complete') $$, 'reads only their own tier row');

-- Storage: resources.
select results_eq($$ select name from storage.objects where bucket_id = 'resources' order by name $$,
  $$ values ('complete/sample/complete-guide.pdf'), ('ebook/sample/ebook-guide.pdf') $$, 'sees every resource');
select lives_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'foundation/worksheets/new.pdf', '{"mimetype": "application/pdf", "contentLength": 100}') $$,
  'uploads a resource to a tier folder');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'misc/new.pdf', '{"mimetype": "application/pdf", "contentLength": 100}') $$,
  '42501', 'new row violates row-level security policy for table "objects"', 'a resource outside a tier folder is refused');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'ebook/sample/cover.png', '{"mimetype": "image/png", "contentLength": 100}') $$,
  '42501', 'new row violates row-level security policy for table "objects"', 'a resource of a type the bucket does not allow is refused');
select results_eq($$ delete from storage.objects where name = 'ebook/sample/ebook-guide.pdf' returning name $$,
  $$ values ('ebook/sample/ebook-guide.pdf') $$, 'deletes a resource');
select set_config('storage.operation', 'storage.object.copy', true);
select lives_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'complete/sample/copy.pdf', '{"mimetype": "application/pdf", "size": 10, "contentLength": 10}') $$,
  'copies within resources');
select set_config('storage.operation', 'storage.object.move', true);
select results_eq($$ update storage.objects set name = 'complete/sample/moved.pdf' where name = 'complete/sample/copy.pdf' returning name $$,
  $$ values ('complete/sample/moved.pdf') $$, 'moves within resources');

-- Storage: avatars, as for any member.
select set_config('storage.operation', 'storage.object.upload', true);
select is_empty($$ select name from storage.objects where bucket_id = 'avatars' $$, 'lists no one else''s avatar folder');
select is_empty($$ update storage.objects set metadata = '{"mimetype": "image/png", "contentLength": 1}' where bucket_id = 'avatars' returning name $$,
  'cannot overwrite a member''s avatar');
select set_config('storage.operation', 'storage.object.copy', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000006/avatar.png', '00000000-0000-4000-8000-000000000006', '{"mimetype": "image/png", "size": 10, "contentLength": 10}') $$,
  '42501', 'new row violates row-level security policy "Avatar writes only through the upload routes" for table "objects"', 'cannot copy into avatars');

reset role;
select * from finish();
rollback;
