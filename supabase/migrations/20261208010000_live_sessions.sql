-- Live circles, Q&A calls and community access with an end date.
--
-- * public.timed_benefits (the catalog): what each tier includes for a time, and for how long:
--   community access (Accelerated, 90 days), the VIP community (Complete, 6 months), the group
--   coaching circle (Accelerated) and the live Q&A calls (Complete). The community benefits
--   carry the link staff set (the private group); nobody reads the table directly.
-- * public.member_benefits: one row per member and benefit, granted by the database when the
--   tier that includes it arrives (a purchase, an upgrade, a staff grant), starting then. A tier
--   lost (a refund, a revoke) ends what it included at once. Staff extend or end with a reason;
--   every change is in public.benefit_audit.
-- * public.live_sessions: circles and Q&A calls staff schedule. The join link is never in a
--   list: session_join_link() hands it out from 15 minutes before the start until the end, to a
--   member holding the session's benefit.
-- * public.member_mail: the reminders (access ending in 14, 7 and 1 days; a session in 24 hours
--   and in 1 hour) and the notices (a session cancelled or moved), one row per mail with a key
--   that makes a second enqueue a no-op. The purchase webhook's `member-mail` route sends them
--   through the mail API on the schedule, with the invitations' backoff.
-- See docs/decisions/102-live-sessions-and-access-with-an-end.md.

-- ---------------------------------------------------------------------------------------------
-- The catalog

create table public.timed_benefits (
  benefit text primary key check (benefit in ('community', 'vip_community', 'circle', 'qa')),
  tier public.tier not null,
  label text not null check (char_length(label) between 1 and 100),
  length_days integer not null check (length_days between 1 and 3650),
  link text check (link is null or (link ~ '^https://[^\s/?#@]+\.[^\s/?#@]+(/\S*)?$' and char_length(link) <= 2000)),
  position integer not null default 0,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);

comment on table public.timed_benefits is
  'What a tier includes for a time: community access, the VIP community, the circle, the Q&A calls; how many days from the grant, and the community''s link. Read through member_benefits() and staff functions only.';
comment on column public.timed_benefits.link is 'The private group''s https link: served only to a member whose access lasts.';

insert into public.timed_benefits (benefit, tier, label, length_days, position) values
  ('community', 'accelerated', 'Community access', 90, 1),
  ('circle', 'accelerated', 'Group coaching circle', 90, 2),
  ('vip_community', 'complete', 'VIP community', 183, 3),
  ('qa', 'complete', 'Live Q&A calls', 183, 4);

alter table public.timed_benefits enable row level security;
revoke all on table public.timed_benefits from public, anon, authenticated, service_role;
grant select on table public.timed_benefits to service_role;
create policy "No API access to the timed benefits"
  on public.timed_benefits as restrictive for all to anon, authenticated using (false) with check (false);
comment on policy "No API access to the timed benefits" on public.timed_benefits is
  'Deny-all for anon and authenticated: the links are handed out by member_benefits() only while access lasts.';

-- ---------------------------------------------------------------------------------------------
-- Members' benefits and their audit

create table public.member_benefits (
  user_id uuid not null references auth.users (id) on delete cascade,
  benefit text not null references public.timed_benefits (benefit),
  starts_at timestamptz not null default now(),
  ends_at timestamptz not null,
  primary key (user_id, benefit),
  check (ends_at >= starts_at)
);

comment on table public.member_benefits is
  'Each member''s time-bound benefits: held while starts_at <= now() < ends_at. Written by the database (the tier trigger, staff_change_benefit); audited in benefit_audit.';
create index member_benefits_ending on public.member_benefits (ends_at);

create table public.benefit_audit (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  benefit text not null,
  action text not null check (action in ('granted', 'extended', 'ended', 'refunded', 'revoked')),
  old_ends_at timestamptz,
  new_ends_at timestamptz not null,
  reason text check (char_length(reason) <= 1000),
  changed_by uuid,
  changed_at timestamptz not null default now()
);

comment on table public.benefit_audit is
  'Every grant, extension and end of a member''s benefit: who (null for the database itself), why, and the end before and after. Removed with the account (an erasure removes any access staff gave). Staff read it through staff_member_benefits().';
create index benefit_audit_user on public.benefit_audit (user_id, changed_at);

alter table public.member_benefits enable row level security;
alter table public.benefit_audit enable row level security;
revoke all on table public.member_benefits, public.benefit_audit from public, anon, authenticated, service_role;
grant select on table public.member_benefits, public.benefit_audit to service_role;
revoke all on sequence public.benefit_audit_id_seq from public, anon, authenticated, service_role;
grant select on table public.member_benefits to authenticated;

create policy "Members read their own benefits"
  on public.member_benefits for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));
comment on policy "Members read their own benefits" on public.member_benefits is
  'select: the caller''s own rows (dates only: the links are in timed_benefits), or all for staff.';
create policy "No API access to the benefit audit"
  on public.benefit_audit as restrictive for all to anon, authenticated using (false) with check (false);
