import { z } from '@/config/zod-config';
import { tiers, type Tier } from '@/content/tiers';
import { paths } from '@/config/paths';
import { httpsUrl } from './catalog';
import { sessionTime } from './coaching';

/**
 * Live circles, Q&A calls and access with an end date, as staff see them (migration
 * 20261208010000_live_sessions.sql): the answers of the staff functions, read defensively since
 * jsonb comes back untyped, and the checks of what staff type, the database's own.
 */

export const SESSION_BENEFITS = ['circle', 'qa'] as const;
export type SessionBenefit = (typeof SESSION_BENEFITS)[number];

/** The select's words for each kind of session (the catalog's labels). */
export const sessionBenefitLabels: Record<SessionBenefit, string> = {
  circle: 'Group coaching circle',
  qa: 'Live Q&A calls',
};

/** The benefits whose link staff set: the private groups. The sessions carry their own join links. */
export const COMMUNITY_BENEFITS: readonly string[] = ['community', 'vip_community'];

// A missing optional text reads as none, whatever the database sent for it.
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);
// Only the e-mails: a holder without one (none is sent today) is left out rather than failing the page.
const emails = z
  .array(z.unknown())
  .nullish()
  .transform((list) => (list ?? []).filter((item): item is string => typeof item === 'string'));

const sessionSchema = z
  .object({
    id: z.string(),
    benefit: z.enum(SESSION_BENEFITS),
    label: z.string(),
    title: z.string(),
    starts_at: z.string(),
    minutes: z.number(),
    join_url: z.string(),
    description: optionalText,
    recording_path: optionalText,
    cancelled_at: optionalText,
    holders: emails,
  })
  .transform((row) => ({
    id: row.id,
    benefit: row.benefit,
    label: row.label,
    title: row.title,
    startsAt: row.starts_at,
    minutes: row.minutes,
    joinUrl: row.join_url,
    description: row.description,
    recordingPath: row.recording_path,
    cancelledAt: row.cancelled_at,
    holders: row.holders,
  }));
export type StaffLiveSession = z.output<typeof sessionSchema>;

const timedBenefitSchema = z
  .object({
    benefit: z.string(),
    tier: z.enum(tiers),
    label: z.string(),
    length_days: z.number(),
    link: optionalText,
    position: z.number().nullish(),
    updated_at: z.string(),
  })
  .transform((row) => ({
    benefit: row.benefit,
    tier: row.tier as Tier,
    label: row.label,
    lengthDays: row.length_days,
    link: row.link,
    updatedAt: row.updated_at,
  }));
export type TimedBenefit = z.output<typeof timedBenefitSchema>;

const endingSchema = z
  .object({ user_id: z.string(), email: optionalText, benefit: z.string(), label: z.string(), ends_at: z.string() })
  .transform((row) => ({
    userId: row.user_id,
    email: row.email,
    benefit: row.benefit,
    label: row.label,
    endsAt: row.ends_at,
  }));
export type EndingAccess = z.output<typeof endingSchema>;

// A list the answer leaves out reads as empty: one part missing should not hide the others.
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((rows) => rows ?? []);

const overviewSchema = z.object({
  sessions: list(sessionSchema),
  benefits: list(timedBenefitSchema),
  ending: list(endingSchema),
});
export type LiveOverview = z.output<typeof overviewSchema>;

const memberBenefitSchema = z
  .object({ benefit: z.string(), label: z.string(), starts_at: z.string(), ends_at: z.string(), active: z.boolean() })
  .transform((row) => ({
    benefit: row.benefit,
    label: row.label,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    active: row.active,
  }));
export type MemberBenefit = z.output<typeof memberBenefitSchema>;

const changeSchema = z
  .object({
    benefit: z.string(),
    action: z.string(),
    old_ends_at: optionalText,
    new_ends_at: z.string(),
    reason: optionalText,
    changed_at: z.string(),
    changed_by: optionalText,
  })
  .transform((row) => ({
    benefit: row.benefit,
    action: row.action,
    oldEndsAt: row.old_ends_at,
    newEndsAt: row.new_ends_at,
    reason: row.reason,
    changedAt: row.changed_at,
    changedBy: row.changed_by,
  }));
export type BenefitChange = z.output<typeof changeSchema>;

const memberBenefitsSchema = z.object({ benefits: list(memberBenefitSchema), audit: list(changeSchema) });
export type MemberBenefits = z.output<typeof memberBenefitsSchema>;

