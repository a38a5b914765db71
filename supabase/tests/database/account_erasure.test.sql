-- pgTAP: what deleting an account leaves behind, and what the deleted member's
-- access token can still do while it has not expired (PostgREST and Storage accept any token
-- signed with the project's secret; they never ask the auth server whether the user exists).
-- The deletion is the one GoTrue's admin API runs (`delete from auth.users`), here as the
-- test's owner role. Needs the seed. One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(32);

-- Fixtures, as postgres: the ebook member (…001) buys, gets a staff grant on top, has an
-- avatar and a session; a tier file exists; the foundation member (…002) is the control.
select public.record_purchase('stripe', 'evt_erase_1', 'ord_erase_1', 'ebook@example.com', 'ebook', 'ebook', 1999, 'EUR', now());
update public.tier_grants set revoked_at = now(), revoked_by = null, revoke_reason = 'test'
where user_id = '00000000-0000-4000-8000-000000000001' and revoked_at is null;
insert into public.tier_grants (user_id, tier, reason) values ('00000000-0000-4000-8000-000000000001', 'foundation', 'pgTAP grant');
insert into public.staff (user_id) values ('00000000-0000-4000-8000-000000000001');
insert into storage.objects (bucket_id, name, owner, metadata) values
  ('resources', 'ebook/sample/ebook-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('avatars', '00000000-0000-4000-8000-000000000001/avatar.png', '00000000-0000-4000-8000-000000000001', '{"mimetype": "image/png", "size": 10}');
insert into auth.sessions (id, user_id, created_at, updated_at)
values ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', now(), now());
insert into auth.refresh_tokens (instance_id, token, user_id, revoked, session_id, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', 'pgtap-refresh-1', '00000000-0000-4000-8000-000000000001', false,
        '00000000-0000-4000-8000-0000000000a1', now(), now());

select is((select user_id from public.purchases where order_id = 'ord_erase_1'), '00000000-0000-4000-8000-000000000001'::uuid,
  'before: the purchase is attached to the member');

-- GoTrue's adminUserDelete deletes the users row (the triggers that act on it are security
-- definer, so whichever role deletes it they run as their owner).
delete from auth.users where id = '00000000-0000-4000-8000-000000000001';

-- What goes.
select is((select count(*)::int from public.profiles where id = '00000000-0000-4000-8000-000000000001'), 0, 'the profile goes');
select is((select count(*)::int from public.user_tiers where user_id = '00000000-0000-4000-8000-000000000001'), 0, 'the tier goes');
select is((select count(*)::int from public.tier_grants where user_id = '00000000-0000-4000-8000-000000000001'), 0, 'the staff grants go');
select is((select count(*)::int from public.staff where user_id = '00000000-0000-4000-8000-000000000001'), 0, 'the staff membership goes');
select is((select count(*)::int from auth.identities where user_id = '00000000-0000-4000-8000-000000000001'), 0, 'the identities go');
select is((select count(*)::int from auth.sessions where user_id = '00000000-0000-4000-8000-000000000001'), 0, 'the sessions go');
select is((select count(*)::int from auth.refresh_tokens where token = 'pgtap-refresh-1'), 0, 'the refresh tokens go');
select is((select count(*)::int from storage.objects where bucket_id = 'avatars' and name like '00000000-0000-4000-8000-000000000001/%'), 0,
  'the avatar row goes');

-- What stays: the purchase, unattached and marked; the tier audit.
select results_eq(
  $$ select user_id, account_removed_at is not null, status, email from public.purchases where order_id = 'ord_erase_1' $$,
  $$ values (null::uuid, true, 'paid'::text, 'ebook@example.com'::text) $$,
  'the purchase row stays, its account link removed and marked as from a removed account');
select ok((select count(*) > 0 from public.tier_audit where target_user = '00000000-0000-4000-8000-000000000001'),
  'the tier audit is kept');

-- The deleted member's unexpired access token.
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select set_config('storage.operation', 'storage.object.upload', true);
select is((select count(*)::int from public.profiles), 0, 'old token: reads no profile');
select is((select count(*)::int from public.user_tiers), 0, 'old token: reads no tier');
select is((select count(*)::int from public.purchases), 0, 'old token: reads no purchase');
select is((select count(*)::int from public.tier_grants), 0, 'old token: reads no grant (no longer staff)');
select is(public.is_staff(), false, 'old token: not staff any more');
select is(public.current_tier_rank(), null, 'old token: no tier rank');
select is((select count(*)::int from storage.objects where bucket_id = 'resources'), 0,
  'old token: sees no paid file (so cannot sign one)');
select is((select count(*)::int from storage.objects where bucket_id = 'avatars'), 0, 'old token: lists no avatar');
select throws_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000001/avatar.png', '00000000-0000-4000-8000-000000000001', '{"mimetype": "image/png", "size": 100}') $$,
  '42501', null, 'old token: cannot upload an avatar into the deleted user''s folder');
