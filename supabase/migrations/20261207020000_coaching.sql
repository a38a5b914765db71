-- One-to-one coaching: members book the sessions their bundle includes on the owner's Cal.com or
-- Calendly page, and the count keeps itself from the providers' signed webhooks.
--
-- * public.coaching_allowances (the catalog): each tier's sessions, their length and the booking
--   page. Staff change them through staff_save_coaching; every change is in catalog_audit.
-- * public.coaching_adjustments: a session given or taken by staff for one member, with a reason
--   and who (a gift, a session given back after a no-show). Append-only.
-- * public.coaching_bookings: each booking the booking webhook recorded (record_booking,
--   service_role), tied to a member by the id the link carried, else a confirmed account's
--   e-mail, else unmatched (staff assign it). 'booked' counts; 'cancelled' and 'rescheduled' do
--   not. A booking beyond the allowance is recorded and flagged, never dropped.
-- * public.coaching_private_notes: staff's own notes on a booking; the member never reads them.
--   The note for the member is coaching_bookings.member_note.
-- * A member's allowance: their tier's sessions plus staff's adjustments, none without a tier
--   that includes coaching (a refund ends it; bookings stay in the history).
-- See docs/decisions/101-coaching-counted-by-webhooks.md.

-- ---------------------------------------------------------------------------------------------
-- The catalog: each tier's sessions

create table public.coaching_allowances (
  tier public.tier primary key,
  sessions integer not null default 0 check (sessions between 0 and 100),
  minutes integer not null default 90 check (minutes between 15 and 480),
  booking_url text check (
    booking_url is null
    or (booking_url ~ '^https://[^\s/?#@]+\.[^\s/?#@]+(/\S*)?$' and char_length(booking_url) <= 2000)
  ),
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);

comment on table public.coaching_allowances is
  'Each tier''s one-to-one coaching: how many sessions, how long, and the booking page (a Cal.com or Calendly link). Staff change it through staff_save_coaching; audited in catalog_audit.';
comment on column public.coaching_allowances.booking_url is 'The owner''s https booking page for this tier''s sessions (Cal.com or Calendly).';

insert into public.coaching_allowances (tier, sessions, minutes) values
  ('ebook', 0, 90), ('foundation', 0, 90), ('accelerated', 2, 90), ('complete', 6, 90);

alter table public.coaching_allowances enable row level security;
revoke all on table public.coaching_allowances from public, anon, authenticated, service_role;
grant select on table public.coaching_allowances to authenticated, service_role;

/** Signed-in users read the allowances: what each bundle includes is no secret. */
create policy "Signed-in users read the coaching allowances"
  on public.coaching_allowances for select
  to authenticated
  using (true);

comment on policy "Signed-in users read the coaching allowances" on public.coaching_allowances is
  'select: every row, for any signed-in user. Writes go through staff_save_coaching only.';

alter table public.catalog_audit drop constraint catalog_audit_what_check;
alter table public.catalog_audit
  add constraint catalog_audit_what_check check (what in ('product', 'provider_id', 'coaching'));

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
            else 'provider_id' end,
          lower(tg_op), v_old, v_new);
  return null;
end
$$;

create trigger coaching_allowances_audit after insert or update or delete on public.coaching_allowances
  for each row execute function private.audit_catalog_change();
comment on trigger coaching_allowances_audit on public.coaching_allowances is
  'Audits every change of a tier''s coaching (private.audit_catalog_change).';

-- ---------------------------------------------------------------------------------------------
-- Staff's adjustments, bookings and notes

/** A session given (+) or taken (-) by staff for one member, with the reason. Append-only. */
create table public.coaching_adjustments (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  delta integer not null check (delta <> 0 and delta between -20 and 20),
  reason text not null check (char_length(reason) between 1 and 500),
  staff_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);

comment on table public.coaching_adjustments is
  'Sessions staff gave (+) or took (-) for a member, each with a reason and who: the audit of allowance changes. Written only by staff_adjust_coaching.';
