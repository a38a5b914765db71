// Sends the booking webhook a correctly signed Cal.com or Calendly delivery, built from the
// provider's own documented example (supabase/functions/booking-webhook/fixtures), so the
// coaching flow can be tried locally (the stand-in runs the function: `npm run dev`):
//
//   npm run booking:simulate -- --provider calcom|calendly --event created|cancelled|rescheduled
//     --email accelerated@example.com [--member <uuid>] [--name NAME] [--uid ID] [--start ISO] [--url URL]
//
// Runs in Deno (the pinned npm package). The booking id defaults to one derived from provider and
// e-mail, so `--event cancelled` or `rescheduled` with the same arguments acts on the simulated
// booking; a reschedule moves it to `<id>-moved` (Calendly: two deliveries, the old invitee
// cancelled as rescheduled, then the new one). --member is the id the site's booking link carries
// (without it the booking is matched by e-mail). URL: --url, else BOOKING_WEBHOOK_URL, else the
// local stand-in. Secrets: CALCOM_WEBHOOK_SECRET / CALENDLY_WEBHOOK_SIGNING_KEY, else the
// stand-in's local ones.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { parseArgs } from 'node:util';
import {
  CALCOM_SIGNATURE_HEADER,
  CALENDLY_SIGNATURE_HEADER,
  calcomSignature,
  calendlySignatureHeader,
  utf8,
} from '../../supabase/functions/booking-webhook/signing.ts';
import { LOCAL_FUNCTION_SECRETS } from '../../packages/supabase-stand-in/functions/secrets.mjs';

const USAGE =
  'usage: npm run booking:simulate -- --provider calcom|calendly --event created|cancelled|rescheduled --email a@b.c [--member UUID] [--name NAME] [--uid ID] [--start ISO] [--url URL]';

type Json = Record<string, unknown> & { payload: Record<string, unknown> };

type Simulation = {
  provider: 'calcom' | 'calendly';
  event: 'created' | 'cancelled' | 'rescheduled';
  email: string;
  name: string;
  member: string | null;
  uid: string;
  start: Date;
  url: string;
};