comment on policy "No API access to the benefit audit" on public.benefit_audit is
  'Deny-all for anon and authenticated: staff read it through staff_member_benefits().';

/**
 * Trigger on user_tiers: a tier gained (from none, or a lower one) grants the benefits it adds
 * that the member does not hold now, from now; a tier lost ends those it no longer includes, now, audited as the tier
 * change's source says (a refund, a staff revoke).
 */
create function private.benefits_follow_tier()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_rank integer := public.tier_rank(new.tier::text);
  v_old_rank integer := case when tg_op = 'UPDATE' then public.tier_rank(old.tier::text) end;
  v_source text := coalesce(nullif(current_setting('app.tier_source', true), ''), 'system');
  b public.timed_benefits%rowtype;
  held public.member_benefits%rowtype;
begin
  for b in select * from public.timed_benefits loop
    select * into held from public.member_benefits m where m.user_id = new.user_id and m.benefit = b.benefit;
    if v_rank is not null and public.tier_rank(b.tier::text) <= v_rank then
      -- Only a tier gained grants: the same tier recomputed leaves an access staff ended, ended.
      if (v_old_rank is null or public.tier_rank(b.tier::text) > v_old_rank)
         and (held.user_id is null or held.ends_at <= now()) then
        insert into public.member_benefits (user_id, benefit, starts_at, ends_at)
        values (new.user_id, b.benefit, now(), now() + make_interval(days => b.length_days))
        on conflict (user_id, benefit) do update set starts_at = excluded.starts_at, ends_at = excluded.ends_at;
        insert into public.benefit_audit (user_id, benefit, action, old_ends_at, new_ends_at, reason, changed_by)
        values (new.user_id, b.benefit, 'granted', held.ends_at, now() + make_interval(days => b.length_days),
                nullif(current_setting('app.tier_reason', true), ''), (select auth.uid()));
      end if;
    elsif held.user_id is not null and held.ends_at > now() then
      update public.member_benefits m set ends_at = greatest(m.starts_at, now())
      where m.user_id = new.user_id and m.benefit = b.benefit;
      insert into public.benefit_audit (user_id, benefit, action, old_ends_at, new_ends_at, reason, changed_by)
      values (new.user_id, b.benefit, case when v_source = 'refund' then 'refunded' else 'revoked' end,
              held.ends_at, greatest(held.starts_at, now()),
              nullif(current_setting('app.tier_reason', true), ''), (select auth.uid()));
    end if;
  end loop;
  return null;
end
$$;

comment on function private.benefits_follow_tier() is
  'Trigger: grants a new tier''s timed benefits from now; ends, now, those a lost tier included (audited).';
revoke execute on function private.benefits_follow_tier() from public, anon, authenticated, service_role;

create trigger user_tiers_benefits
  after insert or update of tier on public.user_tiers
  for each row execute function private.benefits_follow_tier();
comment on trigger user_tiers_benefits on public.user_tiers is
  'Grants and ends the member''s timed benefits with their tier (private.benefits_follow_tier).';

-- Members who hold a tier already get its benefits from this migration on.
with granted as (
  insert into public.member_benefits (user_id, benefit, starts_at, ends_at)
  select t.user_id, b.benefit, now(), now() + make_interval(days => b.length_days)
  from public.user_tiers t
  join public.timed_benefits b on public.tier_rank(b.tier::text) <= public.tier_rank(t.tier::text)
  on conflict do nothing
  returning user_id, benefit, ends_at
)
insert into public.benefit_audit (user_id, benefit, action, new_ends_at, reason)
select user_id, benefit, 'granted', ends_at, 'held the tier when access with an end date began' from granted;

/** Does the member hold the benefit at that instant? */
create function private.holds_benefit(p_user uuid, p_benefit text, p_at timestamptz)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.member_benefits m
                 where m.user_id = p_user and m.benefit = p_benefit and m.starts_at <= p_at and p_at < m.ends_at)
$$;

comment on function private.holds_benefit(uuid, text, timestamptz) is 'Whether a member holds a benefit at an instant.';
revoke execute on function private.holds_benefit(uuid, text, timestamptz) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Live sessions

