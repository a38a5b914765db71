-- pgTAP, actor by actor: a signed-in subscriber of each tier, and one without a
-- tier. What each table, function, storage path and realtime channel allows and refuses,
-- each refusal with the error or the empty result the client would see. Realtime sends a
-- subscriber only the rows of profiles and user_tiers they may select, so the first checks of
-- each block are also what their channels receive. Needs the seed. One transaction, rolled back.
-- The blocks are the same for every tier but for what each may read.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(130);

-- Fixtures, as postgres: a file in each tier folder, the staff member's avatar, and a
-- purchase by the ebook member (recorded as the checkout webhook records it).
insert into storage.objects (bucket_id, name, owner, metadata) values
  ('resources', 'ebook/sample/ebook-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('resources', 'foundation/sample/foundation-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('resources', 'accelerated/sample/accelerated-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('resources', 'complete/sample/complete-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('avatars', '00000000-0000-4000-8000-000000000006/avatar.png', '00000000-0000-4000-8000-000000000006', '{"mimetype": "image/png", "size": 10}');
select public.record_purchase('stripe', 'evt_pgtap_1', 'ord_pgtap_1', 'ebook@example.com', 'ebook', 'ebook', 1999, 'EUR', now());

set local role authenticated;

-- A subscriber with the ebook tier (1) ----------------------------------------
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select set_config('storage.operation', 'storage.object.upload', true);
select results_eq($$ select user_id::text, tier::text from public.user_tiers $$, $$ values ('00000000-0000-4000-8000-000000000001', 'ebook') $$, 'ebook: reads only their own tier');
select results_eq($$ select id::text, display_name from public.profiles $$, $$ values ('00000000-0000-4000-8000-000000000001', 'Eve Ebook') $$, 'ebook: reads only their own profile');
select is(public.current_tier_rank(), 0, 'ebook: current_tier_rank()');
select is(public.is_staff(), false, 'ebook: is not staff');
select set_config('storage.operation', 'storage.object.list', true);
select results_eq($$ select name from storage.objects where bucket_id = 'resources' order by name $$, $$ values ('ebook/sample/ebook-guide.pdf') $$, 'ebook: sees the resources of their tier and below');
select set_config('storage.operation', 'storage.object.upload', true);
select results_eq($$ select order_id from public.purchases $$, $$ values ('ord_pgtap_1') $$, 'ebook: reads only their own purchase');
select is_empty($$ select id from public.tier_grants $$, 'ebook: reads no staff grant, not even their own');
select throws_ok('select * from public.staff', '42501', 'permission denied for table staff', 'ebook: cannot read staff');
select throws_ok('select * from public.tier_audit', '42501', 'permission denied for table tier_audit', 'ebook: cannot read the tier audit');
select throws_ok('select * from public.webhook_events', '42501', 'permission denied for table webhook_events', 'ebook: cannot read webhook events');
select throws_ok($$ update public.user_tiers set tier = 'complete' $$, '42501', 'permission denied for table user_tiers', 'ebook: cannot change a tier');
select throws_ok($$ insert into public.purchases (provider, provider_event_id, order_id, email, product, tier, amount_cents, currency, status) values ('stripe', 'e', 'o', 'x@example.com', 'p', 'complete', 1, 'EUR', 'paid') $$, '42501', 'permission denied for table purchases', 'ebook: cannot record a purchase by insert');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000001', 'complete', 'self') $$, '42501', 'only staff can grant tiers', 'ebook: grant_tier refused');
select throws_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000002', 'spite') $$, '42501', 'only staff can revoke tiers', 'ebook: revoke_tier refused');
select throws_ok($$ select * from public.staff_list_members() $$, '42501', 'only staff can list members', 'ebook: staff member list refused');
select throws_ok($$ select public.staff_member_detail('00000000-0000-4000-8000-000000000001') $$, '42501', 'only staff can read member details', 'ebook: member detail refused, even their own');
select throws_ok($$ select public.record_purchase('stripe', 'evt_self', 'ord_self', 'self@example.com', 'bundle', 'complete', 1, 'EUR', now()) $$, '42501', 'permission denied for function record_purchase', 'ebook: record_purchase refused');
select throws_ok($$ select public.record_refund('stripe', 'evt_self_r', 'ord_pgtap_1', now()) $$, '42501', 'permission denied for function record_refund', 'ebook: record_refund refused');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000001/avatar.png', '00000000-0000-4000-8000-000000000001', '{"mimetype": "image/png", "contentLength": 100}') $$, 'ebook: uploads their own avatar');
select results_eq($$ select name from storage.objects where bucket_id = 'avatars' $$, $$ values ('00000000-0000-4000-8000-000000000001/avatar.png') $$, 'ebook: lists only their own avatar folder');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000006/avatar.gif', '{"mimetype": "image/gif", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'ebook: cannot upload into another user''s avatar folder');
select is_empty($$ update storage.objects set metadata = '{"mimetype": "image/png", "contentLength": 1}' where bucket_id = 'avatars' and name like '00000000-0000-4000-8000-000000000006/%' returning name $$, 'ebook: cannot overwrite another user''s avatar');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'ebook/sample/mine.pdf', '{"mimetype": "application/pdf", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'ebook: cannot upload a resource');
select is_empty($$ delete from storage.objects where bucket_id = 'resources' returning name $$, 'ebook: cannot delete a resource');
select set_config('storage.operation', 'storage.object.copy', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000001/avatar.gif', '00000000-0000-4000-8000-000000000001', '{"mimetype": "image/gif", "size": 100, "contentLength": 100}') $$, '42501', 'new row violates row-level security policy "Avatar writes only through the upload routes" for table "objects"', 'ebook: cannot copy into avatars, even into their own folder');
select set_config('storage.operation', 'storage.object.move', true);
select is_empty($$ update storage.objects set name = '00000000-0000-4000-8000-000000000001/avatar.webp' where bucket_id = 'avatars' returning name $$, 'ebook: cannot move (rename) within avatars');

-- A subscriber with the foundation tier (2) ----------------------------------------
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select set_config('storage.operation', 'storage.object.upload', true);
select results_eq($$ select user_id::text, tier::text from public.user_tiers $$, $$ values ('00000000-0000-4000-8000-000000000002', 'foundation') $$, 'foundation: reads only their own tier');
select results_eq($$ select id::text, display_name from public.profiles $$, $$ values ('00000000-0000-4000-8000-000000000002', 'Fran Foundation') $$, 'foundation: reads only their own profile');
select is(public.current_tier_rank(), 1, 'foundation: current_tier_rank()');
select is(public.is_staff(), false, 'foundation: is not staff');
select set_config('storage.operation', 'storage.object.list', true);
select results_eq($$ select name from storage.objects where bucket_id = 'resources' order by name $$, $$ values ('ebook/sample/ebook-guide.pdf'), ('foundation/sample/foundation-guide.pdf') $$, 'foundation: sees the resources of their tier and below');
select set_config('storage.operation', 'storage.object.upload', true);
select is_empty($$ select order_id from public.purchases $$, 'foundation: reads no purchase of anyone else');
select is_empty($$ select id from public.tier_grants $$, 'foundation: reads no staff grant, not even their own');
select throws_ok('select * from public.staff', '42501', 'permission denied for table staff', 'foundation: cannot read staff');
select throws_ok('select * from public.tier_audit', '42501', 'permission denied for table tier_audit', 'foundation: cannot read the tier audit');
select throws_ok('select * from public.webhook_events', '42501', 'permission denied for table webhook_events', 'foundation: cannot read webhook events');
select throws_ok($$ update public.user_tiers set tier = 'complete' $$, '42501', 'permission denied for table user_tiers', 'foundation: cannot change a tier');
select throws_ok($$ insert into public.purchases (provider, provider_event_id, order_id, email, product, tier, amount_cents, currency, status) values ('stripe', 'e', 'o', 'x@example.com', 'p', 'complete', 1, 'EUR', 'paid') $$, '42501', 'permission denied for table purchases', 'foundation: cannot record a purchase by insert');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000002', 'complete', 'self') $$, '42501', 'only staff can grant tiers', 'foundation: grant_tier refused');
select throws_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000002', 'spite') $$, '42501', 'only staff can revoke tiers', 'foundation: revoke_tier refused');
select throws_ok($$ select * from public.staff_list_members() $$, '42501', 'only staff can list members', 'foundation: staff member list refused');
select throws_ok($$ select public.staff_member_detail('00000000-0000-4000-8000-000000000002') $$, '42501', 'only staff can read member details', 'foundation: member detail refused, even their own');
select throws_ok($$ select public.record_purchase('stripe', 'evt_self', 'ord_self', 'self@example.com', 'bundle', 'complete', 1, 'EUR', now()) $$, '42501', 'permission denied for function record_purchase', 'foundation: record_purchase refused');
select throws_ok($$ select public.record_refund('stripe', 'evt_self_r', 'ord_pgtap_1', now()) $$, '42501', 'permission denied for function record_refund', 'foundation: record_refund refused');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000002/avatar.png', '00000000-0000-4000-8000-000000000002', '{"mimetype": "image/png", "contentLength": 100}') $$, 'foundation: uploads their own avatar');
select results_eq($$ select name from storage.objects where bucket_id = 'avatars' $$, $$ values ('00000000-0000-4000-8000-000000000002/avatar.png') $$, 'foundation: lists only their own avatar folder');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000006/avatar.gif', '{"mimetype": "image/gif", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'foundation: cannot upload into another user''s avatar folder');
select is_empty($$ update storage.objects set metadata = '{"mimetype": "image/png", "contentLength": 1}' where bucket_id = 'avatars' and name like '00000000-0000-4000-8000-000000000006/%' returning name $$, 'foundation: cannot overwrite another user''s avatar');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'foundation/sample/mine.pdf', '{"mimetype": "application/pdf", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'foundation: cannot upload a resource');
select is_empty($$ delete from storage.objects where bucket_id = 'resources' returning name $$, 'foundation: cannot delete a resource');
select set_config('storage.operation', 'storage.object.copy', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000002/avatar.gif', '00000000-0000-4000-8000-000000000002', '{"mimetype": "image/gif", "size": 100, "contentLength": 100}') $$, '42501', 'new row violates row-level security policy "Avatar writes only through the upload routes" for table "objects"', 'foundation: cannot copy into avatars, even into their own folder');
select set_config('storage.operation', 'storage.object.move', true);
select is_empty($$ update storage.objects set name = '00000000-0000-4000-8000-000000000002/avatar.webp' where bucket_id = 'avatars' returning name $$, 'foundation: cannot move (rename) within avatars');

-- A subscriber with the accelerated tier (3) ----------------------------------------
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000003", "role": "authenticated"}', true);
select set_config('storage.operation', 'storage.object.upload', true);
select results_eq($$ select user_id::text, tier::text from public.user_tiers $$, $$ values ('00000000-0000-4000-8000-000000000003', 'accelerated') $$, 'accelerated: reads only their own tier');
select results_eq($$ select id::text, display_name from public.profiles $$, $$ values ('00000000-0000-4000-8000-000000000003', 'Alex Accelerated') $$, 'accelerated: reads only their own profile');
select is(public.current_tier_rank(), 2, 'accelerated: current_tier_rank()');
select is(public.is_staff(), false, 'accelerated: is not staff');
select set_config('storage.operation', 'storage.object.list', true);
select results_eq($$ select name from storage.objects where bucket_id = 'resources' order by name $$, $$ values ('accelerated/sample/accelerated-guide.pdf'), ('ebook/sample/ebook-guide.pdf'), ('foundation/sample/foundation-guide.pdf') $$, 'accelerated: sees the resources of their tier and below');
select set_config('storage.operation', 'storage.object.upload', true);
select is_empty($$ select order_id from public.purchases $$, 'accelerated: reads no purchase of anyone else');
select is_empty($$ select id from public.tier_grants $$, 'accelerated: reads no staff grant, not even their own');
select throws_ok('select * from public.staff', '42501', 'permission denied for table staff', 'accelerated: cannot read staff');
select throws_ok('select * from public.tier_audit', '42501', 'permission denied for table tier_audit', 'accelerated: cannot read the tier audit');
select throws_ok('select * from public.webhook_events', '42501', 'permission denied for table webhook_events', 'accelerated: cannot read webhook events');
select throws_ok($$ update public.user_tiers set tier = 'complete' $$, '42501', 'permission denied for table user_tiers', 'accelerated: cannot change a tier');
select throws_ok($$ insert into public.purchases (provider, provider_event_id, order_id, email, product, tier, amount_cents, currency, status) values ('stripe', 'e', 'o', 'x@example.com', 'p', 'complete', 1, 'EUR', 'paid') $$, '42501', 'permission denied for table purchases', 'accelerated: cannot record a purchase by insert');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000003', 'complete', 'self') $$, '42501', 'only staff can grant tiers', 'accelerated: grant_tier refused');
select throws_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000002', 'spite') $$, '42501', 'only staff can revoke tiers', 'accelerated: revoke_tier refused');
select throws_ok($$ select * from public.staff_list_members() $$, '42501', 'only staff can list members', 'accelerated: staff member list refused');
select throws_ok($$ select public.staff_member_detail('00000000-0000-4000-8000-000000000003') $$, '42501', 'only staff can read member details', 'accelerated: member detail refused, even their own');
select throws_ok($$ select public.record_purchase('stripe', 'evt_self', 'ord_self', 'self@example.com', 'bundle', 'complete', 1, 'EUR', now()) $$, '42501', 'permission denied for function record_purchase', 'accelerated: record_purchase refused');
select throws_ok($$ select public.record_refund('stripe', 'evt_self_r', 'ord_pgtap_1', now()) $$, '42501', 'permission denied for function record_refund', 'accelerated: record_refund refused');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000003/avatar.png', '00000000-0000-4000-8000-000000000003', '{"mimetype": "image/png", "contentLength": 100}') $$, 'accelerated: uploads their own avatar');
select results_eq($$ select name from storage.objects where bucket_id = 'avatars' $$, $$ values ('00000000-0000-4000-8000-000000000003/avatar.png') $$, 'accelerated: lists only their own avatar folder');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000006/avatar.gif', '{"mimetype": "image/gif", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'accelerated: cannot upload into another user''s avatar folder');
select is_empty($$ update storage.objects set metadata = '{"mimetype": "image/png", "contentLength": 1}' where bucket_id = 'avatars' and name like '00000000-0000-4000-8000-000000000006/%' returning name $$, 'accelerated: cannot overwrite another user''s avatar');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'accelerated/sample/mine.pdf', '{"mimetype": "application/pdf", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'accelerated: cannot upload a resource');
select is_empty($$ delete from storage.objects where bucket_id = 'resources' returning name $$, 'accelerated: cannot delete a resource');
select set_config('storage.operation', 'storage.object.copy', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000003/avatar.gif', '00000000-0000-4000-8000-000000000003', '{"mimetype": "image/gif", "size": 100, "contentLength": 100}') $$, '42501', 'new row violates row-level security policy "Avatar writes only through the upload routes" for table "objects"', 'accelerated: cannot copy into avatars, even into their own folder');
select set_config('storage.operation', 'storage.object.move', true);
select is_empty($$ update storage.objects set name = '00000000-0000-4000-8000-000000000003/avatar.webp' where bucket_id = 'avatars' returning name $$, 'accelerated: cannot move (rename) within avatars');

-- A subscriber with the complete tier (4) ----------------------------------------
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000004", "role": "authenticated"}', true);
select set_config('storage.operation', 'storage.object.upload', true);
select results_eq($$ select user_id::text, tier::text from public.user_tiers $$, $$ values ('00000000-0000-4000-8000-000000000004', 'complete') $$, 'complete: reads only their own tier');
select results_eq($$ select id::text, display_name from public.profiles $$, $$ values ('00000000-0000-4000-8000-000000000004', 'Casey Complete') $$, 'complete: reads only their own profile');
select is(public.current_tier_rank(), 3, 'complete: current_tier_rank()');
select is(public.is_staff(), false, 'complete: is not staff');
select set_config('storage.operation', 'storage.object.list', true);
select results_eq($$ select name from storage.objects where bucket_id = 'resources' order by name $$, $$ values ('accelerated/sample/accelerated-guide.pdf'), ('complete/sample/complete-guide.pdf'), ('ebook/sample/ebook-guide.pdf'), ('foundation/sample/foundation-guide.pdf') $$, 'complete: sees the resources of their tier and below');
select set_config('storage.operation', 'storage.object.upload', true);
select is_empty($$ select order_id from public.purchases $$, 'complete: reads no purchase of anyone else');
select is_empty($$ select id from public.tier_grants $$, 'complete: reads no staff grant, not even their own');
select throws_ok('select * from public.staff', '42501', 'permission denied for table staff', 'complete: cannot read staff');
select throws_ok('select * from public.tier_audit', '42501', 'permission denied for table tier_audit', 'complete: cannot read the tier audit');
select throws_ok('select * from public.webhook_events', '42501', 'permission denied for table webhook_events', 'complete: cannot read webhook events');
select throws_ok($$ update public.user_tiers set tier = 'complete' $$, '42501', 'permission denied for table user_tiers', 'complete: cannot change a tier');
select throws_ok($$ insert into public.purchases (provider, provider_event_id, order_id, email, product, tier, amount_cents, currency, status) values ('stripe', 'e', 'o', 'x@example.com', 'p', 'complete', 1, 'EUR', 'paid') $$, '42501', 'permission denied for table purchases', 'complete: cannot record a purchase by insert');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000004', 'complete', 'self') $$, '42501', 'only staff can grant tiers', 'complete: grant_tier refused');
select throws_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000002', 'spite') $$, '42501', 'only staff can revoke tiers', 'complete: revoke_tier refused');
select throws_ok($$ select * from public.staff_list_members() $$, '42501', 'only staff can list members', 'complete: staff member list refused');
select throws_ok($$ select public.staff_member_detail('00000000-0000-4000-8000-000000000004') $$, '42501', 'only staff can read member details', 'complete: member detail refused, even their own');
select throws_ok($$ select public.record_purchase('stripe', 'evt_self', 'ord_self', 'self@example.com', 'bundle', 'complete', 1, 'EUR', now()) $$, '42501', 'permission denied for function record_purchase', 'complete: record_purchase refused');
select throws_ok($$ select public.record_refund('stripe', 'evt_self_r', 'ord_pgtap_1', now()) $$, '42501', 'permission denied for function record_refund', 'complete: record_refund refused');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000004/avatar.png', '00000000-0000-4000-8000-000000000004', '{"mimetype": "image/png", "contentLength": 100}') $$, 'complete: uploads their own avatar');
select results_eq($$ select name from storage.objects where bucket_id = 'avatars' $$, $$ values ('00000000-0000-4000-8000-000000000004/avatar.png') $$, 'complete: lists only their own avatar folder');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000006/avatar.gif', '{"mimetype": "image/gif", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'complete: cannot upload into another user''s avatar folder');
select is_empty($$ update storage.objects set metadata = '{"mimetype": "image/png", "contentLength": 1}' where bucket_id = 'avatars' and name like '00000000-0000-4000-8000-000000000006/%' returning name $$, 'complete: cannot overwrite another user''s avatar');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'complete/sample/mine.pdf', '{"mimetype": "application/pdf", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'complete: cannot upload a resource');
select is_empty($$ delete from storage.objects where bucket_id = 'resources' returning name $$, 'complete: cannot delete a resource');
select set_config('storage.operation', 'storage.object.copy', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000004/avatar.gif', '00000000-0000-4000-8000-000000000004', '{"mimetype": "image/gif", "size": 100, "contentLength": 100}') $$, '42501', 'new row violates row-level security policy "Avatar writes only through the upload routes" for table "objects"', 'complete: cannot copy into avatars, even into their own folder');
select set_config('storage.operation', 'storage.object.move', true);
select is_empty($$ update storage.objects set name = '00000000-0000-4000-8000-000000000004/avatar.webp' where bucket_id = 'avatars' returning name $$, 'complete: cannot move (rename) within avatars');

-- A subscriber with no tier (5) ----------------------------------------
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000005", "role": "authenticated"}', true);
select set_config('storage.operation', 'storage.object.upload', true);
select is_empty($$ select tier from public.user_tiers $$, 'no tier: reads no tier (none held, and nobody else''s)');
select results_eq($$ select id::text, display_name from public.profiles $$, $$ values ('00000000-0000-4000-8000-000000000005', null::text) $$, 'no tier: reads only their own profile');
select is(public.current_tier_rank(), null::int, 'no tier: current_tier_rank()');
select is(public.is_staff(), false, 'no tier: is not staff');
select is_empty($$ select name from storage.objects where bucket_id = 'resources' $$, 'no tier: sees no resources');
select is_empty($$ select order_id from public.purchases $$, 'no tier: reads no purchase of anyone else');
select is_empty($$ select id from public.tier_grants $$, 'no tier: reads no staff grant, not even their own');
select throws_ok('select * from public.staff', '42501', 'permission denied for table staff', 'no tier: cannot read staff');
select throws_ok('select * from public.tier_audit', '42501', 'permission denied for table tier_audit', 'no tier: cannot read the tier audit');
select throws_ok('select * from public.webhook_events', '42501', 'permission denied for table webhook_events', 'no tier: cannot read webhook events');
select throws_ok($$ update public.user_tiers set tier = 'complete' $$, '42501', 'permission denied for table user_tiers', 'no tier: cannot change a tier');
select throws_ok($$ insert into public.purchases (provider, provider_event_id, order_id, email, product, tier, amount_cents, currency, status) values ('stripe', 'e', 'o', 'x@example.com', 'p', 'complete', 1, 'EUR', 'paid') $$, '42501', 'permission denied for table purchases', 'no tier: cannot record a purchase by insert');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'complete', 'self') $$, '42501', 'only staff can grant tiers', 'no tier: grant_tier refused');
select throws_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000002', 'spite') $$, '42501', 'only staff can revoke tiers', 'no tier: revoke_tier refused');
select throws_ok($$ select * from public.staff_list_members() $$, '42501', 'only staff can list members', 'no tier: staff member list refused');
select throws_ok($$ select public.staff_member_detail('00000000-0000-4000-8000-000000000005') $$, '42501', 'only staff can read member details', 'no tier: member detail refused, even their own');
select throws_ok($$ select public.record_purchase('stripe', 'evt_self', 'ord_self', 'self@example.com', 'bundle', 'complete', 1, 'EUR', now()) $$, '42501', 'permission denied for function record_purchase', 'no tier: record_purchase refused');
select throws_ok($$ select public.record_refund('stripe', 'evt_self_r', 'ord_pgtap_1', now()) $$, '42501', 'permission denied for function record_refund', 'no tier: record_refund refused');
select lives_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000005/avatar.png', '00000000-0000-4000-8000-000000000005', '{"mimetype": "image/png", "contentLength": 100}') $$, 'no tier: uploads their own avatar');
select results_eq($$ select name from storage.objects where bucket_id = 'avatars' $$, $$ values ('00000000-0000-4000-8000-000000000005/avatar.png') $$, 'no tier: lists only their own avatar folder');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000006/avatar.gif', '{"mimetype": "image/gif", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'no tier: cannot upload into another user''s avatar folder');
select is_empty($$ update storage.objects set metadata = '{"mimetype": "image/png", "contentLength": 1}' where bucket_id = 'avatars' and name like '00000000-0000-4000-8000-000000000006/%' returning name $$, 'no tier: cannot overwrite another user''s avatar');
select throws_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'ebook/sample/mine.pdf', '{"mimetype": "application/pdf", "contentLength": 100}') $$, '42501', 'new row violates row-level security policy for table "objects"', 'no tier: cannot upload a resource');
select is_empty($$ delete from storage.objects where bucket_id = 'resources' returning name $$, 'no tier: cannot delete a resource');
select set_config('storage.operation', 'storage.object.copy', true);
select throws_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000005/avatar.gif', '00000000-0000-4000-8000-000000000005', '{"mimetype": "image/gif", "size": 100, "contentLength": 100}') $$, '42501', 'new row violates row-level security policy "Avatar writes only through the upload routes" for table "objects"', 'no tier: cannot copy into avatars, even into their own folder');
select set_config('storage.operation', 'storage.object.move', true);
select is_empty($$ update storage.objects set name = '00000000-0000-4000-8000-000000000005/avatar.webp' where bucket_id = 'avatars' returning name $$, 'no tier: cannot move (rename) within avatars');
reset role;
select * from finish();
rollback;