create index coaching_adjustments_user on public.coaching_adjustments (user_id, created_at);

/** One booking a provider's webhook told us of. */
create table public.coaching_bookings (
  id uuid primary key default gen_random_uuid(),
  provider text not null check (provider in ('calcom', 'calendly')),
  provider_booking_id text not null check (char_length(provider_booking_id) between 1 and 500),
  user_id uuid references auth.users (id) on delete cascade,
  email text check (email is null or char_length(email) <= 320),
  name text check (name is null or char_length(name) <= 200),
  starts_at timestamptz,
  ends_at timestamptz,
  meeting_url text check (meeting_url is null or (meeting_url ~ '^https://\S+$' and char_length(meeting_url) <= 2000)),
  status text not null check (status in ('booked', 'cancelled', 'rescheduled')),
  over_allowance boolean not null default false,
  member_note text check (member_note is null or char_length(member_note) <= 5000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, provider_booking_id)
);

comment on table public.coaching_bookings is
  'Coaching sessions booked on Cal.com or Calendly, from their signed webhooks (record_booking). user_id null: matched no member yet (Unmatched bookings). Only ''booked'' counts against the allowance.';
comment on column public.coaching_bookings.over_allowance is 'Booked when the member had no session left: recorded, and flagged for staff.';
comment on column public.coaching_bookings.member_note is 'Staff''s note for the member after the session; the member reads it.';
create index coaching_bookings_user on public.coaching_bookings (user_id, starts_at);
create index coaching_bookings_upcoming on public.coaching_bookings (starts_at) where status = 'booked';
create index coaching_bookings_unmatched on public.coaching_bookings (created_at) where user_id is null;

/** Staff's private notes on a booking: never shown to the member. */
create table public.coaching_private_notes (
  booking_id uuid primary key references public.coaching_bookings (id) on delete cascade,
  note text not null check (char_length(note) <= 5000),
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);

comment on table public.coaching_private_notes is 'Staff''s own notes on a booking. Staff only; written by staff_save_booking_notes.';

alter table public.coaching_adjustments enable row level security;
alter table public.coaching_bookings enable row level security;
alter table public.coaching_private_notes enable row level security;
revoke all on table public.coaching_adjustments, public.coaching_bookings, public.coaching_private_notes
  from public, anon, authenticated, service_role;
grant select on table public.coaching_adjustments, public.coaching_bookings, public.coaching_private_notes
  to authenticated, service_role;
revoke all on sequence public.coaching_adjustments_id_seq from public, anon, authenticated, service_role;

/** Staff read every adjustment; a member reads their own. */
create policy "Members read their own adjustments, staff all"
  on public.coaching_adjustments for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

/** A member reads their own bookings (with the notes meant for them); staff read all. */
create policy "Members read their own bookings, staff all"
  on public.coaching_bookings for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

/** Only staff read private notes. */
create policy "Staff read private notes"
  on public.coaching_private_notes for select
  to authenticated
  using ((select private.is_staff()));

comment on policy "Members read their own adjustments, staff all" on public.coaching_adjustments is
  'select: the caller''s own rows, or all for staff. Written by staff_adjust_coaching only.';
comment on policy "Members read their own bookings, staff all" on public.coaching_bookings is
  'select: the caller''s own bookings, or all for staff. Written by record_booking (the webhook) and staff functions only.';
comment on policy "Staff read private notes" on public.coaching_private_notes is
  'select: staff only. A member never reads them.';

-- ---------------------------------------------------------------------------------------------
-- The count

/**
 * A member's sessions: their tier's plus staff's adjustments, never below 0; none when their
 * tier includes no coaching (no tier, a refund). Security definer: it reads the tier.
 */