create table public.live_sessions (
  id uuid primary key default gen_random_uuid(),
  benefit text not null references public.timed_benefits (benefit) check (benefit in ('circle', 'qa')),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  starts_at timestamptz not null,
  minutes integer not null check (minutes between 5 and 600),
  join_url text not null check (join_url ~ '^https://[^\s/?#@]+\.[^\s/?#@]+(/\S*)?$' and char_length(join_url) <= 2000),
  description text check (description is null or char_length(description) <= 5000),
  recording_path text check (recording_path is null or (char_length(recording_path) <= 1024 and public.resource_path_tier(recording_path) is not null)),
  cancelled_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.live_sessions is
  'Circles and Q&A calls: when, how long, which benefit, the join link (handed out by session_join_link() only), and after it the recording''s path in the resources bucket. Staff write it through staff_save_live_session().';
create index live_sessions_starts on public.live_sessions (starts_at);

alter table public.live_sessions enable row level security;
revoke all on table public.live_sessions from public, anon, authenticated, service_role;
grant select on table public.live_sessions to service_role;
create policy "No API access to live sessions"
  on public.live_sessions as restrictive for all to anon, authenticated using (false) with check (false);
comment on policy "No API access to live sessions" on public.live_sessions is
  'Deny-all for anon and authenticated: members read sessions without their join link through member_live_sessions().';

/** The join link's window: from 15 minutes before the start until the end. */
create function private.session_joinable(p_starts timestamptz, p_minutes integer, p_at timestamptz)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_at >= p_starts - interval '15 minutes' and p_at < p_starts + make_interval(mins => p_minutes)
$$;

comment on function private.session_joinable(timestamptz, integer, timestamptz) is
  'The join window: 15 minutes before the start until the end.';
revoke execute on function private.session_joinable(timestamptz, integer, timestamptz) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- What a member reads

/**
 * The caller's benefits: each with its dates and whether it lasts, and the community link only
 * while it does. Benefits they never held are not listed.
 */
create function private.member_benefits()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
begin
  if me is null then
    raise exception 'sign in to see your benefits' using errcode = '42501';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
      'benefit', b.benefit, 'label', b.label, 'starts_at', m.starts_at, 'ends_at', m.ends_at,
      'active', m.starts_at <= now() and now() < m.ends_at,
      'link', case when m.starts_at <= now() and now() < m.ends_at then b.link end
    ) order by b.position)
    from public.member_benefits m join public.timed_benefits b on b.benefit = m.benefit
    where m.user_id = me), '[]'::jsonb);
end
$$;

comment on function private.member_benefits() is 'The caller''s timed benefits, with the link only while each lasts.';
revoke execute on function private.member_benefits() from public, anon, authenticated, service_role;
grant execute on function private.member_benefits() to authenticated;

create function public.member_benefits()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.member_benefits()
$$;

comment on function public.member_benefits() is
  'Signed-in members: their timed benefits, dates and (while they last) links. Security invoker over private.member_benefits().';
revoke execute on function public.member_benefits() from public, anon, authenticated, service_role;
grant execute on function public.member_benefits() to authenticated;

/**
 * The sessions the caller may see: those of a benefit they hold at the session's start, from
 * 30 days back (for recordings) onward, never the join link; `joinable` says whether
 * session_join_link() would hand it out now.
 */
create function private.member_live_sessions()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
begin
  if me is null then
    raise exception 'sign in to see your live sessions' using errcode = '42501';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
      'id', s.id, 'benefit', s.benefit, 'label', b.label, 'title', s.title, 'starts_at', s.starts_at,
      'minutes', s.minutes, 'description', s.description, 'cancelled', s.cancelled_at is not null,
      'recording_path', case when private.holds_benefit(me, s.benefit, now()) then s.recording_path end,
      'joinable', s.cancelled_at is null and private.session_joinable(s.starts_at, s.minutes, now())
                  and private.holds_benefit(me, s.benefit, now())
    ) order by s.starts_at)
    from public.live_sessions s join public.timed_benefits b on b.benefit = s.benefit
    where private.holds_benefit(me, s.benefit, s.starts_at)
      and s.starts_at + make_interval(mins => s.minutes) > now() - interval '30 days'), '[]'::jsonb);
end
$$;

comment on function private.member_live_sessions() is 'The caller''s sessions (held benefit at the start), without join links.';
revoke execute on function private.member_live_sessions() from public, anon, authenticated, service_role;
grant execute on function private.member_live_sessions() to authenticated;

create function public.member_live_sessions()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.member_live_sessions()
$$;

comment on function public.member_live_sessions() is
  'Signed-in members: the circles and calls of the benefits they hold, never a join link. Security invoker over private.member_live_sessions().';
revoke execute on function public.member_live_sessions() from public, anon, authenticated, service_role;
grant execute on function public.member_live_sessions() to authenticated;

/**
 * A session's join link, for a member holding its benefit now, from 15 minutes before the start
 * until the end; refused otherwise (42501 not theirs, 22023 not open yet or over or cancelled).
 */
