-- pgTAP: every way back in for a returning buyer, and an erased member's purchases stay theirs
-- (migration 20261127010000_account_lifecycle.sql; docs/decisions/065-account-lifecycle-and-the-invitation-ledger.md).
-- Deletions are GoTrue's admin delete (`delete from auth.users`); an erasure is that delete after
-- the account function's log row (account_erasures, completed_at null). Needs the seed. One
-- transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(22);

/** An auth user as GoTrue writes one: confirmed or not, invited or not. */
create function pg_temp.new_user(p_id uuid, p_email text, p_confirmed boolean, p_invited boolean)
returns void language sql as $$
  insert into auth.users (
    instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
    raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
    confirmation_token, recovery_token, email_change_token_new, email_change,
    email_change_token_current, phone_change, phone_change_token, reauthentication_token
  ) values (
    '00000000-0000-0000-0000-000000000000', p_id, 'authenticated', 'authenticated', p_email, '',
    case when p_confirmed then now() end, case when p_invited then now() end,
    '{"provider": "email", "providers": ["email"]}'::jsonb, '{}'::jsonb, now(), now(), '', '', '', '', '', '', '', ''
  )
$$;

-- 1. A buyer who was invited, accepted, then deleted their own account, buys again.
select pg_temp.new_user('00000000-0000-4000-8000-0000000000c1', 'returning@example.com', false, true);
select public.record_purchase('stripe', 'evt_life_1', 'ord_life_1', 'returning@example.com', 'ebook', 'ebook', 1999, 'EUR', now());
select is((select status from public.buyer_invitations where email = 'returning@example.com'), 'pending',
  'an unconfirmed buyer''s sale queues the invitation');
update auth.users set email_confirmed_at = now() where id = '00000000-0000-4000-8000-0000000000c1';
select is((select status from public.buyer_invitations where email = 'returning@example.com'), 'accepted',
  'accepting it marks the invitation accepted');
insert into public.account_erasures (erased_user, requested_by, kind)
values ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000c1', 'self');
delete from auth.users where id = '00000000-0000-4000-8000-0000000000c1';
select is((select count(*)::int from public.buyer_invitations where email = 'returning@example.com'), 0,
  'deleting the account ends its address''s invitation row');
select public.record_purchase('stripe', 'evt_life_2', 'ord_life_2', 'returning@example.com', 'foundation', 'foundation', 4999, 'EUR', now());
select is((select status from public.buyer_invitations where email = 'returning@example.com'), 'pending',
  'buying again queues a new invitation');
select isnt(public.claim_invitation('returning@example.com'), null, 'and the webhook may send it');
select pg_temp.new_user('00000000-0000-4000-8000-0000000000c2', 'returning@example.com', true, true);
select results_eq(
  $$ select order_id, user_id from public.purchases where email = 'returning@example.com' order by order_id $$,
  $$ values ('ord_life_1'::text, null::uuid), ('ord_life_2'::text, '00000000-0000-4000-8000-0000000000c2'::uuid) $$,
  'accepted, the new account holds the new purchase, never the deleted one''s');
select is((select tier from public.user_tiers where user_id = '00000000-0000-4000-8000-0000000000c2'), 'foundation'::public.tier,
  'and its tier');

-- 2. An `accepted` row left with no confirmed account (an earlier deletion) blocks nothing.
insert into public.buyer_invitations (email, status) values ('left-accepted@example.com', 'accepted');
select public.record_purchase('stripe', 'evt_life_3', 'ord_life_3', 'left-accepted@example.com', 'ebook', 'ebook', 1999, 'EUR', now());
select is((select status from public.buyer_invitations where email = 'left-accepted@example.com'), 'pending',
  'a sale reopens an accepted row whose account is gone');
insert into public.buyer_invitations (email, status) values ('claim-accepted@example.com', 'accepted');
select isnt(public.claim_invitation('claim-accepted@example.com'), null,
  'the webhook may claim an accepted row whose address has no confirmed account');
select is(public.claim_invitation('ebook@example.com'), null, 'never one whose address has a confirmed account');
insert into public.buyer_invitations (email, status) values ('staff-accepted@example.com', 'accepted');
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select is(public.staff_resend_invitation('staff-accepted@example.com'), 'pending',
  'staff "Send again" works for a buyer whose account is gone');
select throws_ok($$ select public.staff_resend_invitation('nobody-at-all@example.com') $$, 'P0002',
  'no invitation waits for this address', 'and still says so when nothing waits');
reset role;

-- 3. Staff erase an invited buyer who never accepted: their purchase never attaches later.
select pg_temp.new_user('00000000-0000-4000-8000-0000000000d1', 'erased@example.com', false, true);
select public.record_purchase('stripe', 'evt_life_4', 'ord_life_4', 'erased@example.com', 'complete', 'complete', 9999, 'EUR', now());
insert into public.account_erasures (erased_user, requested_by, kind, reason)
values ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-000000000006', 'staff', 'Asked by letter');
delete from auth.users where id = '00000000-0000-4000-8000-0000000000d1';
select isnt((select account_removed_at from public.purchases where order_id = 'ord_life_4'), null,
  'the erased buyer''s unattached purchase is marked as from a removed account');
select is((select count(*)::int from public.buyer_invitations where email = 'erased@example.com'), 0,
  'and nothing is sent to the address any more');
select pg_temp.new_user('00000000-0000-4000-8000-0000000000d2', 'erased@example.com', true, false);
select is((select user_id from public.purchases where order_id = 'ord_life_4'), null::uuid,
  'a later account confirmed at that address does not inherit it');
select is((select count(*)::int from public.user_tiers where user_id = '00000000-0000-4000-8000-0000000000d2' and tier is not null), 0,
  'nor its tier');

-- 4. An unconfirmed squatter's account removed without an erasure: the owner keeps their sale.
select pg_temp.new_user('00000000-0000-4000-8000-0000000000e1', 'owner@example.com', false, false);
select public.record_purchase('stripe', 'evt_life_5', 'ord_life_5', 'owner@example.com', 'ebook', 'ebook', 1999, 'EUR', now());
update public.buyer_invitations set status = 'sent', sent_at = now() where email = 'owner@example.com';
delete from auth.users where id = '00000000-0000-4000-8000-0000000000e1';
select is((select account_removed_at from public.purchases where order_id = 'ord_life_5'), null,
  'removing a squatter''s unconfirmed account leaves the address''s purchase open');
select is((select status from public.buyer_invitations where email = 'owner@example.com'), 'pending',
  'and queues the owner''s invitation again (the link went to the removed account)');
select pg_temp.new_user('00000000-0000-4000-8000-0000000000e2', 'owner@example.com', true, true);
select is((select user_id from public.purchases where order_id = 'ord_life_5'), '00000000-0000-4000-8000-0000000000e2'::uuid,
  'the owner, once confirmed, holds the purchase');
select is((select status from public.buyer_invitations where email = 'owner@example.com'), 'accepted',
  'and their invitation is accepted');

-- 5. A confirmed member deleted without an erasure keeps today's rule: only what was attached.
select public.record_purchase('stripe', 'evt_life_6', 'ord_life_6', 'foundation@example.com', 'ebook', 'ebook', 1999, 'EUR', now());
delete from auth.users where id = '00000000-0000-4000-8000-000000000002';
select isnt((select account_removed_at from public.purchases where order_id = 'ord_life_6'), null,
  'a deleted member''s attached purchase is marked');
select is((select count(*)::int from public.buyer_invitations where email = 'foundation@example.com'), 0,
  'and no invitation is left for the address');

select * from finish();
rollback;
