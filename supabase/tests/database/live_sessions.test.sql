-- pgTAP, actor by actor: live sessions and access with an end date. A tier arriving (a staff
-- grant, a purchase, an upgrade) grants its timed benefits from then, cumulatively; a refund or
-- a revoke ends them at once, audited; a same-tier recompute never brings back an access staff
-- ended. The community link and the join links reach only a member whose access lasts: never
-- anon, a lower tier or an ended access, not by select, not through member_benefits() or
-- member_live_sessions(); session_join_link() only in its window. Staff extend and end with a
-- reason, audited. Reminders and notices are enqueued once each; only service_role claims them.
-- Needs the seed (ebook 1, foundation 2, accelerated 3, complete 4, notier 5, staff 6).
-- Time is simulated by writing dates as postgres. One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(123);

-- The counts below start from no sessions and no mail.
delete from public.member_mail;
delete from public.live_sessions;

-- The sessions (as staff would schedule them; the times around now):
--   a001 circle in 10 minutes (open to join), a002 circle in an hour (not yet), a003 Q&A in 30
--   minutes, a004 Q&A in two days, a005 a circle in 5 minutes that was cancelled, a006 a circle
--   two days ago with its recording.
insert into public.live_sessions (id, benefit, title, starts_at, minutes, join_url, recording_path, cancelled_at) values
  ('00000000-0000-4000-8000-00000000a001', 'circle', 'Circle in ten minutes', now() + interval '10 minutes', 60,
   'https://meet.example.com/circle-soon', null, null),
  ('00000000-0000-4000-8000-00000000a002', 'circle', 'Circle in an hour', now() + interval '1 hour', 60,
   'https://meet.example.com/circle-later', null, null),
  ('00000000-0000-4000-8000-00000000a003', 'qa', 'Q&A in half an hour', now() + interval '30 minutes', 60,
   'https://meet.example.com/qa-soon', null, null),
  ('00000000-0000-4000-8000-00000000a004', 'qa', 'Q&A in two days', now() + interval '2 days', 60,
   'https://meet.example.com/qa-later', null, null),
  ('00000000-0000-4000-8000-00000000a005', 'circle', 'Cancelled circle', now() + interval '5 minutes', 60,
   'https://meet.example.com/circle-cancelled', null, now() - interval '1 day'),
  ('00000000-0000-4000-8000-00000000a006', 'circle', 'Circle two days ago', now() - interval '2 days', 60,
   'https://meet.example.com/circle-past', 'accelerated/circle-recordings/circle-1.mp3', null);

-- The seed's tiers (staff grants) -------------------------------------------------------------
select set_eq($$ select benefit from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000003' $$,
  array['community', 'circle'], 'seed: accelerated holds community and circle');
select set_eq($$ select benefit from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000004' $$,
  array['community', 'circle', 'vip_community', 'qa'], 'seed: complete holds all four (cumulative)');
select is_empty($$ select 1 from public.member_benefits where user_id in ('00000000-0000-4000-8000-000000000001',
  '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000005') $$,
  'seed: ebook, foundation and no tier hold no timed benefit');

-- Staff grant a tier, then upgrade it ---------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select lives_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'accelerated', 'Scholarship') $$,
  'staff: grant accelerated to a member with no tier');
reset role;
select results_eq(
  $$ select benefit, starts_at, ends_at from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000005' order by benefit $$,
  $$ values ('circle', now(), now() + interval '90 days'), ('community', now(), now() + interval '90 days') $$,
  'accelerated granted: community (90 days) and circle, from now');
select results_eq(
  $$ select benefit, action, old_ends_at, new_ends_at, reason, changed_by from public.benefit_audit
     where user_id = '00000000-0000-4000-8000-000000000005' order by benefit $$,
  $$ values ('circle', 'granted', null::timestamptz, now() + interval '90 days', 'Scholarship', '00000000-0000-4000-8000-000000000006'::uuid),
            ('community', 'granted', null::timestamptz, now() + interval '90 days', 'Scholarship', '00000000-0000-4000-8000-000000000006'::uuid) $$,
  'accelerated granted: each grant audited, with the grant''s reason and the staff member');