create function private.session_join_link(p_session uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  s public.live_sessions%rowtype;
begin
  select * into s from public.live_sessions where id = p_session;
  if me is null or not found or not private.holds_benefit(me, s.benefit, now()) then
    raise exception 'this session is not part of your access' using errcode = '42501';
  end if;
  if s.cancelled_at is not null then
    raise exception 'this session was cancelled' using errcode = '22023';
  end if;
  if not private.session_joinable(s.starts_at, s.minutes, now()) then
    raise exception 'the join link opens 15 minutes before the start' using errcode = '22023';
  end if;
  return s.join_url;
end
$$;

comment on function private.session_join_link(uuid) is 'The join link, only in its window, only to a holder.';
revoke execute on function private.session_join_link(uuid) from public, anon, authenticated, service_role;
grant execute on function private.session_join_link(uuid) to authenticated;

create function public.session_join_link(p_session uuid)
returns text
language sql
stable
set search_path = ''
as $$
  select private.session_join_link(p_session)
$$;

comment on function public.session_join_link(uuid) is
  'Signed-in members: a session''s join link from 15 minutes before its start until its end, if they hold its benefit. Security invoker over private.session_join_link().';
revoke execute on function public.session_join_link(uuid) from public, anon, authenticated, service_role;
grant execute on function public.session_join_link(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The mail: reminders and notices, each enqueued once

create table public.member_mail (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  email text not null check (char_length(email) <= 320),
  kind text not null check (kind in ('access_ends', 'session_soon', 'session_cancelled', 'session_moved')),
  dedupe_key text not null unique check (char_length(dedupe_key) <= 300),
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  claimed_at timestamptz,
  sent_at timestamptz,
  last_error text check (char_length(last_error) <= 1000),
  created_at timestamptz not null default now()
);

comment on table public.member_mail is
  'Reminders and notices to members, one row per mail: dedupe_key makes a repeated or late scheduled run enqueue nothing twice; the purchase webhook''s member-mail route sends them (Idempotency-Key = dedupe_key). service_role only.';
create index member_mail_due on public.member_mail (next_attempt_at) where status in ('pending', 'sending');

alter table public.member_mail enable row level security;
revoke all on table public.member_mail from public, anon, authenticated, service_role;
grant select on table public.member_mail to service_role;
create policy "No API access to member mail"
  on public.member_mail as restrictive for all to anon, authenticated using (false) with check (false);
comment on policy "No API access to member mail" on public.member_mail is
  'Deny-all for anon and authenticated: only the scheduled run (service_role, through functions) reads it.';

/** Each member who holds a session's benefit at its start, with their e-mail. */
create function private.session_holders(p_session uuid)
returns table (user_id uuid, email text)
language sql
stable
security definer
set search_path = ''
as $$
  select m.user_id, u.email::text
  from public.live_sessions s
  join public.member_benefits m on m.benefit = s.benefit and m.starts_at <= s.starts_at and s.starts_at < m.ends_at
  join auth.users u on u.id = m.user_id
  where s.id = p_session and u.email is not null
$$;

comment on function private.session_holders(uuid) is 'Members holding a session''s benefit at its start.';
revoke execute on function private.session_holders(uuid) from public, anon, authenticated, service_role;

/** What a session's mail says of it, in the owner's time zone. */
create function private.session_mail_payload(p_session uuid, p_extra jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('session_id', s.id, 'title', s.title, 'label', b.label, 'starts_at', s.starts_at,
                            'minutes', s.minutes, 'time_zone', (select o.time_zone from public.owner_settings o))
         || coalesce(p_extra, '{}'::jsonb)
  from public.live_sessions s join public.timed_benefits b on b.benefit = s.benefit
  where s.id = p_session
$$;

comment on function private.session_mail_payload(uuid, jsonb) is 'The fields a session''s e-mail is written from.';
revoke execute on function private.session_mail_payload(uuid, jsonb) from public, anon, authenticated, service_role;

/**
 * Enqueues what is due at p_now: for access ending within 14 days, the nearest of the 14-, 7-
 * and 1-day reminders; for a session within 24 hours, the nearest of the 24-hour and 1-hour
 * reminders. A run late sends the reminder due then, not the ones it overtook; a run repeated
 * finds each key taken. A new end date or start time makes new keys. Returns how many it added.
 */
create function private.enqueue_member_mail(p_now timestamptz)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  added integer;
  more integer;
begin
  insert into public.member_mail (user_id, email, kind, dedupe_key, payload)
  select m.user_id, u.email, 'access_ends',
         format('access:%s:%s:%s:%s', m.user_id, m.benefit, extract(epoch from m.ends_at)::bigint, r.days),
         jsonb_build_object('benefit', m.benefit, 'label', b.label, 'ends_at', m.ends_at, 'days', r.days,
                            'time_zone', (select o.time_zone from public.owner_settings o))
  from public.member_benefits m
  join public.timed_benefits b on b.benefit = m.benefit and b.benefit in ('community', 'vip_community')
  join auth.users u on u.id = m.user_id and u.email is not null
  cross join lateral (select case when m.ends_at - p_now <= interval '1 day' then 1
                                  when m.ends_at - p_now <= interval '7 days' then 7 else 14 end as days) r
  where m.ends_at > p_now and m.ends_at - p_now <= interval '14 days' and m.starts_at <= p_now
  on conflict (dedupe_key) do nothing;
  get diagnostics added = row_count;

  insert into public.member_mail (user_id, email, kind, dedupe_key, payload)
  select h.user_id, h.email, 'session_soon',
         format('session:%s:%s:%s:%s', s.id, extract(epoch from s.starts_at)::bigint, r.hours, h.user_id),
         private.session_mail_payload(s.id, jsonb_build_object('hours', r.hours))
  from public.live_sessions s
  cross join lateral private.session_holders(s.id) h
  cross join lateral (select case when s.starts_at - p_now <= interval '1 hour' then 1 else 24 end as hours) r
  where s.cancelled_at is null and s.starts_at > p_now and s.starts_at - p_now <= interval '24 hours'
  on conflict (dedupe_key) do nothing;
  get diagnostics more = row_count;
  return added + more;
end
$$;

comment on function private.enqueue_member_mail(timestamptz) is
  'Enqueues the reminders due at an instant, each once (by its dedupe key).';
revoke execute on function private.enqueue_member_mail(timestamptz) from public, anon, authenticated, service_role;

/** A session cancelled or moved: one notice to each holder, enqueued at once. */
create function private.enqueue_session_notice(p_session uuid, p_kind text, p_extra jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  added integer;
  v_starts timestamptz := (select s.starts_at from public.live_sessions s where s.id = p_session);
begin
  insert into public.member_mail (user_id, email, kind, dedupe_key, payload)
  select h.user_id, h.email, p_kind,
         format('%s:%s:%s:%s', p_kind, p_session, extract(epoch from v_starts)::bigint, h.user_id),
         private.session_mail_payload(p_session, p_extra)
  from private.session_holders(p_session) h
  on conflict (dedupe_key) do nothing;
  get diagnostics added = row_count;
  return added;
end
$$;

comment on function private.enqueue_session_notice(uuid, text, jsonb) is 'Enqueues a cancellation or change notice to a session''s holders.';
revoke execute on function private.enqueue_session_notice(uuid, text, jsonb) from public, anon, authenticated, service_role;

/**
 * For the scheduled run (service_role): enqueues what is due now, then claims up to p_limit
 * mails to send (pending and due, or a claim left over 10 minutes by a run that died).
 */
create function private.claim_member_mail(p_limit integer)
returns setof public.member_mail
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.enqueue_member_mail(now());
  return query
  update public.member_mail m set status = 'sending', claimed_at = now(), attempts = m.attempts + 1
  where m.id in (
    select q.id from public.member_mail q
    where (q.status = 'pending' and (q.next_attempt_at is null or q.next_attempt_at <= now()))
       or (q.status = 'sending' and q.claimed_at < now() - interval '10 minutes')
    order by q.created_at
    limit greatest(1, least(p_limit, 100))
    for update skip locked)
  returning m.*;
end
$$;

comment on function private.claim_member_mail(integer) is 'service_role: enqueues what is due, then claims mails to send.';
revoke execute on function private.claim_member_mail(integer) from public, anon, authenticated, service_role;
grant execute on function private.claim_member_mail(integer) to service_role;

create function public.claim_member_mail(p_limit integer)
returns setof public.member_mail
language sql
volatile
set search_path = ''
as $$
  select * from private.claim_member_mail(p_limit)
$$;

comment on function public.claim_member_mail(integer) is
  'service_role only (the scheduled member-mail run): enqueue due reminders and claim mails to send. Security invoker over private.claim_member_mail().';
revoke execute on function public.claim_member_mail(integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_member_mail(integer) to service_role;

/**
 * Records what became of a claimed mail: sent; or, after an outage, pending again after the
 * next of p_backoff_seconds (failed once they are spent); or failed (a refusal).
 */
create function private.finish_member_mail(p_id uuid, p_outcome text, p_error text, p_backoff_seconds integer[])
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  mail public.member_mail%rowtype;
  wait integer;
begin
  select * into mail from public.member_mail where id = p_id and status = 'sending' for update;
  if not found then
    return 'not_claimed';
  end if;
  wait := p_backoff_seconds[mail.attempts];
  update public.member_mail set
    status = case when p_outcome = 'sent' then 'sent' when p_outcome = 'retry' and wait is not null then 'pending' else 'failed' end,
    sent_at = case when p_outcome = 'sent' then now() end,
    next_attempt_at = case when p_outcome = 'retry' and wait is not null then now() + make_interval(secs => wait) end,
    last_error = left(p_error, 1000)
  where id = p_id
  returning status into mail.status;
  return mail.status;
end
$$;

comment on function private.finish_member_mail(uuid, text, text, integer[]) is 'service_role: a claimed mail sent, to retry, or failed.';
revoke execute on function private.finish_member_mail(uuid, text, text, integer[]) from public, anon, authenticated, service_role;
grant execute on function private.finish_member_mail(uuid, text, text, integer[]) to service_role;

create function public.finish_member_mail(p_id uuid, p_outcome text, p_error text, p_backoff_seconds integer[])
returns text
language sql
volatile
set search_path = ''
as $$
  select private.finish_member_mail(p_id, p_outcome, p_error, p_backoff_seconds)
$$;

comment on function public.finish_member_mail(uuid, text, text, integer[]) is
  'service_role only (the scheduled member-mail run): what became of a claimed mail. Security invoker over private.finish_member_mail().';
revoke execute on function public.finish_member_mail(uuid, text, text, integer[]) from public, anon, authenticated, service_role;
grant execute on function public.finish_member_mail(uuid, text, text, integer[]) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Staff

/**
 * Staff only: extends a member's benefit by p_days (from its end, or from now when it has
 * ended or was never held), or ends it now; with a reason, audited. Returns the new end.
 */
create function private.staff_change_benefit(p_user uuid, p_benefit text, p_action text, p_days integer, p_reason text)
returns timestamptz
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_reason text;
  held public.member_benefits%rowtype;
  v_end timestamptz;
begin
  if not private.is_staff() then
    raise exception 'only staff can change a member''s access' using errcode = '42501';
  end if;
  v_reason := private.checked_reason(p_reason);
  if not exists (select 1 from public.timed_benefits b where b.benefit = p_benefit)
     or not exists (select 1 from auth.users u where u.id = p_user) then
    raise exception 'no such member or benefit' using errcode = '22023';
  end if;
  select * into held from public.member_benefits m where m.user_id = p_user and m.benefit = p_benefit for update;
  if p_action = 'extend' then
    if p_days is null or p_days not between 1 and 3650 then
      raise exception 'extend by 1 to 3650 days' using errcode = '22023';
    end if;
    v_end := greatest(coalesce(held.ends_at, now()), now()) + make_interval(days => p_days);
    insert into public.member_benefits as m (user_id, benefit, starts_at, ends_at) values (p_user, p_benefit, now(), v_end)
    on conflict (user_id, benefit) do update
      set ends_at = excluded.ends_at, starts_at = case when m.ends_at <= now() then now() else m.starts_at end;
  elsif p_action = 'end' and held.user_id is not null and held.ends_at > now() then
    v_end := greatest(held.starts_at, now());
    update public.member_benefits m set ends_at = v_end where m.user_id = p_user and m.benefit = p_benefit;
  else
    raise exception 'nothing to end, or an unknown change' using errcode = '22023';
  end if;
  insert into public.benefit_audit (user_id, benefit, action, old_ends_at, new_ends_at, reason, changed_by)
  values (p_user, p_benefit, case p_action when 'extend' then 'extended' else 'ended' end, held.ends_at, v_end,
          v_reason, (select auth.uid()));
  return v_end;
end
$$;

comment on function private.staff_change_benefit(uuid, text, text, integer, text) is 'Staff only (else 42501): extend or end a member''s benefit, audited.';
revoke execute on function private.staff_change_benefit(uuid, text, text, integer, text) from public, anon, authenticated, service_role;
grant execute on function private.staff_change_benefit(uuid, text, text, integer, text) to authenticated;

create function public.staff_change_benefit(p_user uuid, p_benefit text, p_action text, p_days integer, p_reason text)
returns timestamptz
language sql
volatile
set search_path = ''
as $$
  select private.staff_change_benefit(p_user, p_benefit, p_action, p_days, p_reason)
$$;

comment on function public.staff_change_benefit(uuid, text, text, integer, text) is
  'Staff only (else 42501): extend (p_action ''extend'', p_days) or end (''end'') a member''s benefit with a reason. Security invoker over private.staff_change_benefit().';
revoke execute on function public.staff_change_benefit(uuid, text, text, integer, text) from public, anon, authenticated, service_role;
grant execute on function public.staff_change_benefit(uuid, text, text, integer, text) to authenticated;

/** Staff only: a member's benefits with their dates, and the audit of each change. */
create function private.staff_member_benefits(p_user uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can read a member''s access' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'benefits', coalesce((select jsonb_agg(jsonb_build_object(
        'benefit', b.benefit, 'label', b.label, 'starts_at', m.starts_at, 'ends_at', m.ends_at,
        'active', m.starts_at <= now() and now() < m.ends_at) order by b.position)
      from public.timed_benefits b join public.member_benefits m on m.benefit = b.benefit and m.user_id = p_user), '[]'::jsonb),
    'audit', coalesce((select jsonb_agg(jsonb_build_object(
        'benefit', a.benefit, 'action', a.action, 'old_ends_at', a.old_ends_at, 'new_ends_at', a.new_ends_at,
        'reason', a.reason, 'changed_at', a.changed_at,
        'changed_by', (select u.email::text from auth.users u where u.id = a.changed_by)) order by a.changed_at desc, a.id desc)
      from public.benefit_audit a where a.user_id = p_user), '[]'::jsonb));
end
$$;

comment on function private.staff_member_benefits(uuid) is 'Staff only (else 42501): a member''s benefits and their audit.';
revoke execute on function private.staff_member_benefits(uuid) from public, anon, authenticated, service_role;
grant execute on function private.staff_member_benefits(uuid) to authenticated;

create function public.staff_member_benefits(p_user uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.staff_member_benefits(p_user)
$$;

comment on function public.staff_member_benefits(uuid) is
  'Staff only (else 42501): a member''s timed benefits and every change of them. Security invoker over private.staff_member_benefits().';
revoke execute on function public.staff_member_benefits(uuid) from public, anon, authenticated, service_role;
grant execute on function public.staff_member_benefits(uuid) to authenticated;

/**
 * Staff only: creates (p_id null) or edits a live session. A new start time mails each holder
 * the change (their reminders follow the new time by themselves). Returns the session's id.
 */
create function private.staff_save_live_session(
  p_id uuid, p_benefit text, p_title text, p_starts_at timestamptz, p_minutes integer,
  p_join_url text, p_description text, p_recording_path text
)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_old timestamptz;
begin
  if not private.is_staff() then
    raise exception 'only staff can schedule live sessions' using errcode = '42501';
  end if;
  if p_id is null then
    insert into public.live_sessions (benefit, title, starts_at, minutes, join_url, description, recording_path, created_by)
    values (p_benefit, btrim(p_title), p_starts_at, p_minutes, btrim(p_join_url), nullif(btrim(p_description), ''),
            nullif(btrim(p_recording_path), ''), (select auth.uid()))
    returning id into v_id;
    return v_id;
  end if;
  select s.starts_at into v_old from public.live_sessions s where s.id = p_id and s.cancelled_at is null for update;
  if not found then
    raise exception 'no such session, or it was cancelled' using errcode = '22023';
  end if;
  update public.live_sessions set benefit = p_benefit, title = btrim(p_title), starts_at = p_starts_at,
    minutes = p_minutes, join_url = btrim(p_join_url), description = nullif(btrim(p_description), ''),
    recording_path = nullif(btrim(p_recording_path), ''), updated_at = now()
  where id = p_id;
  if v_old <> p_starts_at and p_starts_at > now() then
    perform private.enqueue_session_notice(p_id, 'session_moved', jsonb_build_object('old_starts_at', v_old));
  end if;
  return p_id;
end
$$;

comment on function private.staff_save_live_session(uuid, text, text, timestamptz, integer, text, text, text) is
  'Staff only (else 42501): create or edit a live session; a new time is mailed to its holders.';
revoke execute on function private.staff_save_live_session(uuid, text, text, timestamptz, integer, text, text, text) from public, anon, authenticated, service_role;
grant execute on function private.staff_save_live_session(uuid, text, text, timestamptz, integer, text, text, text) to authenticated;

create function public.staff_save_live_session(
  p_id uuid, p_benefit text, p_title text, p_starts_at timestamptz, p_minutes integer,
  p_join_url text, p_description text, p_recording_path text
)
returns uuid
language sql
volatile
set search_path = ''
as $$
  select private.staff_save_live_session(p_id, p_benefit, p_title, p_starts_at, p_minutes, p_join_url, p_description, p_recording_path)
$$;

comment on function public.staff_save_live_session(uuid, text, text, timestamptz, integer, text, text, text) is
  'Staff only (else 42501): create (p_id null) or edit a circle or Q&A call. Security invoker over private.staff_save_live_session().';
revoke execute on function public.staff_save_live_session(uuid, text, text, timestamptz, integer, text, text, text) from public, anon, authenticated, service_role;
grant execute on function public.staff_save_live_session(uuid, text, text, timestamptz, integer, text, text, text) to authenticated;

/** Staff only: cancels a session and mails each holder (a session already over is not mailed). */
create function private.staff_cancel_live_session(p_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can cancel live sessions' using errcode = '42501';
  end if;
  update public.live_sessions set cancelled_at = now(), updated_at = now() where id = p_id and cancelled_at is null;
  if not found then
    raise exception 'no such session, or it was cancelled already' using errcode = '22023';
  end if;
  if (select s.starts_at from public.live_sessions s where s.id = p_id) > now() then
    perform private.enqueue_session_notice(p_id, 'session_cancelled', null);
  end if;
end
$$;

comment on function private.staff_cancel_live_session(uuid) is 'Staff only (else 42501): cancel a session, mailing its holders.';
revoke execute on function private.staff_cancel_live_session(uuid) from public, anon, authenticated, service_role;
grant execute on function private.staff_cancel_live_session(uuid) to authenticated;

create function public.staff_cancel_live_session(p_id uuid)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.staff_cancel_live_session(p_id)
$$;

comment on function public.staff_cancel_live_session(uuid) is
  'Staff only (else 42501): cancel a live session; its holders are mailed. Security invoker over private.staff_cancel_live_session().';
revoke execute on function public.staff_cancel_live_session(uuid) from public, anon, authenticated, service_role;
grant execute on function public.staff_cancel_live_session(uuid) to authenticated;

/**
 * Staff only: sessions from 30 days back, each with its join link and who holds its benefit;
 * the timed benefits with their links; the next sessions and the accesses ending within 7 days.
 */
create function private.staff_live_overview()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can read live sessions' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'sessions', coalesce((select jsonb_agg(to_jsonb(s) || jsonb_build_object(
        'label', b.label,
        'holders', coalesce((select jsonb_agg(h.email order by h.email) from private.session_holders(s.id) h), '[]'::jsonb))
      order by s.starts_at)
      from public.live_sessions s join public.timed_benefits b on b.benefit = s.benefit
      where s.starts_at > now() - interval '30 days'), '[]'::jsonb),
    'benefits', coalesce((select jsonb_agg(to_jsonb(b) - 'updated_by' order by b.position) from public.timed_benefits b), '[]'::jsonb),
    'ending', coalesce((select jsonb_agg(jsonb_build_object('user_id', m.user_id, 'email', u.email, 'benefit', m.benefit,
        'label', b.label, 'ends_at', m.ends_at) order by m.ends_at)
      from public.member_benefits m join public.timed_benefits b on b.benefit = m.benefit
      join auth.users u on u.id = m.user_id
      where m.benefit in ('community', 'vip_community') and m.ends_at > now() and m.ends_at <= now() + interval '7 days'), '[]'::jsonb));
