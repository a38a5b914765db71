#!/usr/bin/env node
// @ts-check
// `npm run bench:launch`: launch day, on the local stack. A stand-in of its own (the
// hosted posture: confirmations on, the e-mail budget of config.toml or --budget), the purchase
// webhook in real Deno, N paid Shopify orders each delivered three times (twice at once under
// one webhook id, once more under a new id), C deliveries in flight. Half the buyers have
// confirmed accounts, half are new. Invitations go through the transactional mail API
// (docs/decisions/079-invitations-through-the-mail-api.md); with --through-auth, through Auth's
// own invite and its e-mail budget, as before. Then: while invitations wait, what staff see; the
// budget frees (the stand-in's clock moves on an hour, as GoTrue's window would) and the
// scheduled run (Supabase Cron's call) sends what waits, until nothing does. Each new buyer's
// inbox is read and its first link used, as the buyer would.
//
// --flood F --flood-ips K: while the buyers pay, K addresses (each a loopback address of its own,
// as the limits key on the connection) send F sign-ups and reset requests each, every one of which
// would mail from the auth budget. Each address sends until GoTrue's per-IP limits refuse it;
// then the stand-in's clock moves on 5 minutes (the limits' refill period), so the run plays the
// flood's first 55 minutes in seconds, inside the budget's hour. The buyers start paying 10
// minutes into the flood (the budget of 500 is spent by then) and pay while it goes on. The run prints the longest wait
// of a new buyer for their invitation (payment to the mail in the inbox) and fails over 10 minutes.
//
//   npm run bench:launch                          N=200, C=40, budget = config.toml's email_sent
//   npm run bench:launch -- --budget 40 --through-auth   a budget below the spike (100 new buyers)
//   npm run bench:launch -- --orders 20 --concurrency 10 --per-buyer
//   npm run bench:launch -- --flood 400 --flood-ips 3    sign-ups and resets from 3 addresses
//
// Exits 1 on any lost or doubled order, wrong tier, second invitation, dead link, 5xx, a buyer
// left without files, p99 over 2 s (Shopify gives up after 5 s), or with a flood, a buyer whose
// invitation waited over 10 minutes.
import { createHmac, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { repoAuthConfig } from '../../packages/supabase-stand-in/config/auth.mjs';
import { runInvitationSchedule } from '../../packages/supabase-stand-in/cron.mjs';
import { LOCAL_FUNCTION_SECRETS } from '../../packages/supabase-stand-in/functions/secrets.mjs';
import { fetchFrom, nextLoopbackAddress } from '../../packages/supabase-stand-in/loopback-fetch.mjs';
import { EMAIL_BUDGET_MESSAGE } from '../../packages/supabase-stand-in/email-budget.mjs';
import { ANON_KEY, DEMO_PASSWORD, SERVICE_ROLE_KEY } from '../../packages/supabase-stand-in/keys.mjs';
import { startServer } from '../../packages/supabase-stand-in/server.mjs';

/** Shopify's patience is 5 s; the answer must come well inside it. */
export const P99_LIMIT_MS = 2000;
/** The issue's bound: a flood never keeps a buyer's invitation waiting longer. */
export const INVITATION_WAIT_LIMIT_MS = 10 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const FIVE_MINUTES_MS = 5 * 60 * 1000;
/**
 * The buyers start paying once the flood has gone on this long (simulated): three addresses have
 * then had three rounds of GoTrue's per-IP limits, enough to spend a budget of 500.
 */
const SALES_AFTER_FLOOD_MINUTES = 10;
const INVITE_SUBJECT = 'Your files are ready';
const PRODUCTS = /** @type {const} */ (['ebook', 'foundation', 'accelerated', 'complete']);
const PRICES = { ebook: '24.95', foundation: '49.00', accelerated: '499.00', complete: '1495.00' };

/**
 * @typedef {{ orders: number, concurrency: number, budget: number, perBuyer: boolean, flood: number,
 *   floodIps: number, throughAuth: boolean, log: (line: string) => void }} BenchOptions
 *   flood, floodIps: sign-ups and reset requests from strangers while the buyers pay, from that
 *   many addresses; throughAuth: invitations through Auth's invite (no MAIL_API_KEY).
 * @typedef {{ order: number, email: string, tier: typeof PRODUCTS[number], confirmed: boolean, paidAt: number,
 *   filesAt: number | null, waitedHours: number, invitations: number, linkWorks: boolean | null,
 *   invitedAt: number | null }} Buyer
 * @typedef {{ status: number, ms: number, invitation: string | null }} Delivery
 */

/** @param {number[]} sorted @param {number} p */
function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** @param {number} ms */
function fmt(ms) {
  return ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${Math.round(ms)} ms`;
}

/**
 * @typedef {Awaited<ReturnType<typeof startServer>>} Server
 * @typedef {{ buyer: Buyer, webhookId: string, body: string, hmac: string }} QueuedDelivery
 */

/**
 * A supabase-js client on the stand-in that keeps no session of its own.
 * @param {string} url @param {string} key
 */
function benchClient(url, key) {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket (nothing here subscribes).
    realtime: { transport: /** @type {any} */ (WebSocket) },
  });
}

/**
 * The buyers: every other one with a confirmed account, the tiers in turn.
 * @param {number} orders @param {string} run
 * @returns {Buyer[]}
 */
function makeBuyers(orders, run) {
  return Array.from({ length: orders }, (_, i) => ({
    order: 7_000_000 + i,
    email: `launch-${run}-${i}@example.com`,
    tier: PRODUCTS[i % PRODUCTS.length] ?? 'ebook',
    confirmed: i % 2 === 0,
    paidAt: 0,
    filesAt: null,
    waitedHours: 0,
    invitations: 0,
    linkWorks: null,
    invitedAt: null,
  }));
}

/**
 * Confirmed accounts, made as the admin API makes them (no e-mail, so no budget spent).
 * @param {ReturnType<typeof benchClient>} admin @param {Buyer[]} buyers
 */
async function createConfirmedAccounts(admin, buyers) {
  for (const b of buyers.filter((x) => x.confirmed)) {
    const { error } = await admin.auth.admin.createUser({
      email: b.email,
      password: 'secret123',
      email_confirm: true,
    });
    if (error) throw error;
  }
}

/**
 * One signed Shopify orders/paid delivery of a buyer's order.
 * @param {Buyer} b @param {string} webhookId
 * @returns {QueuedDelivery}
 */
function signedDelivery(b, webhookId) {
  const secret = LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET ?? '';
  const body = JSON.stringify({
    id: b.order,
    email: b.email,
    currency: 'USD',
    total_price: PRICES[b.tier],
    processed_at: new Date().toISOString(),
    line_items: [{ id: 1, product_id: `REPLACE_ME_shopify_product_${b.tier}`, price: PRICES[b.tier], quantity: 1 }],
  });
  const hmac = createHmac('sha256', secret).update(body).digest('base64');
  return { buyer: b, webhookId, body, hmac };
}

/**
 * Each order: the same webhook id twice, side by side in the queue (so both are in flight at
 * once), and a new id half a window later (racing other orders' first deliveries).
 * @param {Buyer[]} buyers @param {string} run @param {number} concurrency
 */
function deliveryQueue(buyers, run, concurrency) {
  /** @type {QueuedDelivery[]} */
  const queue = [];
  /** @type {QueuedDelivery[]} */
  const later = [];
  for (const b of buyers) {
    const id = `wh-${run}-${b.order}`;
    queue.push(signedDelivery(b, id), signedDelivery(b, id));
    later.push(signedDelivery(b, `${id}-again`));
    const step = Math.max(1, Math.floor(concurrency / 2));
    if (queue.length % (2 * step) === 0) queue.push(...later.splice(0, step));
  }
  queue.push(...later);
  return queue;
}

/**
 * The spike: the queue delivered with `concurrency` in flight.
 * @param {string} url @param {QueuedDelivery[]} queue @param {number} concurrency
 */
async function deliverAll(url, queue, concurrency) {
  /** @type {Delivery[]} */
  const deliveries = [];
  let next = 0;
  const started = Date.now();
  async function worker() {
    for (;;) {
      const item = queue[next++];
      if (!item) return;
      const t0 = Date.now();
      if (!item.buyer.paidAt) item.buyer.paidAt = t0;
      const res = await fetch(`${url}/functions/v1/purchase-webhook/shopify`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Shopify-Topic': 'orders/paid',
          'X-Shopify-Webhook-Id': item.webhookId,
          'X-Shopify-Hmac-Sha256': item.hmac,
        },
        body: item.body,
      });
      const answer = /** @type {Record<string, unknown>} */ (await res.json().catch(() => ({})));
      const ms = Date.now() - t0;
      deliveries.push({
        status: res.status,
        ms,
        invitation: typeof answer.invitation === 'string' ? answer.invitation : null,
      });
      // A confirmed buyer's files open with the answer: their tier is granted by then.
      if (item.buyer.confirmed && item.buyer.filesAt === null && res.status === 200) item.buyer.filesAt = Date.now();
    }
  }
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  return { deliveries, spikeMs: Date.now() - started };
}

/**
 * What staff see while buyers wait: the query of /staff/members, as the staff demo account.
 * @param {string} url
 */
async function staffWaitingList(url) {
  const staff = benchClient(url, ANON_KEY);
  const signIn = await staff.auth.signInWithPassword({ email: 'staff@example.com', password: DEMO_PASSWORD });
  if (signIn.error) throw signIn.error;
  return async () => {
    const { data, error } = await staff
      .from('buyer_invitations')
      .select('email, status, last_error')
      .in('status', ['pending', 'sending', 'failed']);
    if (error) throw error;
    return data ?? [];
  };
}

/**
 * The budget frees: an hour passes for the auth server, and the scheduled run sends. Until
 * nothing waits (each hour's runs send up to the budget). Each buyer remembers the simulated
 * hour their invitation went in (0: during the spike).
 * @param {{ server: Server, run: string, buyers: Buyer[], waiting: number,
 *   waitingNow: () => Promise<unknown[]>, passHour: () => void }} drain
 */
async function drainInvitations({ server, run, buyers, waiting: waitingAfterSpike, waitingNow, passHour }) {
  const sentSoFar = async () => {
    const { rows } = await server.db.query(
      `select email from public.buyer_invitations where status in ('sent', 'accepted') and email like $1`,
      [`launch-${run}-%`],
    );
    return new Set(/** @type {{ email: string }[]} */ (rows).map((r) => r.email));
  };
  const sentInSpike = await sentSoFar();
  let hours = 0;
  /** @type {{ hour: number, sent: number, pending: number }[]} */
  const runs = [];
  for (let waiting = waitingAfterSpike; waiting > 0; waiting = (await waitingNow()).length) {
    if (hours >= 48) throw new Error(`invitations still waiting after ${hours} simulated hours`);
    hours += 1;
    passHour();
    for (;;) {
      const { status, body } = await runInvitationSchedule(server.url);
      if (status !== 200) throw new Error(`scheduled run answered ${status}: ${JSON.stringify(body)}`);
      if (Number(body.due ?? 0) > 0)
        runs.push({ hour: hours, sent: Number(body.sent ?? 0), pending: Number(body.pending ?? 0) });
      // A run takes at most its batch; within the hour the next minute's run takes the rest.
      if (Number(body.pending ?? 0) > 0 || Number(body.due ?? 0) === 0) break;
    }
    const sent = await sentSoFar();
    for (const b of buyers)
      if (!b.confirmed && sent.has(b.email) && !sentInSpike.has(b.email) && !b.waitedHours) b.waitedHours = hours;
  }
  return { hours, runs };
}

/**
 * One flooder's round: sign-ups of new addresses and reset requests for the ones it made (both
 * mail from the auth budget) until GoTrue's per-IP limits refuse both, or `left()` says stop.
 * @typedef {{ requests: number, mailed: number, perIp: number, budget: number, frequency: number, other: number }} FloodTally
 * @param {{ url: string, run: string, fetchIp: typeof fetch, ip: number, tally: FloodTally,
 *   made: string[], left: () => boolean }} flooder
 */
async function floodRound({ url, run, fetchIp, ip, tally, made, left }) {
  const refused = { signup: false, recover: false };
  while (left() && !(refused.signup && refused.recover)) {
    const kind =
      refused.signup || (!refused.recover && made.length > 0 && tally.requests % 2 === 1) ? 'recover' : 'signup';
    // A reset for the newest address: one a minute per address is all max_frequency lets through.
    const email = kind === 'signup' ? `flood-${run}-${ip}-${made.length}@example.com` : made.at(-1);
    tally.requests += 1;
    const res = await fetchIp(`${url}/auth/v1/${kind}`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'flood-pass-1' }),
    });
    const body = /** @type {{ error_code?: string, msg?: string }} */ (await res.json());
    if (res.ok && kind === 'signup') made.push(email ?? '');
    if (res.ok) tally.mailed += 1;
    else if (body.error_code === 'over_request_rate_limit') {
      tally.perIp += 1;
      refused[kind] = true;
    } else if (body.error_code === 'over_email_send_rate_limit')
      tally[body.msg === EMAIL_BUDGET_MESSAGE ? 'budget' : 'frequency'] += 1;
    else tally.other += 1;
  }
}

/**
 * The flood: `perIp` sign-ups and reset requests from each of `ips` loopback addresses, in rounds;
 * after each round (every address refused by its per-IP limits) five minutes pass for the auth
 * server, at most 55 (inside the budget's hour). What the budget mailed, and what was refused.
 * `salesStart` is called once the flood has gone on for SALES_AFTER_FLOOD_MINUTES (or is over):
 * the buyers pay from then on, while it goes on.
 * @param {{ url: string, run: string, perIp: number, ips: number, passFiveMinutes: () => void,
 *   salesStart: () => void }} options
 */
async function flood({ url, run, perIp, ips, passFiveMinutes, salesStart }) {
  const tally = { requests: 0, mailed: 0, perIp: 0, budget: 0, frequency: 0, other: 0, minutes: 0 };
  const flooders = Array.from({ length: ips }, (_, ip) => ({
    ip,
    fetchIp: fetchFrom(nextLoopbackAddress()),
    tally: { requests: 0, mailed: 0, perIp: 0, budget: 0, frequency: 0, other: 0 },
    /** @type {string[]} */
    made: [],
  }));
  for (;;) {
    await Promise.all(flooders.map((f) => floodRound({ url, run, ...f, left: () => f.tally.requests < perIp })));
    const done = flooders.every((f) => f.tally.requests >= perIp) || tally.minutes >= 55;
    if (done || tally.minutes >= SALES_AFTER_FLOOD_MINUTES) salesStart();
    if (done) break;
    passFiveMinutes();
    tally.minutes += 5;
  }
  for (const f of flooders)
    for (const k of /** @type {const} */ (['requests', 'mailed', 'perIp', 'budget', 'frequency', 'other']))
      tally[k] += f.tally[k];
  return tally;
}

/**
 * The spike, while the flood goes on: the buyers pay once it has run SALES_AFTER_FLOOD_MINUTES.
 * @param {{ url: string, queue: QueuedDelivery[], concurrency: number,
 *   flood: { run: string, perIp: number, ips: number }, passFiveMinutes: () => void }} options
 */
async function payWhileFlooded({ url, queue, concurrency, flood: f, passFiveMinutes }) {
  /** @type {() => void} */
  let floodBegun = () => {};
  const begun = new Promise((resolve) => {
    floodBegun = () => resolve(undefined);
  });
  const [flooded, { deliveries, spikeMs }] = await Promise.all([
    flood({ url, ...f, passFiveMinutes, salesStart: floodBegun }),
    begun.then(() => deliverAll(url, queue, concurrency)),
  ]);
  return { flooded, deliveries, spikeMs };
}

/**
 * The new buyers, through the inbox: exactly one invitation, and its link works: what the
 * site's confirm page does when the buyer presses its button (POST /verify with the link's token
 * hash), each buyer from a loopback address of their own (the auth server's per-IP limits key
 * on the connection's address).
 * @param {string} url @param {Buyer[]} buyers
 */
async function readInboxes(url, buyers) {
  for (const b of buyers.filter((x) => !x.confirmed)) {
    const res = await fetch(`${url}/inbox?email=${encodeURIComponent(b.email)}`, {
      headers: { apikey: ANON_KEY },
    });
    const { messages } = /** @type {{ messages: { subject: string, link: string, created_at: string }[] }} */ (
      await res.json()
    );
    const invites = messages.filter((m) => m.subject === INVITE_SUBJECT).reverse();
    b.invitations = invites.length;
    const first = invites[0];
    if (!first) continue;
    b.invitedAt = Date.parse(first.created_at);
    const tapped = Date.now();
    // Through the mail API the link is the site's confirm page (token_hash); Auth's is /verify (token).
    const link = new URL(first.link).searchParams;
    const pressed = await fetchFrom(nextLoopbackAddress())(`${url}/auth/v1/verify`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'invite', token_hash: link.get('token_hash') ?? link.get('token') }),
    });
    b.linkWorks =
      pressed.ok && typeof (/** @type {{ access_token?: unknown }} */ (await pressed.json()).access_token) === 'string';
    // Payment to the e-mail in the inbox, then the tap to a signed-in page with the tier
    // granted (the bench reads the inbox only after the spike, so that gap is not counted).
    if (b.linkWorks) b.filesAt = b.paidAt + (Date.parse(first.created_at) - b.paidAt) + (Date.now() - tapped);
  }
}

/**
 * The ledger: one purchase per order, the right tier for every buyer.
 * @param {Server} server @param {string} run @param {Buyer[]} buyers
 */
async function checkLedger(server, run, buyers) {
  const { rows: purchaseRows } = await server.db.query(
    `select order_id, count(*)::int as n from public.purchases where email like $1 group by order_id`,
    [`launch-${run}-%`],
  );
  const perOrder = new Map(
    /** @type {{ order_id: string, n: number }[]} */ (purchaseRows).map((r) => [r.order_id, r.n]),
  );
  const lost = buyers.filter((b) => !perOrder.has(String(b.order))).length;
  const doubled = buyers.filter((b) => (perOrder.get(String(b.order)) ?? 0) > 1).length;
  const { rows: tierRows } = await server.db.query(
    `select lower(u.email) as email, t.tier::text as tier from auth.users u
       left join public.user_tiers t on t.user_id = u.id where lower(u.email) like $1`,
    [`launch-${run}-%`],
  );
  const tierOf = new Map(
    /** @type {{ email: string, tier: string | null }[]} */ (tierRows).map((r) => [r.email, r.tier]),
  );
  const wrongTiers = buyers.filter((b) => tierOf.get(b.email) !== b.tier).length;
  return { lost, doubled, wrongTiers };
}

/**
 * Payment to files for a buyer: a wait for the budget counts as whole hours.
 * @param {Buyer} b
 */
function toFiles(b) {
  return b.filesAt === null ? Number.POSITIVE_INFINITY : b.filesAt - b.paidAt + b.waitedHours * HOUR_MS;
}

/**
 * Payment to the invitation in the inbox; a wait for the budget counts as whole hours.
 * @param {Buyer} b
 */
function toInvitation(b) {
  return b.invitedAt === null ? Number.POSITIVE_INFINITY : b.invitedAt - b.paidAt + b.waitedHours * HOUR_MS;
}

/** @param {number[]} times */
function spread(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? 0 };
}

/**
 * The figures of a run.
 * @param {{ orders: number, concurrency: number, budget: number, buyers: Buyer[], deliveries: Delivery[],
 *   spikeMs: number, ledger: Awaited<ReturnType<typeof checkLedger>>, staffListed: number,
 *   drained: Awaited<ReturnType<typeof drainInvitations>> }} run
 */
function summarize({ orders, concurrency, budget, buyers, deliveries, spikeMs, ledger, staffListed, drained }) {
  const latencies = deliveries.map((d) => d.ms).sort((a, b) => a - b);
  /** @type {Record<string, number>} */
  const byStatus = {};
  for (const d of deliveries) byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;
  const newBuyers = buyers.filter((b) => !b.confirmed);
  /** @type {Record<string, number>} */
  const invitationsPerNewBuyer = {};
  for (const b of newBuyers) invitationsPerNewBuyer[b.invitations] = (invitationsPerNewBuyer[b.invitations] ?? 0) + 1;
  return {
    orders,
    concurrency,
    budget,
    deliveries: deliveries.length,
    perSecond: deliveries.length / (spikeMs / 1000),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    byStatus,
    ...ledger,
    invitationsPerNewBuyer,
    deadLinks: newBuyers.filter((b) => b.linkWorks === false).length,
    withoutFiles: buyers.filter((b) => b.filesAt === null).length,
    staffListed,
    hoursToDrain: drained.hours,
    runs: drained.runs,
    toFiles: {
      confirmed: spread(buyers.filter((b) => b.confirmed).map(toFiles)),
      new: spread(newBuyers.map(toFiles)),
    },
    longestInvitationWait: newBuyers.length ? Math.max(...newBuyers.map(toInvitation)) : 0,
  };
}

/** @typedef {ReturnType<typeof summarize>} LaunchReport */

/**
 * What makes the run fail.
 * @param {LaunchReport} report @param {Buyer[]} buyers @param {Delivery[]} deliveries @param {boolean} flooded
 */
function failuresOf(report, buyers, deliveries, flooded) {
  const { lost, doubled, wrongTiers, deadLinks, withoutFiles, p99 } = report;
  /** @type {string[]} */
  const failures = [];
  if (lost) failures.push(`${lost} orders lost`);
  if (doubled) failures.push(`${doubled} orders doubled`);
  if (wrongTiers) failures.push(`${wrongTiers} buyers with the wrong tier`);
  const notOne = buyers.filter((b) => !b.confirmed && b.invitations !== 1).length;
  if (notOne) failures.push(`${notOne} new buyers without exactly one invitation`);
  if (deadLinks) failures.push(`${deadLinks} dead first links`);
  const fiveXX = deliveries.filter((d) => d.status >= 500).length;
  if (fiveXX) failures.push(`${fiveXX} deliveries answered 5xx`);
  if (withoutFiles) failures.push(`${withoutFiles} buyers never reached their files`);
  if (p99 > P99_LIMIT_MS) failures.push(`p99 ${p99} ms is over ${P99_LIMIT_MS} ms`);
  if (flooded && report.longestInvitationWait > INVITATION_WAIT_LIMIT_MS)
    failures.push(`a buyer waited ${fmt(report.longestInvitationWait)} for their invitation (limit 10 min)`);
  return failures;
}

/**
 * The run, as lines for the terminal.
 * @param {(line: string) => void} log @param {LaunchReport} report
 * @param {{ buyers: Buyer[], spikeMs: number, waitingAfterSpike: number, perBuyer: boolean, failures: string[] }} run
 */
function logReport(log, report, { buyers, spikeMs, waitingAfterSpike, perBuyer, failures }) {
  const { orders, concurrency, budget, byStatus, lost, doubled, wrongTiers, runs, p99 } = report;
  const newCount = buyers.filter((b) => !b.confirmed).length;
  log(
    `Launch day on the local stack: ${orders} orders x 3 deliveries, ${concurrency} in flight, e-mail budget ${budget}/hour`,
  );
  log(`  half the buyers confirmed (${orders - newCount}), half new (${newCount})`);
  log(
    `  deliveries:          ${report.deliveries} in ${(spikeMs / 1000).toFixed(1)} s = ${report.perSecond.toFixed(1)} a second`,
  );
  log(`  latency:             p50 ${report.p50} ms, p95 ${report.p95} ms, p99 ${p99} ms (limit ${P99_LIMIT_MS} ms)`);
  log(
    `  answers:             ${Object.entries(byStatus)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  log(`  orders:              ${lost} lost, ${doubled} doubled; ${wrongTiers} wrong tiers`);
  log(
    `  invitations:         per new buyer ${Object.entries(report.invitationsPerNewBuyer)
      .map(([k, n]) => `${k}: ${n} buyers`)
      .join(', ')}; ${report.deadLinks} dead first links`,
  );
  log(`  waiting after spike: ${waitingAfterSpike} (staff page lists ${report.staffListed})`);
  log(
    `  budget runs:         ${runs.length ? runs.map((r) => `hour ${r.hour}: ${r.sent} sent${r.pending ? `, ${r.pending} still waiting` : ''}`).join('; ') : 'none needed'}`,
  );
  log(
    `  payment to files:    confirmed p50 ${fmt(report.toFiles.confirmed.p50)}, p95 ${fmt(report.toFiles.confirmed.p95)}, max ${fmt(report.toFiles.confirmed.max)}`,
  );
  log(
    `                       new (inbox, link) p50 ${fmt(report.toFiles.new.p50)}, p95 ${fmt(report.toFiles.new.p95)}, max ${fmt(report.toFiles.new.max)} (a wait for the budget counted as whole hours + the cron minute)`,
  );
  log(`  longest wait for an invitation: ${fmt(report.longestInvitationWait)} (payment to the mail in the inbox)`);
  if (perBuyer) {
    for (const b of buyers)
      log(
        `    ${b.email} ${b.confirmed ? 'confirmed' : 'new      '} ${b.tier.padEnd(11)} ${fmt(toFiles(b))}${b.confirmed ? '' : `, ${b.invitations} invitation(s), link ${b.linkWorks ? 'works' : 'DEAD'}`}`,
      );
  }
  log(failures.length ? `FAILED: ${failures.join('; ')}` : 'PASSED');
}

/**
 * Runs the launch and returns its figures and failures.
 * @param {Partial<BenchOptions>} [options]
 */
export async function runLaunchBench(options = {}) {
  const orders = options.orders ?? 200;
  const concurrency = options.concurrency ?? 40;
  const budget = options.budget ?? repoAuthConfig().emailSent;
  const log = options.log ?? ((/** @type {string} */ line) => console.log(line));
  let clockOffset = 0;
  const server = await startServer({
    port: 0,
    quiet: true,
    dataDir: null,
    seedSampleFiles: false,
    authConfig: { enableConfirmations: true, emailSent: budget },
    clock: () => Date.now() + clockOffset,
    // Without the mail API's key the webhook invites through Auth, as before.
    ...(options.throughAuth ? { functionEnv: { MAIL_API_KEY: '' } } : {}),
  });
  try {
    const run = randomUUID().slice(0, 8);
    const buyers = makeBuyers(orders, run);
    await createConfirmedAccounts(benchClient(server.url, SERVICE_ROLE_KEY), buyers);
    // Deno boots on the first request; the spike is timed once the function serves.
    await fetch(`${server.url}/functions/v1/purchase-webhook/shopify`, { method: 'POST', body: '{}' });

    const { flooded, deliveries, spikeMs } = await payWhileFlooded({
      url: server.url,
      queue: deliveryQueue(buyers, run, concurrency),
      concurrency,
      flood: { run, perIp: options.flood ?? 0, ips: options.floodIps ?? 1 },
      passFiveMinutes: () => {
        clockOffset += FIVE_MINUTES_MS;
      },
    });

    const waitingNow = await staffWaitingList(server.url);
    const waitingAfterSpike = await waitingNow();
    const staffListed = waitingAfterSpike.filter((w) => buyers.some((b) => b.email === w.email)).length;
    const drained = await drainInvitations({
      server,
      run,
      buyers,
      waiting: waitingAfterSpike.length,
      waitingNow,
      passHour: () => {
        clockOffset += HOUR_MS;
      },
    });

    await readInboxes(server.url, buyers);
    const ledger = await checkLedger(server, run, buyers);
    const report = summarize({
      orders,
      concurrency,
      budget,
      buyers,
      deliveries,
      spikeMs,
      ledger,
      staffListed,
      drained,
    });
    const failures = failuresOf(report, buyers, deliveries, Boolean(options.flood));
    log(`Invitations through ${options.throughAuth ? "Auth's invite (its e-mail budget)" : 'the mail API'}`);
    if (options.flood)
      log(
        `  flood while paying:  ${flooded.requests} sign-ups and resets from ${options.floodIps ?? 1} addresses over ${flooded.minutes} simulated minutes: ${flooded.mailed} mailed, ${flooded.perIp} refused per IP, ${flooded.budget} refused by the e-mail budget, ${flooded.frequency} by max_frequency, ${flooded.other} other`,
      );
    logReport(log, report, {
      buyers,
      spikeMs,
      waitingAfterSpike: waitingAfterSpike.length,
      perBuyer: Boolean(options.perBuyer),
      failures,
    });
    return { report, failures };
  } finally {
    await server.close();
  }
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {Partial<BenchOptions>} */
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${arg} needs a whole number`);
      return v;
    };
    if (arg === '--orders' || arg === '-n') opts.orders = value();
    else if (arg === '--concurrency' || arg === '-c') opts.concurrency = value();
    else if (arg === '--budget') opts.budget = value();
    else if (arg === '--per-buyer') opts.perBuyer = true;
    else if (arg === '--flood') opts.flood = value();
    else if (arg === '--flood-ips') opts.floodIps = value();
    else if (arg === '--through-auth') opts.throughAuth = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(
        'usage: npm run bench:launch -- [--orders N] [--concurrency C] [--budget B] [--flood F --flood-ips K] [--through-auth] [--per-buyer]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return opts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runLaunchBench(parseArgs(process.argv.slice(2))).then(
    ({ failures }) => process.exit(failures.length ? 1 : 0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