-- A month on: the accelerated benefits started 30 days ago and have 60 days left.
update public.member_benefits set starts_at = now() - interval '30 days', ends_at = now() + interval '60 days'
where user_id = '00000000-0000-4000-8000-000000000005';
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select lives_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000005', 'complete', 'Upgrade to Complete') $$,
  'staff: upgrade the member to complete');
reset role;
select results_eq(
  $$ select benefit, starts_at, ends_at from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000005' order by benefit $$,
  $$ values ('circle', now() - interval '30 days', now() + interval '60 days'),
            ('community', now() - interval '30 days', now() + interval '60 days'),
            ('qa', now(), now() + interval '183 days'),
            ('vip_community', now(), now() + interval '183 days') $$,
  'upgrade: VIP community and Q&A start at the upgrade; community and circle keep their dates');
select is((select count(*)::int from public.benefit_audit where user_id = '00000000-0000-4000-8000-000000000005' and action = 'granted'),
  4, 'upgrade: only the two new benefits are granted');

-- The purchase webhook: a sale, then its refund (service_role) --------------------------------
set local role service_role;
select set_config('request.jwt.claims', '{"role": "service_role"}', true);
select is(public.record_purchase('stripe', 'evt_ls_1', 'ord_ls_1', 'ebook@example.com', 'Complete Transformation', 'complete',
  149500, 'USD', now()) ->> 'account', 'confirmed', 'webhook: the ebook member buys Complete');
reset role;
select set_eq($$ select benefit from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000001'
                 and starts_at <= now() and now() < ends_at $$,
  array['community', 'circle', 'vip_community', 'qa'], 'purchase: Complete grants all four benefits from now');