end
$$;

comment on function private.staff_live_overview() is 'Staff only (else 42501): sessions with holders and links, benefits, accesses ending this week.';
revoke execute on function private.staff_live_overview() from public, anon, authenticated, service_role;
grant execute on function private.staff_live_overview() to authenticated;

create function public.staff_live_overview()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.staff_live_overview()
$$;

comment on function public.staff_live_overview() is
  'Staff only (else 42501): live sessions (with holders), the timed benefits, accesses ending within 7 days. Security invoker over private.staff_live_overview().';
revoke execute on function public.staff_live_overview() from public, anon, authenticated, service_role;
grant execute on function public.staff_live_overview() to authenticated;

/** Staff only: a timed benefit's length and link (audited in catalog_audit). */
create function private.staff_save_timed_benefit(p_benefit text, p_length_days integer, p_link text)
returns public.timed_benefits
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  saved public.timed_benefits;
begin
  if not private.is_staff() then
    raise exception 'only staff can change the catalog' using errcode = '42501';
  end if;
  update public.timed_benefits set length_days = p_length_days, link = nullif(btrim(p_link), ''),
    updated_at = now(), updated_by = (select auth.uid())
  where benefit = p_benefit
  returning * into saved;
  if not found then
    raise exception 'no such benefit' using errcode = '22023';
  end if;
  return saved;