/** The schema's data, or an error in words: zod's own message is a list of paths staff can't use. */
function parseAnswer<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new Error(`The database’s answer about ${what} was not understood. Reload the page to try again.`);
}

/** public.staff_live_overview(): the sessions from 30 days back, the timed benefits, the accesses ending soon. */
export function parseLiveOverview(value: unknown): LiveOverview {
  return parseAnswer(overviewSchema, value, 'the live sessions');
}

/** public.staff_member_benefits(): a member's benefits and every change of them. */
export function parseMemberBenefits(value: unknown): MemberBenefits {
  return parseAnswer(memberBenefitsSchema, value, 'the member’s access');
}

/** When a session ends: its start plus its length. */
export function sessionEnd(session: Pick<StaffLiveSession, 'startsAt' | 'minutes'>): string | null {
  const start = Date.parse(session.startsAt);
  return Number.isNaN(start) ? null : new Date(start + session.minutes * 60_000).toISOString();
}

/** "Tue, 12 Jan 2027, 18:00–20:00 GMT" in the viewer's zone (`timeZone` for tests). */
export function sessionWhen(session: Pick<StaffLiveSession, 'startsAt' | 'minutes'>, timeZone?: string): string {
  return sessionTime(session.startsAt, sessionEnd(session), timeZone);
}

/** Whether the session is over at `now`. */
export function isOver(session: Pick<StaffLiveSession, 'startsAt' | 'minutes'>, now: Date): boolean {
  const end = sessionEnd(session);
  return end !== null && Date.parse(end) <= now.getTime();
}

/** The sessions still to come or under way, not cancelled, soonest first: the dashboard's few. */
export function nextSessions(sessions: readonly StaffLiveSession[], now: Date, count = 3): StaffLiveSession[] {
  return sessions
    .filter((session) => !session.cancelledAt && !isOver(session, now))
    .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt))
    .slice(0, count);
}

/** "No member holds this" / "1 member holds this" / "3 members hold this" */
export function holdersText(count: number): string {
  if (count === 0) return 'No member holds this';
  return count === 1 ? '1 member holds this' : `${count} members hold this`;
}

/** "7 March 2027", in the viewer's zone. */
export function formatDay(iso: string | null, timeZone?: string): string {
  if (!iso) return 'none';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(date);
}

/** "1 Dec 2026, 09:00 GMT", in the viewer's zone, the zone named. */
export function formatWhen(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  }).format(date);
}

/** "until 7 March 2027" while it lasts, "ended on 7 March 2027" after. */
export function accessText(benefit: Pick<MemberBenefit, 'active' | 'endsAt'>, timeZone?: string): string {
  return benefit.active
    ? `until ${formatDay(benefit.endsAt, timeZone)}`
    : `ended on ${formatDay(benefit.endsAt, timeZone)}`;
}

const actionLabels: Record<string, string> = {
  granted: 'Granted',
  extended: 'Extended',
  ended: 'Ended by staff',
  refunded: 'Ended by a refund',
  revoked: 'Ended with the tier',
};

/** The audit's action in words; an action this page doesn't know is shown as it is. */
export function actionLabel(action: string): string {
  return actionLabels[action] ?? action;
}

/**
 * The value a datetime-local input shows for an instant: the viewer's own wall time, which is
 * how `new Date(value)` reads it back, so an edit that keeps the field sends the same instant.
 */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** The members page opened on this member (its search and panel), for the dashboard's links. */
export function memberPageLink(userId: string, email: string | null): string {
  const query = new URLSearchParams({ member: userId, ...(email ? { search: email } : {}) });
  return `${paths.staffMembers}?${query.toString()}`;
}

type Checked<T> = { ok: true; data: T } | { ok: false; errors: Partial<Record<string, string>> };

/** The fields' messages when any field has one; null when all are fine. */
function problems(
  errors: Record<string, string | null>,
): { ok: false; errors: Partial<Record<string, string>> } | null {
  const found = Object.entries(errors).filter((entry): entry is [string, string] => entry[1] !== null);
  return found.length > 0 ? { ok: false, errors: Object.fromEntries(found) } : null;
}

/** A whole number typed by staff, or null. */
function whole(text: string): number | null {
  const cleaned = text.trim();
  return /^\d{1,5}$/.test(cleaned) ? Number(cleaned) : null;
}

/** A file in the resources bucket, as public.resource_path_tier() accepts one: tier/card/file. */
const resourcePath = new RegExp(
  `^(${tiers.join('|')})/[a-z0-9]+(-[a-z0-9]+)*/[^./\\\\][^/\\\\]{0,199}\\.(pdf|epub|mobi|mp3)$`,
  'i',
);