select throws_ok($$ select * from public.staff_list_members() $$, '42501', 'only staff can list members',
  'old token: cannot list members');
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'complete', 'self-service') $$, '42501',
  'only staff can grant tiers', 'old token: cannot grant tiers');
select throws_ok('select * from public.account_erasures', '42501', 'permission denied for table account_erasures',
  'authenticated: cannot read the erasure log');

-- The control: a live member's token uploads their avatar under the same policy.
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select lives_ok($$ insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', '00000000-0000-4000-8000-000000000002/avatar.png', '00000000-0000-4000-8000-000000000002', '{"mimetype": "image/png", "size": 100}') $$,
  'a live member still uploads their avatar');
select is((select count(*)::int from public.profiles), 1, 'a live member still reads their profile');
reset role;

-- A new account with the same address, confirmed: the old purchase stays detached.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  email_change_token_current, phone_change, phone_change_token, reauthentication_token
) values (
  '00000000-0000-0000-0000-000000000000', '00000000-0000-4000-8000-0000000000b1', 'authenticated', 'authenticated',
  'ebook@example.com', '', now(), '{"provider": "email", "providers": ["email"]}'::jsonb, '{}'::jsonb, now(), now(),
  '', '', '', '', '', '', '', ''
);
select is((select user_id from public.purchases where order_id = 'ord_erase_1'), null::uuid,
  'a new confirmed account with the same address does not inherit the purchase');
select is((select tier from public.user_tiers where user_id = '00000000-0000-4000-8000-0000000000b1'), null::public.tier,
  'the new account holds no tier from it');

-- A new sale to that address attaches to the new account; the old one still does not.
select public.record_purchase('stripe', 'evt_erase_2', 'ord_erase_2', 'ebook@example.com', 'ebook', 'ebook', 1999, 'EUR', now());
select results_eq(
  $$ select order_id, user_id from public.purchases where email = 'ebook@example.com' order by order_id $$,
  $$ values ('ord_erase_1'::text, null::uuid), ('ord_erase_2'::text, '00000000-0000-4000-8000-0000000000b1'::uuid) $$,
  'a later purchase attaches to the new account, the detached one stays detached');

-- A refund of the detached purchase still records.
select is((public.record_refund('stripe', 'evt_erase_refund', 'ord_erase_1', now()) ->> 'found')::boolean, true,
  'a refund after the erasure finds the order');
select is((select status from public.purchases where order_id = 'ord_erase_1'), 'refunded', 'and records it');

-- The erasure log: service_role appends and completes, never rewrites or deletes.
set local role service_role;
select lives_ok($$ insert into public.account_erasures (erased_user, requested_by, kind, reason)
  values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000006', 'staff', 'Asked by e-mail') $$,
  'service_role records an erasure');
select throws_ok($$ update public.account_erasures set reason = 'rewritten' $$, '42501',
  'permission denied for table account_erasures', 'service_role cannot rewrite the reason');
reset role;

select * from finish();
rollback;