end
$$;

comment on function private.staff_save_timed_benefit(text, integer, text) is 'Staff only (else 42501): a timed benefit''s length and link.';
revoke execute on function private.staff_save_timed_benefit(text, integer, text) from public, anon, authenticated, service_role;
grant execute on function private.staff_save_timed_benefit(text, integer, text) to authenticated;

create function public.staff_save_timed_benefit(p_benefit text, p_length_days integer, p_link text)
returns public.timed_benefits
language sql
volatile
set search_path = ''
as $$
  select * from private.staff_save_timed_benefit(p_benefit, p_length_days, p_link)
$$;

comment on function public.staff_save_timed_benefit(text, integer, text) is
  'Staff only (else 42501): how long a timed benefit lasts from its grant, and its link. Security invoker over private.staff_save_timed_benefit().';
revoke execute on function public.staff_save_timed_benefit(text, integer, text) from public, anon, authenticated, service_role;
grant execute on function public.staff_save_timed_benefit(text, integer, text) to authenticated;

alter table public.catalog_audit drop constraint catalog_audit_what_check;
alter table public.catalog_audit
  add constraint catalog_audit_what_check check (what in ('product', 'provider_id', 'coaching', 'benefit'));

create or replace function private.audit_catalog_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_old jsonb := case when tg_op = 'INSERT' then null else to_jsonb(old) - 'updated_at' - 'updated_by' end;
  v_new jsonb := case when tg_op = 'DELETE' then null else to_jsonb(new) - 'updated_at' - 'updated_by' end;