export const sessionFieldMessages = {
  benefit: 'Choose the group coaching circle or the live Q&A calls.',
  title: 'Give the session a title of 200 characters or fewer.',
  starts_at: 'Give the day and time it starts.',
  minutes: 'The length is a whole number of minutes from 5 to 600.',
  join_url: 'The join link must be an https:// link, like https://zoom.us/j/123456789.',
  description: 'Keep the description to 5,000 characters or fewer.',
  recording_path: 'The recording is a file in the resources, like complete/qa-calls/2027-01-12.mp3.',
} as const;

export type SessionFormValues = Record<keyof typeof sessionFieldMessages, string>;
export type SessionFormData = {
  benefit: SessionBenefit;
  title: string;
  /** The instant it starts (ISO), read from the viewer's wall time. */
  startsAt: string;
  minutes: number;
  joinUrl: string;
  description: string;
  recordingPath: string;
};

/** The session form's checks, the table's own (its check constraints). */
export function checkSessionForm(values: SessionFormValues): Checked<SessionFormData> {
  const benefit = SESSION_BENEFITS.find((kind) => kind === values.benefit);
  const title = values.title.trim();
  // A datetime-local value has no zone: the Date reads it as the viewer's own wall time.
  const start = values.starts_at ? new Date(values.starts_at) : null;
  const minutes = whole(values.minutes);
  const joinUrl = values.join_url.trim();
  const recordingPath = values.recording_path.trim();
  const m = sessionFieldMessages;
  return (
    problems({
      benefit: benefit ? null : m.benefit,
      title: title === '' || title.length > 200 ? m.title : null,
      starts_at: !start || Number.isNaN(start.getTime()) ? m.starts_at : null,
      minutes: minutes === null || minutes < 5 || minutes > 600 ? m.minutes : null,
      join_url: !httpsUrl.test(joinUrl) || joinUrl.length > 2000 ? m.join_url : null,
      description: values.description.trim().length > 5000 ? m.description : null,
      recording_path: recordingPath !== '' && !resourcePath.test(recordingPath) ? m.recording_path : null,
    }) ?? {
      ok: true,
      data: {
        benefit: benefit ?? 'circle',
        title,
        startsAt: start?.toISOString() ?? '',
        minutes: minutes ?? 0,
        joinUrl,
        description: values.description.trim(),
        recordingPath,
      },
    }
  );
}

export type BenefitFormData = { lengthDays: number; link: string };

/** A timed benefit's length (1 to 3650 days) and its link (https, or empty for none). */
export function checkBenefitForm(values: { length_days: string; link: string }): Checked<BenefitFormData> {
  const days = whole(values.length_days);
  const link = values.link.trim();
  return (
    problems({
      length_days:
        days === null || days < 1 || days > 3650 ? 'The length is a whole number of days from 1 to 3650.' : null,
      link:
        link !== '' && (!httpsUrl.test(link) || link.length > 2000)
          ? 'The link must be an https:// link, like https://www.facebook.com/groups/your-group.'
          : null,
    }) ?? { ok: true, data: { lengthDays: days ?? 0, link } }
  );
}

export type BenefitAction = 'extend' | 'end';
export type BenefitChangeData = { benefit: string; action: BenefitAction; days: number | null; reason: string };

/** What the form says when the reason is blank, as the database's refusal is said too. */
export const REASON_REQUIRED = 'Give a reason: it is kept with the change.';

/** Extend by 1 to 3650 days, or end now; a reason either way (the database's rules). */
export function checkBenefitChange(values: {
  benefit: string;
  action: string;
  days: string;
  reason: string;
}): Checked<BenefitChangeData> {
  const action = values.action === 'extend' || values.action === 'end' ? values.action : null;
  const days = action === 'extend' ? whole(values.days) : null;
  const reason = values.reason.trim();
  return (
    problems({
      benefit: values.benefit ? null : 'Choose the access to change.',
      action: action ? null : 'Choose to extend it or to end it now.',
      days:
        action === 'extend' && (days === null || days < 1 || days > 3650)
          ? 'Extend by a whole number of days from 1 to 3650.'
          : null,
      reason:
        reason === '' ? REASON_REQUIRED : reason.length > 500 ? 'Keep the reason to 500 characters or fewer.' : null,
    }) ?? { ok: true, data: { benefit: values.benefit, action: action ?? 'end', days, reason } }
  );
}
