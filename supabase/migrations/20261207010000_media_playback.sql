-- Members watch and listen in the site, and resume on any device.
--
-- * The resources bucket takes video (MP4: H.264 + AAC), audio (MP3, M4A) and WebVTT captions,
--   up to 1 GiB a file (an hour of 720p at 2 Mbps is about 900 MB). resource_path_tier, the
--   name rule every resources policy uses, takes their extensions. The list of extensions is
--   supabase/functions/_shared/media-types.ts too; a test holds the two equal.
-- * download_log.play_day: a play is logged once per member, file and owner's day
--   (log_media_play, service_role: the download function), so a player's many range requests
--   and URL renewals count once, and plays still feed the sharing flags.
-- * public.media_progress: where each member stopped in each item, and whether they finished
--   it (90 % heard or seen, decided here only, in save_media_progress). Members read their own
--   rows and write them only through save_media_progress (their tier must open the file);
--   staff read everyone's.
-- * public.member_preferences: the member's playback speed, kept across items and devices.
-- See docs/decisions/100-watch-and-listen-in-the-site.md.

-- ---------------------------------------------------------------------------------------------
-- What the resources bucket takes

/**
 * resource_path_tier(name): the tier named by a well-formed resource object name, else null.
 * Well-formed: exactly three segments, a tier, a lowercase slug (a-z, 0-9, single hyphens),
 * and a file name that does not start with '.', has no control characters or backslashes,
 * ends in one of the resource extensions and is at most 200 characters.
 */