begin
  if v_old is not distinct from v_new then
    return null;
  end if;
  insert into public.catalog_audit (changed_by, tier, what, operation, old_value, new_value)
  values ((select auth.uid()), coalesce(new.tier, old.tier),
          case tg_table_name when 'catalog_products' then 'product' when 'coaching_allowances' then 'coaching'
            when 'timed_benefits' then 'benefit' else 'provider_id' end,
          lower(tg_op), v_old, v_new);
  return null;
end
$$;

create trigger timed_benefits_audit after update on public.timed_benefits
  for each row execute function private.audit_catalog_change();
comment on trigger timed_benefits_audit on public.timed_benefits is
  'Audits every change of a timed benefit''s length or link (private.audit_catalog_change).';

-- ---------------------------------------------------------------------------------------------
-- The schedule (hosted): Supabase Cron calls the purchase webhook's member-mail route every five
-- minutes through pg_net, with the Vault secrets the invitations' job reads. The stand-in makes
-- the same call on its own timer (packages/supabase-stand-in/cron.mjs).
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron')
     and exists (select 1 from pg_available_extensions where name = 'pg_net')
     and exists (select 1 from pg_namespace where nspname = 'vault') then
    create extension if not exists pg_cron with schema pg_catalog;
    create extension if not exists pg_net with schema extensions;
    execute $cron$
      select cron.schedule(
        'purchase-webhook-member-mail',
        '*/5 * * * *',
        $job$
          select net.http_post(
            url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url')
                   || '/functions/v1/purchase-webhook/member-mail',
            headers := jsonb_build_object(
              'Content-Type', 'application/json',
              'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets
                                             where name = 'purchase_webhook_service_key')),
            body := '{}'::jsonb,
            timeout_milliseconds := 60000
          )
        $job$
      )
    $cron$;
  else
    raise notice 'pg_cron / pg_net / vault not available: the member-mail schedule is not created here';
  end if;
end
$$;