/** A session's length: the allowances' default (coaching_allowances.minutes). */
const SESSION_MINUTES = 90;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function fixture(name: string): Json {
  const file = new URL(`../../supabase/functions/booking-webhook/fixtures/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Json;
}

async function shortHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(text)));
  return Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Tomorrow at 15:00 UTC: a time the member's page shows as upcoming. */
function tomorrowAfternoon(): Date {
  const day = new Date(Date.now() + 24 * 3600 * 1000);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 15));
}

async function readSimulation(argv: string[]): Promise<Simulation> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        provider: { type: 'string', default: 'calcom' },
        event: { type: 'string', default: 'created' },
        email: { type: 'string' },
        name: { type: 'string' },
        member: { type: 'string' },
        uid: { type: 'string' },
        start: { type: 'string' },
        url: { type: 'string' },
      },
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const { provider, event } = values;
  if (provider !== 'calcom' && provider !== 'calendly') fail('--provider must be calcom or calendly');
  if (event !== 'created' && event !== 'cancelled' && event !== 'rescheduled')
    fail('--event must be created, cancelled or rescheduled');
  const email = values.email?.trim();
  if (!email || !email.includes('@')) fail('--email is required');
  const start = values.start ? new Date(values.start) : tomorrowAfternoon();
  if (Number.isNaN(start.getTime())) fail('--start must be a date, e.g. 2026-12-24T15:00:00Z');
  const hash = await shortHash(`${provider} ${email.toLowerCase()}`);
  const uid =
    values.uid ??
    (provider === 'calcom'
      ? `sim-${hash}`
      : `https://api.calendly.com/scheduled_events/SIM${hash}/invitees/SIM${hash}`);
  const url = (values.url ?? process.env.BOOKING_WEBHOOK_URL ?? 'http://127.0.0.1:54321/functions/v1/booking-webhook')
    .trim()
    .replace(/\/+$/, '');
  const name = values.name?.trim() || email.split('@')[0] || 'Simulated member';
  return { provider, event, email, name, member: values.member?.trim() || null, uid, start, url };
}

/** Cal.com's documented example for the event, carrying this booking. */
function calcomBody(sim: Simulation): Json {
  const body = fixture(`calcom-booking-${sim.event}`);
  const p = body.payload;
  const uid = sim.event === 'rescheduled' ? `${sim.uid}-moved` : sim.uid;
  const end = new Date(sim.start.getTime() + SESSION_MINUTES * 60_000);
  Object.assign(p, { uid, startTime: sim.start.toISOString(), endTime: end.toISOString() });
  if (sim.event === 'rescheduled') p.rescheduleUid = sim.uid;
  p.attendees = [{ ...(p.attendees as Record<string, unknown>[])[0], email: sim.email, name: sim.name }];
  p.responses = { name: { label: 'your_name', value: sim.name }, email: { label: 'email_address', value: sim.email } };
  p.metadata = {
    ...(sim.event === 'cancelled' ? {} : { videoCallUrl: `https://app.cal.com/video/${uid}` }),
    ...(sim.member ? { memberId: sim.member } : {}),
  };
  body.createdAt = new Date().toISOString();
  return body;
}

/** Calendly's documented example for one invitee event, carrying this booking. */
function calendlyBody(
  sim: Simulation,
  kind: 'created' | 'canceled',
  uri: string,
  extra: Record<string, unknown>,
): Json {
  const body = fixture(`calendly-invitee-${kind}`);
  const end = new Date(sim.start.getTime() + SESSION_MINUTES * 60_000);
  Object.assign(body.payload, {
    uri,
    email: sim.email,
    name: sim.name,
    tracking: { ...(body.payload.tracking as Record<string, unknown>), utm_content: sim.member },
    scheduled_event: {
      ...(body.payload.scheduled_event as Record<string, unknown>),
      start_time: sim.start.toISOString(),
      end_time: end.toISOString(),
      location: { type: 'google_conference', status: 'pushed', join_url: 'https://meet.google.com/sim-ulat-ion' },
    },
    ...extra,
  });
  body.created_at = new Date().toISOString();
  return body;
}

/** The deliveries the provider would send, in order. */
function bodies(sim: Simulation): Json[] {
  if (sim.provider === 'calcom') return [calcomBody(sim)];
  if (sim.event === 'created') return [calendlyBody(sim, 'created', sim.uid, {})];
  if (sim.event === 'cancelled') return [calendlyBody(sim, 'canceled', sim.uid, { rescheduled: false })];
  const moved = `${sim.uid}-moved`;
  return [
    calendlyBody(sim, 'canceled', sim.uid, { rescheduled: true, new_invitee: moved }),
    calendlyBody(sim, 'created', moved, { old_invitee: sim.uid }),
  ];
}

async function signed(sim: Simulation, body: Json): Promise<Request> {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (sim.provider === 'calcom') {
    const secret = process.env.CALCOM_WEBHOOK_SECRET || LOCAL_FUNCTION_SECRETS.CALCOM_WEBHOOK_SECRET;
    headers[CALCOM_SIGNATURE_HEADER] = await calcomSignature(secret, utf8(raw));
  } else {
    const key = process.env.CALENDLY_WEBHOOK_SIGNING_KEY || LOCAL_FUNCTION_SECRETS.CALENDLY_WEBHOOK_SIGNING_KEY;
    headers[CALENDLY_SIGNATURE_HEADER] = await calendlySignatureHeader(key, Math.floor(Date.now() / 1000), raw);
  }
  return new Request(sim.url, { method: 'POST', headers, body: raw });
}

const sim = await readSimulation(process.argv.slice(2));
console.log(
  `${sim.provider} booking ${sim.uid} ${sim.event}, for ${sim.email}${sim.member ? ` (member ${sim.member})` : ''}`,
);
let failed = false;
for (const body of bodies(sim)) {
  const request = await signed(sim, body);
  console.log(`POST ${sim.url} (${String(body.triggerEvent ?? body.event)})`);
  try {
    const response = await fetch(request);
    console.log(`${response.status} ${await response.text()}`);
    failed ||= !response.ok;
  } catch (err) {
    console.error(
      `Could not reach the function: ${err instanceof Error ? err.message : err}. Is the stand-in running (npm run dev)?`,
    );
    process.exit(1);
  }
}
process.exitCode = failed ? 1 : 0;
