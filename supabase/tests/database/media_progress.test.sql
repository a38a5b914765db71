-- pgTAP, actor by actor: watching and listening. A member saves their place only in a media
-- file their tier opens, only through save_media_progress, and the 90 % rule marks it
-- finished once; they read their own places and speed, staff read everyone's places. Plays
-- are logged once per member, file and day, by the download function (service_role) only.
-- Needs the seed (ebook 1, foundation 2, accelerated 3, notier 5, staff 6). One transaction, rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(33);

-- The name rule takes media -------------------------------------------------------------------
select is(public.resource_path_tier('accelerated/masterclass/welcome.mp4'), 'accelerated', 'an .mp4 is a resource name');
select is(public.resource_path_tier('accelerated/masterclass/welcome.vtt'), 'accelerated', 'a .vtt is a resource name');
select is(public.resource_path_tier('foundation/scripture-audio/session.m4a'), 'foundation', 'an .m4a is a resource name');
select is(public.resource_path_tier('foundation/scripture-audio/session.wav'), null, 'a .wav is not');

-- Anyone signed out ---------------------------------------------------------------------------
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select throws_ok($$ select public.save_media_progress('foundation/scripture-audio/s.mp3', 1, 10) $$, '42501', null, 'anon: saves no place');
select throws_ok($$ select public.set_playback_rate(1.5) $$, '42501', null, 'anon: keeps no speed');
select throws_ok('select * from public.media_progress', '42501', null, 'anon: reads no places');
select throws_ok('select * from public.member_preferences', '42501', null, 'anon: reads no speeds');
reset role;

-- A foundation member -------------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select is((public.save_media_progress('foundation/scripture-audio/s1.mp3', 60, 75)).position_seconds, 60::float8, 'foundation: saves their place in a foundation file');
select is((select finished_at from public.media_progress where file_name = 'foundation/scripture-audio/s1.mp3'), null, 'foundation: 80 % is not finished');
select isnt((public.save_media_progress('foundation/scripture-audio/s1.mp3', 67.5, 75)).finished_at, null, 'foundation: 90 % is finished');
select isnt((public.save_media_progress('foundation/scripture-audio/s1.mp3', 5, 75)).finished_at, null, 'foundation: finished stays finished when played again');
select is((select position_seconds from public.media_progress where file_name = 'foundation/scripture-audio/s1.mp3'), 5::float8, 'foundation: the latest place is kept');
select is((public.save_media_progress('ebook/ebook/talk.mp3', 1, 10)).file_name, 'ebook/ebook/talk.mp3', 'foundation: saves in a lower tier''s file');
select throws_ok($$ select public.save_media_progress('accelerated/masterclass/welcome.mp4', 1, 10) $$, '42501', 'this file is not part of your subscription', 'foundation: no place in a file above their tier');
select throws_ok($$ select public.save_media_progress('foundation/scripture-audio/../x.mp3', 1, 10) $$, '42501', null, 'foundation: no place in a malformed name');
select throws_ok($$ select public.save_media_progress('foundation/scripture-audio/s1.mp3', 'NaN', 10) $$, '22023', null, 'foundation: a position must be a number');
select throws_ok($$ select public.save_media_progress('foundation/scripture-audio/s1.mp3', -1, 10) $$, '22023', null, 'foundation: no negative position');
select throws_ok($$ select public.save_media_progress('foundation/scripture-audio/s1.mp3', 1, 0) $$, '22023', null, 'foundation: a file has a length');
select is((public.save_media_progress('foundation/scripture-audio/s2.mp3', 90, 75)).position_seconds, 75::float8, 'foundation: a place past the end is the end');
select throws_ok($$ insert into public.media_progress (user_id, file_name, position_seconds, duration_seconds) values ('00000000-0000-4000-8000-000000000002', 'foundation/scripture-audio/s3.mp3', 1, 2) $$, '42501', null, 'foundation: cannot write the table directly');
select throws_ok($$ update public.media_progress set finished_at = now() $$, '42501', null, 'foundation: cannot mark a file finished by hand');
select is(public.set_playback_rate(1.5), 1.5, 'foundation: keeps a speed');
select is(public.set_playback_rate(0.75), 0.75, 'foundation: changes it');
select throws_ok($$ select public.set_playback_rate(3) $$, '22023', null, 'foundation: only the player''s speeds');
select throws_ok($$ select public.log_media_play('00000000-0000-4000-8000-000000000002', gen_random_uuid(), 'foundation/scripture-audio/s1.mp3', 'v1', null, null) $$, '42501', null, 'foundation: cannot log a play');
reset role;

-- Another member (ebook) ----------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select is_empty('select * from public.media_progress', 'ebook: reads nobody else''s places');
select is_empty('select * from public.member_preferences', 'ebook: reads nobody else''s speed');
reset role;

-- Staff ---------------------------------------------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select results_eq($$ select file_name from public.media_progress where user_id = '00000000-0000-4000-8000-000000000002' order by file_name $$,
  $$ values ('ebook/ebook/talk.mp3'), ('foundation/scripture-audio/s1.mp3'), ('foundation/scripture-audio/s2.mp3') $$,
  'staff: read a member''s places');
select is_empty('select * from public.member_preferences', 'staff: a member''s speed is the member''s own');
reset role;

-- The download function (service_role) --------------------------------------------------------
set local role service_role;
select is(public.log_media_play('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000aa', 'foundation/scripture-audio/s1.mp3', 'v1', '203.0.113.9', 'pgTAP'), true, 'service_role: logs the day''s first play');
select is(public.log_media_play('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000aa', 'foundation/scripture-audio/s1.mp3', 'v1', '203.0.113.9', 'pgTAP'), false, 'service_role: not the same file''s second play that day');
reset role;
select is((select count(*)::int from public.download_log where user_id = '00000000-0000-4000-8000-000000000002' and play_day is not null), 1, 'one play row for the day');

select * from finish();
rollback;
