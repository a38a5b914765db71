-- pgTAP, actor by actor: public.member_resources(), /resources in one read. Each actor gets
-- their tier and exactly the files of the resources bucket their tier opens, as Storage's list
-- route would show them folder by folder; anon is refused. Needs the seed (ebook 1,
-- foundation 2, accelerated 3, complete 4, notier 5, staff 6 with complete). One transaction,
-- rolled back.
begin;
create extension if not exists pgtap with schema extensions;
set local search_path = public, extensions;

select plan(17);

-- A file per tier folder, two in the ebook folder (upper case sorts first, as the list sorts),
-- and what only staff may list: a malformed name and the dashboard's placeholder. A file one
-- folder deeper is in no card's folder: nobody gets it.
insert into storage.objects (bucket_id, name, owner, metadata) values
  ('resources', 'ebook/ebook/a-guide.pdf', null, '{"mimetype": "application/pdf", "size": 10, "eTag": "x"}'),
  ('resources', 'ebook/ebook/B-guide.epub', null, '{"mimetype": "application/epub+zip", "size": 20}'),
  ('resources', 'ebook/ebook/notes.txt', null, '{"mimetype": "text/plain", "size": 1}'),
  ('resources', 'ebook/ebook/.emptyFolderPlaceholder', null, '{}'),
  ('resources', 'ebook/ebook/deeper/hidden.pdf', null, '{"mimetype": "application/pdf", "size": 10}'),
  ('resources', 'foundation/worksheets/plan.pdf', null, '{"mimetype": "application/pdf", "size": 30}'),
  ('resources', 'accelerated/masterclass/templates.pdf', null, '{"mimetype": "application/pdf", "size": 40}'),
  ('resources', 'complete/publishing-roadmap/roadmap.pdf', null, '{"mimetype": "application/pdf", "size": 50}'),
  ('avatars', '00000000-0000-4000-8000-000000000004/avatar.png', '00000000-0000-4000-8000-000000000004', '{"mimetype": "image/png", "size": 10}');

select set_config('test.guide_id', (select id::text from storage.objects where name = 'ebook/ebook/a-guide.pdf'), true);

-- The names the caller gets, in the order given.
create function pg_temp.names() returns text[] language sql as $$
  select coalesce(array_agg(f ->> 'name' order by n), '{}')
  from jsonb_array_elements(public.member_resources() -> 'files') with ordinality as e(f, n)
$$;
grant execute on function pg_temp.names() to anon, authenticated;

-- Anyone signed out ------------------------------------------------------------------------------
set local role anon;
select set_config('request.jwt.claims', '{"role": "anon"}', true);
select throws_ok('select public.member_resources()', '42501', 'permission denied for function member_resources', 'anon: refused');
reset role;

-- Members, tier by tier, and one without a tier -------------------------------------------------
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);
select is(public.member_resources() ->> 'tier', 'ebook', 'ebook: their tier');
select is(pg_temp.names(), array['ebook/ebook/B-guide.epub', 'ebook/ebook/a-guide.pdf'], 'ebook: the files of their tier, by name');
select is(public.member_resources() -> 'files' -> 1,
  jsonb_build_object('name', 'ebook/ebook/a-guide.pdf', 'id', current_setting('test.guide_id'),
    'metadata', '{"size": 10, "mimetype": "application/pdf"}'::jsonb),
  'ebook: each file''s name, id, size and type');

select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select is(public.member_resources() ->> 'tier', 'foundation', 'foundation: their tier');
select is(pg_temp.names(), array['ebook/ebook/B-guide.epub', 'ebook/ebook/a-guide.pdf', 'foundation/worksheets/plan.pdf'],
  'foundation: the files of their tier and below');

select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000003", "role": "authenticated"}', true);
select is(pg_temp.names(), array['accelerated/masterclass/templates.pdf', 'ebook/ebook/B-guide.epub', 'ebook/ebook/a-guide.pdf', 'foundation/worksheets/plan.pdf'],
  'accelerated: the files of their tier and below');

select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000004", "role": "authenticated"}', true);
select is(pg_temp.names(), array['accelerated/masterclass/templates.pdf', 'complete/publishing-roadmap/roadmap.pdf', 'ebook/ebook/B-guide.epub', 'ebook/ebook/a-guide.pdf', 'foundation/worksheets/plan.pdf'],
  'complete: every well-formed file, no avatar');

select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000005", "role": "authenticated"}', true);
select is(public.member_resources(), '{"tier": null, "files": []}'::jsonb, 'no tier: no tier and no file');

-- The function lists as Storage's list route does, whatever the request had set, and leaves the
-- request's own storage.operation as it was: a download is still refused afterwards.
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select set_config('storage.operation', 'storage.object.get_authenticated', true);
select is(cardinality(pg_temp.names()), 3, 'foundation: lists under another operation too');
select is(current_setting('storage.operation', true), 'storage.object.get_authenticated', 'the caller''s storage.operation is left as it was');
select is_empty($$ select name from storage.objects where bucket_id = 'resources' $$, 'foundation: still cannot read a file outside the list route');

-- Staff (with the complete tier): everything the list shows them, the malformed names included --
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000006", "role": "authenticated"}', true);
select is(public.member_resources() ->> 'tier', 'complete', 'staff: their tier');
select is(pg_temp.names(), array['accelerated/masterclass/templates.pdf', 'complete/publishing-roadmap/roadmap.pdf',
    'ebook/ebook/.emptyFolderPlaceholder', 'ebook/ebook/B-guide.epub', 'ebook/ebook/a-guide.pdf', 'ebook/ebook/notes.txt',
    'foundation/worksheets/plan.pdf'],
  'staff: every file of the card folders, as their listing shows them');
reset role;

-- At most 100 files per folder, the first by name, as the page's listing asks for ------------------
insert into storage.objects (bucket_id, name, owner, metadata)
  select 'resources', format('foundation/worksheets/sheet-%s.pdf', lpad(i::text, 3, '0')), null, '{"mimetype": "application/pdf", "size": 1}'
  from generate_series(1, 120) as s(i);
set local role authenticated;
select set_config('request.jwt.claims', '{"sub": "00000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);
select is(cardinality(pg_temp.names()), 102, 'foundation: two ebook files and the first 100 of the worksheets');
select is((pg_temp.names())[102], 'foundation/worksheets/sheet-099.pdf', 'foundation: the worksheets'' first 100 by name');
select ok(not ('foundation/worksheets/sheet-100.pdf' = any (pg_temp.names())), 'foundation: a file past the first 100 is left out');
reset role;

select * from finish();
rollback;
