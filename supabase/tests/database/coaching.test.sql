-- pgTAP, actor by actor: one-to-one coaching. Only the booking webhook (service_role) records
-- bookings, idempotently; a member reads only their own bookings and the notes meant for them,
-- never staff's private notes; only staff change allowances, adjustments, assignments and notes;
-- anonymous callers read nothing. Then the count: tier plus adjustments, a cancellation or a
-- reschedule gives the session back, over the allowance is flagged, a refund ends it.
-- Needs the seed (foundation 2, accelerated 3, complete 4, notier 5, staff 6). One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(37);

-- Each actor's counts below start from no bookings (the seed books one for the demo member).
delete from public.coaching_bookings;

-- The booking webhook (service_role) ----------------------------------------------------------
set local role service_role;
select is(public.record_booking('calcom', 'created', 'cal-1', null, '00000000-0000-4000-8000-000000000003',
  'someone-else@example.com', 'Alex', now() + interval '2 days', now() + interval '2 days 90 minutes',
  'https://cal.com/video/abc', now()) ->> 'user_id', '00000000-0000-4000-8000-000000000003',
  'webhook: a booking is tied to the member whose id its link carried');
select is(public.record_booking('calcom', 'created', 'cal-1', null, '00000000-0000-4000-8000-000000000003',
  'accelerated@example.com', 'Alex', now() + interval '2 days', now() + interval '2 days 90 minutes',
  'https://cal.com/video/abc', now()) ->> 'status', 'booked', 'webhook: the same delivery again changes nothing');
select is((select count(*)::int from public.coaching_bookings where provider_booking_id = 'cal-1'), 1, 'webhook: recorded once');
select is(public.record_booking('calendly', 'created', 'https://api.calendly.com/i/1', null, null,
  'ACCELERATED@example.com', 'Alex', now() - interval '3 days', now() - interval '3 days' + interval '90 minutes',
  null, now()) ->> 'user_id', '00000000-0000-4000-8000-000000000003',
  'webhook: without an id, a confirmed account''s e-mail (any case) ties it');
select is(public.record_booking('calendly', 'created', 'https://api.calendly.com/i/2', null, 'not-a-uuid',
  'stranger@example.com', 'Stranger', now() + interval '1 day', now() + interval '1 day 90 minutes', null, now()) ->> 'user_id',
  null, 'webhook: a booking that matches no member waits unmatched');
select is(public.record_booking('calcom', 'created', 'cal-3', null, '00000000-0000-4000-8000-000000000003',
  'accelerated@example.com', 'Alex', now() + interval '5 days', now() + interval '5 days 90 minutes', null, now()) ->> 'over_allowance',
  'true', 'webhook: a third booking of a two-session member is recorded and flagged');
select is(public.record_booking('calcom', 'cancelled', 'cal-3', null, null, 'accelerated@example.com', 'Alex',
  null, null, null, now()) ->> 'status', 'cancelled', 'webhook: a cancellation gives the session back');
select is(public.record_booking('calcom', 'created', 'cal-3', null, null, 'accelerated@example.com', 'Alex',
  now(), now(), null, now()) ->> 'status', 'cancelled', 'webhook: a late creation does not bring a cancelled booking back');
select is(public.record_booking('calendly', 'rescheduled', 'https://api.calendly.com/i/1', null, null,
  'accelerated@example.com', 'Alex', null, null, null, now()) ->> 'status', 'rescheduled', 'webhook: the old half of a reschedule');
select is(public.record_booking('calendly', 'created', 'https://api.calendly.com/i/1b', 'https://api.calendly.com/i/1', null,
  'accelerated@example.com', 'Alex', now() + interval '9 days', now() + interval '9 days 90 minutes', null, now()) ->> 'over_allowance',
  'false', 'webhook: the new half of a reschedule is not over the allowance');
select throws_ok($$ select public.record_booking('calcom', 'paid', 'x', null, null, null, null, null, null, null, now()) $$,
  '22023', null, 'webhook: an unknown event is refused');
select throws_ok($$ select public.staff_adjust_coaching('00000000-0000-4000-8000-000000000003', 1, 'gift') $$, '42501', null,
  'service_role: is not staff');
reset role;

