-- pgTAP, actor by actor: the service role (the secret / service_role key: the
-- purchase webhook, scripts). It bypasses row level security, and what it may call is set by
-- privileges: the webhook's RPCs, not the staff RPCs. Each refusal with the error the client
-- would see. Needs the seed. One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(26);

set local role service_role;
select set_config('request.jwt.claims', '{"role": "service_role"}', true);

-- Reads everything (row level security does not apply to it).
select is((select count(*)::int from public.profiles), 6, 'reads every profile');
select is((select count(*)::int from public.user_tiers where tier is not null), 5, 'reads every tier');
select is((select count(*)::int from public.staff), 1, 'reads the staff table');
select lives_ok('select * from public.tier_audit', 'reads the tier audit');
select throws_ok($$ insert into public.tier_audit (target_user, changed_by_role) values ('00000000-0000-4000-8000-000000000005', 'service_role') $$,
  '42501', 'permission denied for table tier_audit', 'cannot write the tier audit (only its trigger does)');
select throws_ok($$ update public.tier_audit set reason = 'rewritten' $$,
  '42501', 'permission denied for table tier_audit', 'cannot rewrite the tier audit');
select throws_ok($$ delete from public.tier_audit $$,
  '42501', 'permission denied for table tier_audit', 'cannot delete from the tier audit');
select throws_ok($$ lock table public.tier_audit in access exclusive mode $$,
  '42501', 'permission denied for table tier_audit', 'cannot lock the tier audit (no MAINTAIN), so cannot stall tier changes');

-- The purchase webhook's RPCs.
select is(public.record_purchase('stripe', 'evt_sr_1', 'ord_sr_1', 'NoTier@Example.com', 'foundation', 'foundation', 4900, 'usd', now()) ->> 'account',
  'confirmed', 'records a sale to a confirmed account');
select results_eq($$ select email, tier::text, amount_cents, currency, status, user_id::text from public.purchases where order_id = 'ord_sr_1' $$,
  $$ values ('notier@example.com', 'foundation', 4900::bigint, 'USD', 'paid', '00000000-0000-4000-8000-000000000005') $$,
  'the purchase is attached, e-mail lower case, currency upper case');
select is((select tier::text from public.user_tiers where user_id = '00000000-0000-4000-8000-000000000005'), 'foundation', 'the buyer holds the tier');
select is(public.record_purchase('stripe', 'evt_sr_1', 'ord_sr_1', 'notier@example.com', 'foundation', 'foundation', 4900, 'USD', now()) ->> 'duplicate',
  'true', 'a replayed event changes nothing');
select is(public.record_purchase('stripe', 'evt_sr_2', 'ord_sr_2', 'stranger@example.com', 'ebook', 'ebook', 999, 'EUR', now()) ->> 'account',
  'none', 'a sale to an e-mail with no account is recorded unattached (the buyer is invited)');
select is(public.record_refund('stripe', 'evt_sr_3', 'ord_sr_1', now()) ->> 'found', 'true', 'records a refund');
select is((select tier from public.user_tiers where user_id = '00000000-0000-4000-8000-000000000005'), null, 'the refund takes the tier away');
select is(public.record_refund('stripe', 'evt_sr_4', 'ord_sr_unknown', now()) ->> 'found', 'false', 'a refund before its sale is remembered, not an error');
select throws_ok($$ select public.record_purchase('paypal', 'e', 'o', 'a@example.com', 'p', 'ebook', 1, 'EUR', now()) $$,
  '22023', 'unknown provider', 'an unknown provider is refused');
select throws_ok($$ select public.record_purchase('stripe', 'e5', 'o5', 'a@example.com', 'p', 'ebook', -1, 'EUR', now()) $$,
  '22023', 'amount and ISO 4217 currency are required', 'a negative amount is refused');

-- Not the staff RPCs: those are for a signed-in staff member.
select throws_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'complete', 'service') $$,
  '42501', 'permission denied for function grant_tier', 'grant_tier: refused');
select throws_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000001', 'service') $$,
  '42501', 'permission denied for function revoke_tier', 'revoke_tier: refused');
select throws_ok($$ select * from public.staff_list_members() $$,
  '42501', 'permission denied for function staff_list_members', 'staff_list_members: refused');
select throws_ok($$ select public.staff_member_detail('00000000-0000-4000-8000-000000000001') $$,
  '42501', 'permission denied for function staff_member_detail', 'staff_member_detail: refused');

-- Storage: row level security does not bind it; the storage server's own checks (bucket
-- limits on the upload routes) still do, outside the database.
select lives_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('resources', 'complete/sample/by-script.pdf', '{"mimetype": "application/pdf", "size": 10}') $$,
  'uploads a resource (npm run seed:files does)');
select lives_ok($$ insert into storage.objects (bucket_id, name, metadata) values ('avatars', '00000000-0000-4000-8000-000000000002/avatar.png', '{"mimetype": "image/png", "size": 10}') $$,
  'writes an avatar for anyone, with no storage.operation set');
select results_eq($$ delete from storage.objects where bucket_id = 'avatars' returning name $$,
  $$ values ('00000000-0000-4000-8000-000000000002/avatar.png') $$, 'deletes any object');

-- Realtime: a service-role channel receives every row of the published tables.
select is((select count(*)::int from public.profiles) + (select count(*)::int from public.user_tiers), 12,
  'selects every row of profiles and user_tiers');

reset role;
select * from finish();
rollback;