set local role service_role;
select set_config('request.jwt.claims', '{"role": "service_role"}', true);
select is(public.record_refund('stripe', 'evt_ls_2', 'ord_ls_1', now()) ->> 'found', 'true', 'webhook: the sale is refunded');
reset role;
select is((select count(*)::int from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000001' and ends_at <= now()),
  4, 'refund: every benefit ends at once');
select results_eq(
  $$ select benefit, action, new_ends_at from public.benefit_audit
     where user_id = '00000000-0000-4000-8000-000000000001' and action <> 'granted' order by benefit $$,
  $$ values ('circle', 'refunded', now()), ('community', 'refunded', now()), ('qa', 'refunded', now()),
            ('vip_community', 'refunded', now()) $$,
  'refund: each end audited as refunded');

-- Staff revoke the scholarship ----------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select lives_ok($$ select public.revoke_tier('00000000-0000-4000-8000-000000000005', 'Scholarship withdrawn') $$,
  'staff: revoke the member''s grant');
reset role;
select is((select count(*)::int from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000005' and ends_at <= now()),
  4, 'revoke: every benefit ends at once');
select results_eq(
  $$ select action, reason, changed_by, count(*)::int from public.benefit_audit
     where user_id = '00000000-0000-4000-8000-000000000005' and action <> 'granted' group by 1, 2, 3 $$,
  $$ values ('revoked', 'Scholarship withdrawn', '00000000-0000-4000-8000-000000000006'::uuid, 4) $$,
  'revoke: each end audited as revoked, with the reason and the staff member');

-- Staff extend and end an access --------------------------------------------------------------
select set_config('test.vip_end', (select ends_at::text from public.member_benefits
  where user_id = '00000000-0000-4000-8000-000000000004' and benefit = 'vip_community'), true);
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select is(public.staff_change_benefit('00000000-0000-4000-8000-000000000004', 'vip_community', 'extend', 30, 'Missed two calls'),
  current_setting('test.vip_end')::timestamptz + interval '30 days', 'staff: extend by 30 days from the current end');
select is(public.staff_change_benefit('00000000-0000-4000-8000-000000000004', 'community', 'end', null, 'Asked to leave the group'),
  now(), 'staff: end an access now');
select throws_ok($$ select public.staff_change_benefit('00000000-0000-4000-8000-000000000004', 'community', 'end', null, 'Again') $$,
  '22023', null, 'staff: an access already ended cannot be ended again');
select throws_ok($$ select public.staff_change_benefit('00000000-0000-4000-8000-000000000004', 'vip_community', 'extend', 5, '  ') $$,
  '22023', null, 'staff: a change needs a reason');
select throws_ok($$ select public.staff_change_benefit('00000000-0000-4000-8000-000000000004', 'vip_community', 'extend', 0, 'None') $$,
  '22023', null, 'staff: extend by at least a day');
select lives_ok($$ select public.grant_tier('00000000-0000-4000-8000-000000000004', 'complete', 'Same tier, new grant') $$,
  'staff: grant the same tier again');
select is(public.staff_member_benefits('00000000-0000-4000-8000-000000000004') -> 'audit' -> 0 ->> 'reason', 'Asked to leave the group',
  'staff: read a member''s audit, latest first');
reset role;
select is((select ends_at from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000004' and benefit = 'vip_community'),
  current_setting('test.vip_end')::timestamptz + interval '30 days', 'extend: the access ends 30 days later');
select is((select ends_at from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000004' and benefit = 'community'),
  now(), 'end: the access ends now');
select results_eq(
  $$ select action, old_ends_at, new_ends_at, reason, changed_by from public.benefit_audit
     where user_id = '00000000-0000-4000-8000-000000000004' and action in ('extended', 'ended') order by id $$,
  $$ values ('extended', current_setting('test.vip_end')::timestamptz, current_setting('test.vip_end')::timestamptz + interval '30 days',
             'Missed two calls', '00000000-0000-4000-8000-000000000006'::uuid),
            ('ended', (select new_ends_at from public.benefit_audit where user_id = '00000000-0000-4000-8000-000000000004'
                        and benefit = 'community' and action = 'granted'), now(),
             'Asked to leave the group', '00000000-0000-4000-8000-000000000006'::uuid) $$,
  'extend and end: each audited with the old and new end, the reason and the staff member');
-- The same tier written again (a recompute that finds the tier unchanged, or a rewrite of it).
update public.user_tiers set tier = tier where user_id = '00000000-0000-4000-8000-000000000004';
select private.recompute_user_tier('00000000-0000-4000-8000-000000000004', 'system', 'pgTAP', true);
select is((select ends_at from public.member_benefits where user_id = '00000000-0000-4000-8000-000000000004' and benefit = 'community'),
  now(), 'a same-tier recompute leaves the access staff ended, ended');
select is((select count(*)::int from public.benefit_audit where user_id = '00000000-0000-4000-8000-000000000004' and action = 'granted'),
  4, 'a same-tier recompute grants nothing');

-- Simulated time: the refunded member's benefits had run 10 days (so the circle two days ago
-- was theirs); the accelerated member's circle has run two months and their community ends in
-- 6 days.
update public.member_benefits set starts_at = now() - interval '10 days' where user_id = '00000000-0000-4000-8000-000000000001';
update public.member_benefits set starts_at = now() - interval '60 days'
where user_id = '00000000-0000-4000-8000-000000000003' and benefit = 'circle';
update public.member_benefits set ends_at = now() + interval '6 days'
where user_id = '00000000-0000-4000-8000-000000000003' and benefit = 'community';

-- Staff: the links and the sessions -----------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select is((public.staff_save_timed_benefit('community', 90, 'https://community.example.com/g/authors')).link,
  'https://community.example.com/g/authors', 'staff: set the community''s private link');
select is((select what from public.catalog_audit order by id desc limit 1), 'benefit', 'staff: the change is in the catalog audit');
select is((public.staff_save_timed_benefit('vip_community', 183, 'https://community.example.com/g/vip')).link,
  'https://community.example.com/g/vip', 'staff: set the VIP community''s private link');
select isnt(public.staff_save_live_session(null, 'circle', 'Chapter outlines', now() + interval '20 hours', 60,
  'https://meet.example.com/circle-tomorrow', 'Bring your outline.', null), null, 'staff: schedule a circle');
select throws_ok($$ select public.staff_save_live_session(null, 'circle', 'Bad link', now(), 60, 'http://meet.example.com/x', null, null) $$,
  '23514', null, 'staff: a join link must be https');
select is((select e ->> 'join_url' from jsonb_array_elements(public.staff_live_overview() -> 'sessions') e
           where e ->> 'id' = '00000000-0000-4000-8000-00000000a001'),
  'https://meet.example.com/circle-soon', 'staff: the overview shows the join links');
select is((select e -> 'holders' from jsonb_array_elements(public.staff_live_overview() -> 'sessions') e
           where e ->> 'id' = '00000000-0000-4000-8000-00000000a001'),
  '["accelerated@example.com", "complete@example.com", "staff@example.com"]'::jsonb,
  'staff: and who holds each session (not the refunded, revoked or lower-tier members)');
select is(public.staff_live_overview() -> 'ending',
  jsonb_build_array(jsonb_build_object('user_id', '00000000-0000-4000-8000-000000000003', 'email', 'accelerated@example.com',
    'benefit', 'community', 'label', 'Community access', 'ends_at', now() + interval '6 days')),
  'staff: the accesses ending this week');
select is((select count(distinct user_id)::int from public.member_benefits), 5,
  'staff: read every member''s benefits (ebook, accelerated, complete, no tier, staff)');
reset role;
select set_config('test.s5', (select id::text from public.live_sessions where title = 'Chapter outlines'), true);

-- Anyone signed out ---------------------------------------------------------------------------
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select throws_ok('select * from public.timed_benefits', '42501', null, 'anon: reads no benefit links');
select throws_ok('select * from public.live_sessions', '42501', null, 'anon: reads no sessions');
select throws_ok('select * from public.member_benefits', '42501', null, 'anon: reads no member''s benefits');
select throws_ok('select * from public.benefit_audit', '42501', null, 'anon: reads no audit');
select throws_ok('select * from public.member_mail', '42501', null, 'anon: reads no mail');
select throws_ok('select public.member_benefits()', '42501', null, 'anon: has no benefits');
select throws_ok('select public.member_live_sessions()', '42501', null, 'anon: has no sessions');
select throws_ok($$ select public.session_join_link('00000000-0000-4000-8000-00000000a001') $$, '42501', null,
  'anon: gets no join link');
select throws_ok('select public.claim_member_mail(10)', '42501', null, 'anon: cannot claim mail');
reset role;

-- A lower tier (foundation) -------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select throws_ok('select * from public.timed_benefits', '42501', null, 'foundation: reads no benefit links');
select throws_ok('select * from public.live_sessions', '42501', null, 'foundation: reads no sessions');
select is_empty('select * from public.member_benefits', 'foundation: holds no benefit, reads nobody else''s');
select is(public.member_benefits(), '[]'::jsonb, 'foundation: no benefits, no link');
select is(public.member_live_sessions(), '[]'::jsonb, 'foundation: no sessions');
select throws_ok($$ select public.session_join_link('00000000-0000-4000-8000-00000000a001') $$, '42501', null,
  'foundation: gets no join link to a circle');
select throws_ok($$ select public.staff_change_benefit('00000000-0000-4000-8000-000000000002', 'community', 'extend', 90, 'me') $$,
  '42501', null, 'foundation: cannot give themselves access');
reset role;

-- A refunded member (their access ended) ------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select throws_ok('select * from public.timed_benefits', '42501', null, 'refunded: reads no benefit links');
select throws_ok('select * from public.live_sessions', '42501', null, 'refunded: reads no sessions');
select is((select count(*)::int from public.member_benefits where ends_at <= now()), 4, 'refunded: reads their four ended benefits');
select is(jsonb_array_length(public.member_benefits()), 4, 'refunded: member_benefits() lists the four');
select is((select count(*)::int from jsonb_array_elements(public.member_benefits()) e
           where (e ->> 'active')::boolean or e ->> 'link' is not null), 0, 'refunded: none active, every link null');
select ok(strpos(public.member_benefits()::text, 'community.example.com') = 0, 'refunded: no community link anywhere in it');
select is((select jsonb_agg(e ->> 'id') from jsonb_array_elements(public.member_live_sessions()) e),
  '["00000000-0000-4000-8000-00000000a006"]'::jsonb, 'refunded: only the past circle they held');
select is_empty($$ select 1 from jsonb_array_elements(public.member_live_sessions()) e where e ? 'join_url' $$,
  'refunded: no join_url key in their sessions');
select ok(strpos(public.member_live_sessions()::text, 'meet.example.com') = 0, 'refunded: no join link in their sessions');
select is((select e -> 'recording_path' from jsonb_array_elements(public.member_live_sessions()) e), 'null'::jsonb,
  'refunded: no recording once their access ended');
select throws_ok($$ select public.session_join_link('00000000-0000-4000-8000-00000000a001') $$, '42501', null,
  'refunded: gets no join link to a circle open now');
reset role;

-- A member whose community staff ended (complete) ---------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000004", "role": "authenticated"}', true);
select is((select e - 'starts_at' - 'ends_at' from jsonb_array_elements(public.member_benefits()) e where e ->> 'benefit' = 'community'),
  '{"benefit": "community", "label": "Community access", "active": false, "link": null}'::jsonb,
  'ended by staff: the community listed as ended, with no link');
select is((select e ->> 'link' from jsonb_array_elements(public.member_benefits()) e where e ->> 'benefit' = 'vip_community'),
  'https://community.example.com/g/vip', 'ended by staff: the VIP link, which lasts');
select throws_ok($$ select public.session_join_link('00000000-0000-4000-8000-00000000a003') $$, '22023', null,
  'complete: the Q&A link is not out 30 minutes before');
reset role;

-- A holder (accelerated) ----------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000003", "role": "authenticated"}', true);
select throws_ok('select * from public.timed_benefits', '42501', null, 'accelerated: reads no benefit links directly');
select throws_ok('select * from public.live_sessions', '42501', null, 'accelerated: reads no sessions directly');
select throws_ok('select * from public.benefit_audit', '42501', null, 'accelerated: reads no audit');
select throws_ok('select * from public.member_mail', '42501', null, 'accelerated: reads no mail');
select set_eq('select benefit from public.member_benefits', array['community', 'circle'], 'accelerated: reads their own benefits only');
select throws_ok($$ update public.member_benefits set ends_at = now() + interval '10 years' $$, '42501', null,
  'accelerated: cannot lengthen their access');
select is((select e ->> 'link' from jsonb_array_elements(public.member_benefits()) e where e ->> 'benefit' = 'community'),
  'https://community.example.com/g/authors', 'accelerated: the community link while the access lasts');
select is((select e ->> 'ends_at' from jsonb_array_elements(public.member_benefits()) e where e ->> 'benefit' = 'community')::timestamptz,
  now() + interval '6 days', 'accelerated: and when it ends');
select set_eq($$ select e ->> 'title' from jsonb_array_elements(public.member_live_sessions()) e $$,
  array['Circle in ten minutes', 'Circle in an hour', 'Cancelled circle', 'Circle two days ago', 'Chapter outlines'],
  'accelerated: the circles, none of the Q&A calls');
select is_empty($$ select 1 from jsonb_array_elements(public.member_live_sessions()) e where e ? 'join_url' $$,
  'accelerated: no join_url key in the list');
select ok(not jsonb_path_exists(public.member_live_sessions(), '$.** ? (@ == $u)',
  jsonb_build_object('u', 'https://meet.example.com/circle-soon')), 'accelerated: no value equal to a join link in the list');
select ok(strpos(public.member_live_sessions()::text, 'meet.example.com') = 0, 'accelerated: no join link anywhere in the list');
select results_eq(
  $$ select e ->> 'title', (e ->> 'joinable')::boolean, (e ->> 'cancelled')::boolean from jsonb_array_elements(public.member_live_sessions()) e
     where e ->> 'title' in ('Circle in ten minutes', 'Circle in an hour', 'Cancelled circle') order by e ->> 'starts_at' $$,
  $$ values ('Cancelled circle', false, true), ('Circle in ten minutes', true, false), ('Circle in an hour', false, false) $$,
  'accelerated: which are open to join, which cancelled');
select is((select e ->> 'recording_path' from jsonb_array_elements(public.member_live_sessions()) e where e ->> 'title' = 'Circle two days ago'),
  'accelerated/circle-recordings/circle-1.mp3', 'accelerated: the recording of a past circle');
select is(public.session_join_link('00000000-0000-4000-8000-00000000a001'), 'https://meet.example.com/circle-soon',
  'accelerated: the join link 10 minutes before the start');
select throws_ok($$ select public.session_join_link('00000000-0000-4000-8000-00000000a002') $$, '22023', null,
  'accelerated: no join link an hour before');
select throws_ok($$ select public.session_join_link('00000000-0000-4000-8000-00000000a005') $$, '22023', null,
  'accelerated: no join link to a cancelled circle');
select throws_ok($$ select public.session_join_link('00000000-0000-4000-8000-00000000a006') $$, '22023', null,
  'accelerated: no join link after the end');
select throws_ok($$ select public.session_join_link('00000000-0000-4000-8000-00000000a003') $$, '42501', null,
  'accelerated: no join link to a Q&A call (Complete only)');
select throws_ok($$ select public.staff_change_benefit('00000000-0000-4000-8000-000000000003', 'community', 'extend', 90, 'me') $$,
  '42501', null, 'accelerated: cannot extend their access');
select throws_ok($$ select public.staff_member_benefits('00000000-0000-4000-8000-000000000004') $$, '42501', null,
  'accelerated: cannot read another member''s access');
select throws_ok('select public.staff_live_overview()', '42501', null, 'accelerated: cannot read the staff overview');
select throws_ok($$ select public.staff_save_live_session(null, 'circle', 'Mine', now(), 60, 'https://meet.example.com/x', null, null) $$,
  '42501', null, 'accelerated: cannot schedule a session');
select throws_ok($$ select public.staff_cancel_live_session('00000000-0000-4000-8000-00000000a002') $$, '42501', null,
  'accelerated: cannot cancel a session');
select throws_ok($$ select public.staff_save_timed_benefit('community', 3650, null) $$, '42501', null,
  'accelerated: cannot change a benefit');
select throws_ok('select public.claim_member_mail(10)', '42501', null, 'accelerated: cannot claim mail');
select throws_ok($$ select public.finish_member_mail(gen_random_uuid(), 'sent', null, '{60}') $$, '42501', null,
  'accelerated: cannot finish mail');
select throws_ok($$ select private.enqueue_member_mail(now()) $$, '42501', null, 'accelerated: cannot enqueue mail');
reset role;

-- The reminders (the scheduled run, as postgres) ----------------------------------------------
-- Due now: the accelerated community ending in 6 days (1); the circles in 10 minutes, in an hour
-- and in 20 hours (3 holders each); the Q&A call in 30 minutes (2 holders). 12 in all.
select is(private.enqueue_member_mail(now()), 12, 'enqueue: every reminder due now');
select is(private.enqueue_member_mail(now()), 0, 'enqueue: a second run adds nothing');
select is((select count(*)::int from public.member_mail), 12, 'enqueue: each mail once');
select results_eq(
  $$ select user_id, kind, payload ->> 'benefit', payload ->> 'days' from public.member_mail where kind = 'access_ends' $$,
  $$ values ('00000000-0000-4000-8000-000000000003'::uuid, 'access_ends', 'community', '7') $$,
  'enqueue: an access ending in 6 days gets the 7-day reminder only');
select results_eq(
  $$ select payload ->> 'hours', count(*)::int from public.member_mail
     where kind = 'session_soon' and payload ->> 'session_id' = '00000000-0000-4000-8000-00000000a003' group by 1 $$,
  $$ values ('1', 2) $$, 'enqueue: a session 30 minutes away gets the 1-hour reminder only, once per holder');
select results_eq(
  $$ select payload ->> 'hours', count(*)::int from public.member_mail
     where kind = 'session_soon' and payload ->> 'session_id' = current_setting('test.s5') group by 1 $$,
  $$ values ('24', 3) $$, 'enqueue: a session 20 hours away gets the 24-hour reminder only');
select is_empty($$ select 1 from public.member_mail where payload ->> 'session_id' in ('00000000-0000-4000-8000-00000000a004',
  '00000000-0000-4000-8000-00000000a005', '00000000-0000-4000-8000-00000000a006') $$,
  'enqueue: nothing for a session two days away, cancelled or over');
select is_empty($$ select 1 from public.member_mail where user_id in ('00000000-0000-4000-8000-000000000001',
  '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000005') $$,
  'enqueue: nothing to the refunded, the lower tier or the revoked');
select is(private.enqueue_member_mail(now() + interval '5 days 12 hours'), 1, 'enqueue: a run 5½ days on adds the 1-day reminder');
select results_eq($$ select payload ->> 'days' from public.member_mail where kind = 'access_ends' order by 1 $$,
  $$ values ('1'), ('7') $$, 'enqueue: the 1-day reminder, under its own key');

-- Staff move and cancel sessions: one notice per holder, once ---------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select lives_ok($$ select public.staff_cancel_live_session('00000000-0000-4000-8000-00000000a004') $$, 'staff: cancel the Q&A call');
select throws_ok($$ select public.staff_cancel_live_session('00000000-0000-4000-8000-00000000a004') $$, '22023', null,
  'staff: a cancelled session cannot be cancelled again');
select is(public.staff_save_live_session(current_setting('test.s5')::uuid, 'circle', 'Chapter outlines', now() + interval '22 hours', 60,
  'https://meet.example.com/circle-tomorrow', 'Bring your outline.', null), current_setting('test.s5')::uuid, 'staff: move the circle');
select throws_ok($$ select public.staff_save_live_session('00000000-0000-4000-8000-00000000a004', 'qa', 'Back', now() + interval '3 days', 60,
  'https://meet.example.com/qa-later', null, null) $$, '22023', null, 'staff: a cancelled session cannot be edited');
reset role;
select set_eq($$ select user_id from public.member_mail where kind = 'session_cancelled' $$,
  $$ values ('00000000-0000-4000-8000-000000000004'::uuid), ('00000000-0000-4000-8000-000000000006'::uuid) $$,
  'cancel: a notice to each holder of the Q&A calls');
select is((select count(*)::int from public.member_mail where kind = 'session_cancelled'), 2, 'cancel: one each');
select is(private.enqueue_session_notice('00000000-0000-4000-8000-00000000a004', 'session_cancelled', null), 0,
  'cancel: the notice enqueued again adds nothing');
select results_eq(
  $$ select count(*)::int, min(payload ->> 'old_starts_at')::timestamptz from public.member_mail
     where kind = 'session_moved' and payload ->> 'session_id' = current_setting('test.s5') $$,
  $$ values (3, now() + interval '20 hours') $$, 'move: a notice to each holder of the circle, with the old time');
select is(private.enqueue_member_mail(now()), 3, 'move: the new time makes new 24-hour reminders');

-- The scheduled run (service_role) claims and finishes ----------------------------------------
select set_config('test.pending', (select count(*)::text from public.member_mail where status = 'pending'), true);
set local role service_role;
select set_config('request.jwt.claims', '{"role": "service_role"}', true);
select is((select count(*)::int from public.claim_member_mail(100)), current_setting('test.pending')::int,
  'service_role: claims every mail due');
select is_empty($$ select 1 from public.member_mail where status <> 'sending' $$, 'service_role: each claimed is sending');
select is(public.finish_member_mail((select id from public.member_mail where kind = 'access_ends' and payload ->> 'days' = '7'),
  'sent', null, '{60,300}'), 'sent', 'service_role: a mail sent');
select is(public.finish_member_mail((select id from public.member_mail where kind = 'access_ends' and payload ->> 'days' = '7'),
  'sent', null, '{60,300}'), 'not_claimed', 'service_role: finished twice, it is no longer claimed');
select is(public.finish_member_mail((select id from public.member_mail where kind = 'session_cancelled' order by dedupe_key limit 1),
  'retry', 'mail API 503', '{60,300}'), 'pending', 'service_role: an outage puts it back after the backoff');
select is((select next_attempt_at from public.member_mail where kind = 'session_cancelled' order by dedupe_key limit 1),
  now() + interval '60 seconds', 'service_role: due again after the first backoff');
select is((select count(*)::int from public.claim_member_mail(100)), 0, 'service_role: nothing more is due now');
select throws_ok($$ select public.staff_change_benefit('00000000-0000-4000-8000-000000000003', 'community', 'end', null, 'x') $$,
  '42501', null, 'service_role: is not staff');
reset role;

select * from finish();
rollback;