-- Anyone signed out ---------------------------------------------------------------------------
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select throws_ok('select * from public.coaching_bookings', '42501', null, 'anon: reads no bookings');
select throws_ok('select * from public.coaching_allowances', '42501', null, 'anon: reads no allowances');
select throws_ok('select * from public.coaching_private_notes', '42501', null, 'anon: reads no notes');
select throws_ok('select public.member_coaching()', '42501', null, 'anon: has no coaching');
reset role;

-- Staff ---------------------------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select lives_ok($$ select public.staff_save_booking_notes((select id from public.coaching_bookings where provider_booking_id = 'https://api.calendly.com/i/1'),
  'Great start: outline chapter 2.', 'Seemed anxious about deadlines.') $$, 'staff: write the notes of a session');
select is(public.staff_adjust_coaching('00000000-0000-4000-8000-000000000003', 1, 'No-show given back'), 3, 'staff: give a session, with a reason');
select throws_ok($$ select public.staff_adjust_coaching('00000000-0000-4000-8000-000000000003', 1, '  ') $$, '22023', null,
  'staff: an adjustment needs a reason');
select is(public.staff_member_coaching('00000000-0000-4000-8000-000000000003'), '{"sessions": 3, "used": 2, "left": 1}'::jsonb,
  'staff: a member''s sessions, used and left');
select is((public.staff_assign_booking((select id from public.coaching_bookings where provider_booking_id = 'https://api.calendly.com/i/2'),
  '00000000-0000-4000-8000-000000000003')).user_id, '00000000-0000-4000-8000-000000000003'::uuid, 'staff: assign an unmatched booking');
select is((public.staff_save_coaching('complete', 8, 60, 'https://cal.com/owner/extended')).sessions, 8, 'staff: change a tier''s coaching');
select is((select what from public.catalog_audit order by id desc limit 1), 'coaching', 'staff: the change is audited');
select is((select count(*)::int from public.coaching_private_notes), 1, 'staff: read private notes');
reset role;

-- The member (accelerated) --------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000003", "role": "authenticated"}', true);
select is(public.member_coaching() - 'booking_url' - 'name', '{"sessions": 3, "used": 3, "left": 0, "minutes": 90, "email": "accelerated@example.com"}'::jsonb,
  'accelerated: 2 + 1 given, 3 held (the assigned one counts)');
select is((select count(*)::int from public.coaching_bookings), 5, 'accelerated: reads their own bookings only');
select is((select member_note from public.coaching_bookings where provider_booking_id = 'https://api.calendly.com/i/1'),
  'Great start: outline chapter 2.', 'accelerated: reads the note meant for them');
select is_empty('select * from public.coaching_private_notes', 'accelerated: never reads staff''s private notes');
select is((select count(*)::int from public.coaching_adjustments), 1, 'accelerated: reads their own adjustments');
select throws_ok($$ select public.staff_adjust_coaching('00000000-0000-4000-8000-000000000003', 5, 'more please') $$, '42501', null,
  'accelerated: cannot change their allowance');
select throws_ok($$ select public.staff_save_booking_notes((select id from public.coaching_bookings limit 1), 'x', 'y') $$, '42501', null,
  'accelerated: cannot write notes');
select throws_ok($$ update public.coaching_bookings set status = 'cancelled' $$, '42501', null, 'accelerated: cannot change a booking');
select throws_ok($$ select public.record_booking('calcom', 'created', 'forged', null, null, null, null, null, null, null, now()) $$,
  '42501', null, 'accelerated: cannot record a booking');
reset role;

-- Another member (foundation: no coaching) ----------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select is_empty('select * from public.coaching_bookings', 'foundation: reads nobody else''s bookings');
select is(public.member_coaching() - 'name' - 'email', '{"sessions": 0, "used": 0, "left": 0, "minutes": 90, "booking_url": null}'::jsonb,
  'foundation: no sessions and no booking page');
reset role;

-- A refund ends the allowance; the sessions held stay in the history --------------------------
delete from public.tier_grants where user_id = '00000000-0000-4000-8000-000000000003';
delete from public.purchases where user_id = '00000000-0000-4000-8000-000000000003';
select private.recompute_user_tier('00000000-0000-4000-8000-000000000003', 'refund', 'pgTAP', false);
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000003", "role": "authenticated"}', true);
select is((public.member_coaching() ->> 'sessions')::int, 0, 'refunded: no sessions left to book');
select is((select count(*)::int from public.coaching_bookings where status = 'booked'), 3, 'refunded: the sessions held stay in the history');
reset role;

select * from finish();
rollback;