create function private.coaching_allowance(p_user uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when coalesce(a.sessions, 0) = 0 then 0
    else greatest(0, a.sessions + coalesce((select sum(d.delta)::integer from public.coaching_adjustments d
                                             where d.user_id = p_user), 0)) end
  from (select 1) one
  left join public.user_tiers t on t.user_id = p_user
  left join public.coaching_allowances a on a.tier = t.tier
$$;

comment on function private.coaching_allowance(uuid) is 'A member''s coaching sessions: tier''s plus adjustments, 0 without a coaching tier.';
revoke execute on function private.coaching_allowance(uuid) from public, anon, authenticated, service_role;

/** Sessions a member holds: bookings still booked (past and upcoming). */
create function private.coaching_used(p_user uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from public.coaching_bookings b where b.user_id = p_user and b.status = 'booked'
$$;

comment on function private.coaching_used(uuid) is 'A member''s booked sessions (a cancelled or rescheduled booking gives its session back).';
revoke execute on function private.coaching_used(uuid) from public, anon, authenticated, service_role;

/** The account a booking belongs to: the id its link carried, else the e-mail; confirmed accounts only. */
create function private.booking_member(p_member_id text, p_email text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.id from auth.users u
     where p_member_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
       and u.id = p_member_id::uuid and u.email_confirmed_at is not null),
    (select u.id from auth.users u
     where lower(u.email) = lower(btrim(p_email)) and u.email_confirmed_at is not null
     order by u.created_at limit 1)
  )
$$;

comment on function private.booking_member(text, text) is
  'The confirmed account a booking is for: by the member id the booking link carried, else by e-mail; null when none.';
revoke execute on function private.booking_member(text, text) from public, anon, authenticated, service_role;

/** The signed-in member's coaching: sessions, used, left, length and booking page. */
create function private.member_coaching()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  allowed integer;
  held integer;
  tier_row public.coaching_allowances%rowtype;
begin
  if me is null then
    raise exception 'sign in to see your coaching' using errcode = '42501';
  end if;
  allowed := private.coaching_allowance(me);
  held := private.coaching_used(me);
  select a.* into tier_row from public.user_tiers t join public.coaching_allowances a on a.tier = t.tier
  where t.user_id = me;
  return jsonb_build_object(
    'sessions', allowed, 'used', held, 'left', greatest(0, allowed - held),
    'minutes', coalesce(tier_row.minutes, 90),
    'booking_url', case when allowed > 0 then tier_row.booking_url end,
    -- What the booking page is prefilled with.
    'name', (select p.display_name from public.profiles p where p.id = me),
    'email', (select u.email::text from auth.users u where u.id = me)
  );
end
$$;

comment on function private.member_coaching() is 'The caller''s sessions, used, left, minutes, booking page (null without sessions), and their name and e-mail to prefill it with.';
revoke execute on function private.member_coaching() from public, anon, authenticated, service_role;
grant execute on function private.member_coaching() to authenticated;

create function public.member_coaching()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.member_coaching()
$$;

comment on function public.member_coaching() is
  'Signed-in members: their coaching sessions, used and left, and the booking page. Security invoker over private.member_coaching().';
revoke execute on function public.member_coaching() from public, anon, authenticated, service_role;
grant execute on function public.member_coaching() to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The booking webhook

/**
 * For the booking webhook (service_role): records one provider event, idempotently per booking.
 * 'created' adds the booking (a repeat changes nothing; a booking already cancelled stays so),
 * first marking a reschedule's previous booking 'rescheduled'. 'cancelled' and 'rescheduled'
 * mark the booking so, recording it when it was never seen (a late or out-of-order delivery).
 */
create function private.record_booking(
  p_provider text, p_event text, p_booking_id text, p_previous_booking_id text, p_member_id text,
  p_email text, p_name text, p_starts_at timestamptz, p_ends_at timestamptz, p_meeting_url text,
  p_occurred_at timestamptz
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  member uuid := private.booking_member(p_member_id, p_email);
  link text := case when p_meeting_url ~ '^https://\S+$' and char_length(p_meeting_url) <= 2000 then p_meeting_url end;
  booking public.coaching_bookings%rowtype;
begin
  if p_event not in ('created', 'cancelled', 'rescheduled') then
    raise exception 'unknown booking event %', p_event using errcode = '22023';
  end if;
  if p_event = 'created' and p_previous_booking_id is not null then
    perform private.mark_booking(p_provider, p_previous_booking_id, 'rescheduled', member, p_email, p_name, link);
  end if;
  if p_event <> 'created' then
    booking := private.mark_booking(p_provider, p_booking_id, p_event, member, p_email, p_name, link);
  else
    insert into public.coaching_bookings as b
      (provider, provider_booking_id, user_id, email, name, starts_at, ends_at, meeting_url, status, over_allowance)
    values (p_provider, p_booking_id, member, lower(btrim(p_email)), left(btrim(p_name), 200), p_starts_at, p_ends_at, link,
            'booked', member is not null and private.coaching_used(member) >= private.coaching_allowance(member))
    on conflict (provider, provider_booking_id) do nothing
    returning * into booking;
    if not found then
      select * into booking from public.coaching_bookings b where b.provider = p_provider and b.provider_booking_id = p_booking_id;
    end if;
  end if;
  return jsonb_build_object('booking_id', booking.id, 'user_id', booking.user_id, 'status', booking.status,
                            'over_allowance', booking.over_allowance);
end
$$;

comment on function private.record_booking(text, text, text, text, text, text, text, timestamptz, timestamptz, text, timestamptz) is
  'For the booking webhook: records a created, cancelled or rescheduled booking, idempotently.';
revoke execute on function private.record_booking(text, text, text, text, text, text, text, timestamptz, timestamptz, text, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function private.record_booking(text, text, text, text, text, text, text, timestamptz, timestamptz, text, timestamptz)
  to service_role;

/** Marks a booking cancelled or rescheduled, recording it when it was never seen. */
create function private.mark_booking(
  p_provider text, p_booking_id text, p_status text, p_member uuid, p_email text, p_name text, p_link text
)
returns public.coaching_bookings
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  booking public.coaching_bookings%rowtype;
begin
  insert into public.coaching_bookings as b (provider, provider_booking_id, user_id, email, name, meeting_url, status)
  values (p_provider, p_booking_id, p_member, lower(btrim(p_email)), left(btrim(p_name), 200), p_link, p_status)
  on conflict (provider, provider_booking_id) do update
    set status = excluded.status, updated_at = now()
    where b.status = 'booked'
  returning * into booking;
  if not found then
    select * into booking from public.coaching_bookings b where b.provider = p_provider and b.provider_booking_id = p_booking_id;
  end if;
  return booking;
end
$$;

comment on function private.mark_booking(text, text, text, uuid, text, text, text) is
  'record_booking''s half for cancellations and reschedules: a booked booking becomes p_status; an unknown one is recorded so.';
revoke execute on function private.mark_booking(text, text, text, uuid, text, text, text) from public, anon, authenticated, service_role;

create function public.record_booking(
  p_provider text, p_event text, p_booking_id text, p_previous_booking_id text, p_member_id text,
  p_email text, p_name text, p_starts_at timestamptz, p_ends_at timestamptz, p_meeting_url text,
  p_occurred_at timestamptz
)
returns jsonb
language sql
volatile
set search_path = ''
as $$
  select private.record_booking(p_provider, p_event, p_booking_id, p_previous_booking_id, p_member_id,
    p_email, p_name, p_starts_at, p_ends_at, p_meeting_url, p_occurred_at)
$$;

comment on function public.record_booking(text, text, text, text, text, text, text, timestamptz, timestamptz, text, timestamptz) is
  'service_role only (the booking webhook): records a provider''s booking event. Security invoker over private.record_booking().';
revoke execute on function public.record_booking(text, text, text, text, text, text, text, timestamptz, timestamptz, text, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function public.record_booking(text, text, text, text, text, text, text, timestamptz, timestamptz, text, timestamptz)
  to service_role;

-- ---------------------------------------------------------------------------------------------
-- Staff

/** Staff only: a tier's sessions, their length and booking page (audited by the catalog trigger). */
create function private.staff_save_coaching(p_tier public.tier, p_sessions integer, p_minutes integer, p_booking_url text)
returns public.coaching_allowances
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  saved public.coaching_allowances;
begin
  if not private.is_staff() then
    raise exception 'only staff can change coaching' using errcode = '42501';
  end if;
  update public.coaching_allowances
  set sessions = p_sessions, minutes = p_minutes, booking_url = nullif(btrim(p_booking_url), ''),
      updated_at = now(), updated_by = (select auth.uid())
  where tier = p_tier
  returning * into saved;
  return saved;
end
$$;

comment on function private.staff_save_coaching(public.tier, integer, integer, text) is 'Staff only (else 42501): a tier''s coaching.';
revoke execute on function private.staff_save_coaching(public.tier, integer, integer, text) from public, anon, authenticated, service_role;
grant execute on function private.staff_save_coaching(public.tier, integer, integer, text) to authenticated;

create function public.staff_save_coaching(p_tier public.tier, p_sessions integer, p_minutes integer, p_booking_url text)
returns public.coaching_allowances
language sql
volatile
set search_path = ''
as $$
  select * from private.staff_save_coaching(p_tier, p_sessions, p_minutes, p_booking_url)
$$;

comment on function public.staff_save_coaching(public.tier, integer, integer, text) is
  'Staff only (else 42501): change a tier''s sessions, length and booking page. Security invoker over private.staff_save_coaching().';
revoke execute on function public.staff_save_coaching(public.tier, integer, integer, text) from public, anon, authenticated, service_role;
grant execute on function public.staff_save_coaching(public.tier, integer, integer, text) to authenticated;

/** Staff only: gives (+) or takes (-) sessions for a member, with a reason. */
create function private.staff_adjust_coaching(p_user uuid, p_delta integer, p_reason text)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can adjust coaching' using errcode = '42501';
  end if;
  insert into public.coaching_adjustments (user_id, delta, reason, staff_id)
  values (p_user, p_delta, private.checked_reason(p_reason), (select auth.uid()));
  return private.coaching_allowance(p_user);
end
$$;

comment on function private.staff_adjust_coaching(uuid, integer, text) is 'Staff only (else 42501): adjusts a member''s sessions; returns the new allowance.';
revoke execute on function private.staff_adjust_coaching(uuid, integer, text) from public, anon, authenticated, service_role;
grant execute on function private.staff_adjust_coaching(uuid, integer, text) to authenticated;

create function public.staff_adjust_coaching(p_user uuid, p_delta integer, p_reason text)
returns integer
language sql
volatile
set search_path = ''
as $$
  select private.staff_adjust_coaching(p_user, p_delta, p_reason)
$$;

comment on function public.staff_adjust_coaching(uuid, integer, text) is
  'Staff only (else 42501): give or take a member''s sessions with a reason. Security invoker over private.staff_adjust_coaching().';
revoke execute on function public.staff_adjust_coaching(uuid, integer, text) from public, anon, authenticated, service_role;
grant execute on function public.staff_adjust_coaching(uuid, integer, text) to authenticated;

/** Staff only: ties an unmatched (or wrongly matched) booking to a member, flagging it when over their allowance. */
create function private.staff_assign_booking(p_booking uuid, p_user uuid)
returns public.coaching_bookings
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  saved public.coaching_bookings;
begin
  if not private.is_staff() then
    raise exception 'only staff can assign bookings' using errcode = '42501';
  end if;
  if not exists (select 1 from auth.users u where u.id = p_user and u.email_confirmed_at is not null) then
    raise exception 'no confirmed account with that id' using errcode = '22023';
  end if;
  update public.coaching_bookings b
  set user_id = p_user, updated_at = now(),
      over_allowance = b.status = 'booked' and private.coaching_used(p_user) >= private.coaching_allowance(p_user)
  where b.id = p_booking
  returning * into saved;
  if not found then
    raise exception 'no such booking' using errcode = '22023';
  end if;
  return saved;
end
$$;

comment on function private.staff_assign_booking(uuid, uuid) is 'Staff only (else 42501): assigns a booking to a confirmed member.';
revoke execute on function private.staff_assign_booking(uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function private.staff_assign_booking(uuid, uuid) to authenticated;

create function public.staff_assign_booking(p_booking uuid, p_user uuid)
returns public.coaching_bookings
language sql
volatile
set search_path = ''
as $$
  select * from private.staff_assign_booking(p_booking, p_user)
$$;

comment on function public.staff_assign_booking(uuid, uuid) is
  'Staff only (else 42501): tie a booking to a member. Security invoker over private.staff_assign_booking().';
revoke execute on function public.staff_assign_booking(uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.staff_assign_booking(uuid, uuid) to authenticated;

/** Staff only: a booking's note for the member and staff's private note (empty removes it). */
create function private.staff_save_booking_notes(p_booking uuid, p_member_note text, p_private_note text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'only staff can write session notes' using errcode = '42501';
  end if;
  update public.coaching_bookings set member_note = nullif(btrim(p_member_note), ''), updated_at = now()
  where id = p_booking;
  if not found then
    raise exception 'no such booking' using errcode = '22023';
  end if;
  if nullif(btrim(p_private_note), '') is null then
    delete from public.coaching_private_notes where booking_id = p_booking;
  else
    insert into public.coaching_private_notes (booking_id, note, updated_by)
    values (p_booking, btrim(p_private_note), (select auth.uid()))
    on conflict (booking_id) do update set note = excluded.note, updated_at = now(), updated_by = excluded.updated_by;
  end if;
end
$$;

comment on function private.staff_save_booking_notes(uuid, text, text) is 'Staff only (else 42501): a booking''s notes.';
revoke execute on function private.staff_save_booking_notes(uuid, text, text) from public, anon, authenticated, service_role;
grant execute on function private.staff_save_booking_notes(uuid, text, text) to authenticated;

create function public.staff_save_booking_notes(p_booking uuid, p_member_note text, p_private_note text)
returns void
language sql
volatile
set search_path = ''
as $$
  select private.staff_save_booking_notes(p_booking, p_member_note, p_private_note)
$$;

comment on function public.staff_save_booking_notes(uuid, text, text) is
  'Staff only (else 42501): the note for the member and the private note on a booking. Security invoker over private.staff_save_booking_notes().';
revoke execute on function public.staff_save_booking_notes(uuid, text, text) from public, anon, authenticated, service_role;
grant execute on function public.staff_save_booking_notes(uuid, text, text) to authenticated;

/** Staff only: a member's sessions, used and left. */
create function private.staff_member_coaching(p_user uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  allowed integer;
  held integer;
begin
  if not private.is_staff() then
    raise exception 'only staff can read a member''s coaching' using errcode = '42501';
  end if;
  allowed := private.coaching_allowance(p_user);
  held := private.coaching_used(p_user);
  return jsonb_build_object('sessions', allowed, 'used', held, 'left', greatest(0, allowed - held));
end
$$;

comment on function private.staff_member_coaching(uuid) is 'Staff only (else 42501): a member''s sessions, used and left.';
revoke execute on function private.staff_member_coaching(uuid) from public, anon, authenticated, service_role;
grant execute on function private.staff_member_coaching(uuid) to authenticated;

create function public.staff_member_coaching(p_user uuid)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select private.staff_member_coaching(p_user)
$$;

comment on function public.staff_member_coaching(uuid) is
  'Staff only (else 42501): a member''s sessions, used and left. Security invoker over private.staff_member_coaching().';
revoke execute on function public.staff_member_coaching(uuid) from public, anon, authenticated, service_role;
grant execute on function public.staff_member_coaching(uuid) to authenticated;