create or replace function public.resource_path_tier(name text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when array_length(string_to_array(name, '/'), 1) = 3
      and public.tier_rank(split_part(name, '/', 1)) is not null
      and split_part(name, '/', 2) ~ '^[a-z0-9]+(-[a-z0-9]+)*$'
      and split_part(name, '/', 3) ~* '^[^./\\[:cntrl:]][^/\\[:cntrl:]]*\.(pdf|epub|mobi|mp3|m4a|mp4|vtt)$'
      and char_length(split_part(name, '/', 3)) <= 200
    then split_part(name, '/', 1)
  end
$$;

comment on function public.resource_path_tier(text) is
  'Storage policy helper: the tier of a well-formed {tier}/{slug}/{file.pdf|epub|mobi|mp3|m4a|mp4|vtt} name, else null.';

/** Resources: private, the paid files and media, 1 GiB a file. */
update storage.buckets
set file_size_limit = 1073741824,
    allowed_mime_types = array[
      'application/pdf', 'application/epub+zip', 'application/x-mobipocket-ebook',
      'audio/mpeg', 'audio/mp4', 'video/mp4', 'text/vtt'
    ]
where id = 'resources';

-- ---------------------------------------------------------------------------------------------
-- Plays in the download log

alter table public.download_log add column play_day date;

comment on column public.download_log.play_day is
  'For a play (log_media_play): the owner''s day it was played on; null for a download. One play row per member, file and day.';

alter table public.download_log
  add constraint download_log_one_play_a_day unique (user_id, object_id, play_day);

/**
 * For the download function (service_role): logs a play of a media file, once per member,
 * object and owner's day. True when this call logged it, false when it was logged already today.
 * Security definer: it reads the owner's time zone, which no API role can.
 */
create function private.log_media_play(
  p_user uuid, p_object_id uuid, p_name text, p_version text, p_ip inet, p_user_agent text
)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  today date := (now() at time zone (select s.time_zone from public.owner_settings s))::date;
  logged integer;
begin
  insert into public.download_log (user_id, object_id, file_name, file_version, ip, user_agent, play_day)
  values (p_user, p_object_id, p_name, p_version, p_ip, p_user_agent, today)
  on conflict on constraint download_log_one_play_a_day do nothing;
  get diagnostics logged = row_count;
  return logged = 1;
end
$$;

comment on function private.log_media_play(uuid, uuid, text, text, inet, text) is
  'For the download function: logs a play once per member, object and owner''s day; true when logged now.';
revoke execute on function private.log_media_play(uuid, uuid, text, text, inet, text) from public, anon, authenticated, service_role;
grant execute on function private.log_media_play(uuid, uuid, text, text, inet, text) to service_role;

/** The download function's entry to private.log_media_play: service_role only. */
create function public.log_media_play(
  p_user uuid, p_object_id uuid, p_name text, p_version text, p_ip inet, p_user_agent text
)
returns boolean
language sql
volatile
set search_path = ''
as $$
  select private.log_media_play(p_user, p_object_id, p_name, p_version, p_ip, p_user_agent)
$$;

comment on function public.log_media_play(uuid, uuid, text, text, inet, text) is
  'service_role only (the download function): logs a play once a day per member and file. Security invoker over private.log_media_play().';
revoke execute on function public.log_media_play(uuid, uuid, text, text, inet, text) from public, anon, authenticated, service_role;
grant execute on function public.log_media_play(uuid, uuid, text, text, inet, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Where each member stopped

/** One member's place in one media file of the resources bucket. */
create table public.media_progress (
  user_id uuid not null references auth.users (id) on delete cascade,
  file_name text not null check (public.resource_path_tier(file_name) is not null),
  position_seconds double precision not null check (position_seconds >= 0 and position_seconds <= duration_seconds),
  duration_seconds double precision not null check (duration_seconds > 0 and duration_seconds < 86400),
  finished_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (user_id, file_name)
);

comment on table public.media_progress is
  'Where a member stopped in each audio or video file, and when they first got to 90 % of it. Written only through save_media_progress; a member reads their own rows, staff all.';
comment on column public.media_progress.file_name is 'The object''s path in the resources bucket ({tier}/{slug}/{file}).';
comment on column public.media_progress.finished_at is 'When the member first reached 90 % of the file; kept when they play it again.';

create index media_progress_user_time on public.media_progress (user_id, updated_at desc);

alter table public.media_progress enable row level security;
revoke all on table public.media_progress from public, anon, authenticated, service_role;
grant select on table public.media_progress to authenticated, service_role;

/** A member reads their own progress; staff read everyone's. */
create policy "Members read their own progress, staff all"
  on public.media_progress for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

comment on policy "Members read their own progress, staff all" on public.media_progress is
  'select: the caller''s own rows, or every row for staff. Writes go through save_media_progress only.';

/** The share of a file that counts it as finished: 90 %. The one place the rule is written. */
create function public.media_finished(p_position double precision, p_duration double precision)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select p_duration > 0 and p_position >= 0.9 * p_duration
$$;

comment on function public.media_finished(double precision, double precision) is
  'True when a position is at least 90 % of the duration: the rule for a finished item.';
revoke execute on function public.media_finished(double precision, double precision) from public, anon, authenticated, service_role;
grant execute on function public.media_finished(double precision, double precision) to authenticated, service_role;

/**
 * The signed-in member saves where they are in a media file their tier opens (staff: any).
 * The first time the position reaches 90 %, finished_at is set and kept. Security definer: a
 * member has no write grant on the table. 42501 for no session or a file above the tier,
 * 22023 for a position that is not a number within the duration.
 */
create function private.save_media_progress(p_file_name text, p_position double precision, p_duration double precision)
returns public.media_progress
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  folder_tier text := public.resource_path_tier(p_file_name);
  saved public.media_progress;
begin
  if me is null then
    raise exception 'sign in to save your place' using errcode = '42501';
  end if;
  if folder_tier is null
    or not (private.is_staff() or public.tier_rank(folder_tier) <= coalesce(public.current_tier_rank(), -1)) then
    raise exception 'this file is not part of your subscription' using errcode = '42501';
  end if;
  if p_duration is null or p_position is null or p_duration = 'NaN' or p_position = 'NaN'
    or p_duration <= 0 or p_duration >= 86400 or p_position < 0 then
    raise exception 'a position must be a number within the file''s length' using errcode = '22023';
  end if;
  insert into public.media_progress as p (user_id, file_name, position_seconds, duration_seconds, finished_at, updated_at)
  values (
    me, p_file_name, least(p_position, p_duration), p_duration,
    case when public.media_finished(p_position, p_duration) then now() end, now()
  )
  on conflict (user_id, file_name) do update set
    position_seconds = excluded.position_seconds,
    duration_seconds = excluded.duration_seconds,
    finished_at = coalesce(p.finished_at, excluded.finished_at),
    updated_at = excluded.updated_at
  returning * into saved;
  return saved;
end
$$;

comment on function private.save_media_progress(text, double precision, double precision) is
  'The caller''s place in a media file of their tier: upserted, finished_at set at 90 % and kept.';
revoke execute on function private.save_media_progress(text, double precision, double precision) from public, anon, authenticated, service_role;
grant execute on function private.save_media_progress(text, double precision, double precision) to authenticated;

create function public.save_media_progress(p_file_name text, p_position double precision, p_duration double precision)
returns public.media_progress
language sql
volatile
set search_path = ''
as $$
  select * from private.save_media_progress(p_file_name, p_position, p_duration)
$$;

comment on function public.save_media_progress(text, double precision, double precision) is
  'Signed-in members: save their place in a media file of their tier. Security invoker over private.save_media_progress().';
revoke execute on function public.save_media_progress(text, double precision, double precision) from public, anon, authenticated, service_role;
grant execute on function public.save_media_progress(text, double precision, double precision) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The member's playback speed

/** A member's own settings for the player: the speed, kept across items and devices. */
create table public.member_preferences (
  user_id uuid primary key references auth.users (id) on delete cascade,
  playback_rate numeric(3, 2) not null default 1 check (playback_rate in (0.75, 1, 1.25, 1.5, 1.75, 2)),
  updated_at timestamptz not null default now()
);

comment on table public.member_preferences is
  'One row per member who changed a player setting: their playback speed (0.75x to 2x). Each member reads and writes only their own row.';

alter table public.member_preferences enable row level security;
revoke all on table public.member_preferences from public, anon, authenticated, service_role;
grant select on table public.member_preferences to authenticated, service_role;

/** A member reads their own preferences. Writes go through set_playback_rate only. */
create policy "Members read their own preferences"
  on public.member_preferences for select
  to authenticated
  using (user_id = (select auth.uid()));

comment on policy "Members read their own preferences" on public.member_preferences is
  'select: the caller''s own row only. No client role writes the table (set_playback_rate does).';

/**
 * The signed-in member's playback speed, for every item on every device. 42501 with no
 * session, 22023 for a speed the player does not offer.
 */
create function private.set_playback_rate(p_rate numeric)
returns numeric
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
begin
  if me is null then
    raise exception 'sign in to keep your speed' using errcode = '42501';
  end if;
  if p_rate is null or p_rate not in (0.75, 1, 1.25, 1.5, 1.75, 2) then
    raise exception 'a speed is one of 0.75, 1, 1.25, 1.5, 1.75 or 2' using errcode = '22023';
  end if;
  insert into public.member_preferences (user_id, playback_rate, updated_at) values (me, p_rate, now())
  on conflict (user_id) do update set playback_rate = excluded.playback_rate, updated_at = excluded.updated_at;
  return p_rate;
end
$$;

comment on function private.set_playback_rate(numeric) is 'The caller''s playback speed, upserted.';
revoke execute on function private.set_playback_rate(numeric) from public, anon, authenticated, service_role;
grant execute on function private.set_playback_rate(numeric) to authenticated;

create function public.set_playback_rate(p_rate numeric)
returns numeric
language sql
volatile
set search_path = ''
as $$
  select private.set_playback_rate(p_rate)
$$;

comment on function public.set_playback_rate(numeric) is
  'Signed-in members: keep their playback speed. Security invoker over private.set_playback_rate().';
revoke execute on function public.set_playback_rate(numeric) from public, anon, authenticated, service_role;
grant execute on function public.set_playback_rate(numeric) to authenticated;
