// @ts-check
// The project's transactional mail API, as an HTTP e-mail provider serves it (Resend's
// `POST /emails`, resend.com/docs/api-reference/emails/send-email and its errors page): the
// purchase webhook sends buyers' invitations through it, so they do not draw on the auth
// server's e-mail budget (docs/decisions/079-invitations-through-the-mail-api.md). As strict as
// the provider: the bearer key is checked (401 missing_api_key, 403 invalid_api_key), the body
// must be a JSON object with `from`, `to`, `subject` and `html` or `text` (422
// missing_required_field / validation_error), at most 50 recipients, and an Idempotency-Key
// (1 to 256 characters, 400 invalid_idempotency_key) sent again with the same body answers the
// first id without sending again (another body: 409 invalid_idempotent_request). What it accepts
// lands in the same local inbox as the auth e-mails (GET /inbox).
//
// A control for tests, the stand-in's own (the provider has none): `POST /mail/outage` with the
// key and `{ "requests": N }` makes the next N calls of `POST /emails` answer 503, as a provider
// in an outage does, before anything is checked or sent (`{ "requests": 0 }` ends it early).
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { htmlToText } from '../mail-templates.mjs';
import { jsonReader, nodeRequest, urlOf } from '../gateway/kong.mjs';
import { HttpError } from '../http.mjs';

/** Resend's cap on recipients of one e-mail (to, cc and bcc together). */
export const MAX_RECIPIENTS = 50;

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

/**
 * A provider error: `{ statusCode, name, message }`, the provider's error body.
 * @param {number} status
 * @param {string} name
 * @param {string} message
 */
const mailError = (status, name, message) => new HttpError(status, { statusCode: status, name, message });

/** @param {unknown} v */
const isText = (v) => typeof v === 'string' && v.trim() !== '';

/** `email@example.com` or `Name <email@example.com>`. @param {string} from */
function validFrom(from) {
  const named = /^[^<>]*<([^<>]+)>$/.exec(from.trim());
  return EMAIL.test(named ? (named[1] ?? '') : from.trim());
}

/**
 * The e-mail a request asks to send, or the provider's refusal.
 * @param {unknown} body
 * @returns {{ from: string, to: string[], subject: string, html: string, text: string }}
 */
export function validateEmail(body) {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw mailError(422, 'validation_error', 'The request body must be a JSON object.');
  const b = /** @type {Record<string, unknown>} */ (body);
  for (const field of ['from', 'to', 'subject'])
    if (b[field] === undefined || b[field] === null || b[field] === '')
      throw mailError(422, 'missing_required_field', `Missing \`${field}\` field.`);
  if (!isText(b.html) && !isText(b.text))
    throw mailError(422, 'missing_required_field', 'Missing `html` or `text` field.');
  if (typeof b.from !== 'string' || !validFrom(b.from))
    throw mailError(
      422,
      'validation_error',
      'Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
    );
  const to = typeof b.to === 'string' ? [b.to] : Array.isArray(b.to) ? b.to : null;
  if (!to || to.length === 0 || !to.every((t) => typeof t === 'string' && EMAIL.test(t.trim())))
    throw mailError(422, 'validation_error', 'Invalid `to` field. Each recipient must be an e-mail address.');
  if (to.length > MAX_RECIPIENTS)
    throw mailError(422, 'validation_error', `Too many recipients: at most ${MAX_RECIPIENTS}.`);
  if (typeof b.subject !== 'string') throw mailError(422, 'validation_error', 'Invalid `subject` field.');
  for (const field of ['html', 'text'])
    if (b[field] !== undefined && typeof b[field] !== 'string')
      throw mailError(422, 'validation_error', `Invalid \`${field}\` field.`);
  const html = typeof b.html === 'string' ? b.html : '';
  const text = typeof b.text === 'string' ? b.text : '';
  return { from: b.from, to: to.map((t) => t.trim().toLowerCase()), subject: b.subject, html, text };
}

/**
 * The bearer key, checked as the provider checks it.
 * @param {string | undefined} authorization
 * @param {string} key
 */
function checkKey(authorization, key) {
  const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1]?.trim();
  if (!bearer) throw mailError(401, 'missing_api_key', 'Missing API key in the authorization header.');
  if (bearer !== key) throw mailError(403, 'invalid_api_key', 'API key is invalid.');
}

/**
 * The 6-digit code a mail shows in bold, and its first link to the site's confirm page (else its
 * first link): what the inbox's `otp` and `link` say of an auth e-mail.
 * @param {string} html
 */
function codeAndLink(html) {
  const hrefs = Array.from(html.matchAll(/href="([^"]*)"/gi), (m) =>
    (m[1] ?? '').replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&'),
  );
  return {
    otp: /<strong>\s*(\d{6})\s*<\/strong>/.exec(html)?.[1] ?? '',
    link: hrefs.find((h) => h.includes('/auth/confirm?')) ?? hrefs[0] ?? '',
  };
}

/**
 * A request's JSON body, refused as the provider refuses it.
 * @param {import('hono').Context} c
 */
const readJson = (c) =>
  jsonReader(nodeRequest(c), {
    tooLarge: () => mailError(413, 'validation_error', 'The request body is too large.'),
    bad: () => mailError(400, 'validation_error', 'The request body is not valid JSON.'),
  })();

/** The provider's answer during an outage. */
const OUTAGE = () => mailError(503, 'service_unavailable', 'The service is temporarily unavailable. Try again later.');

/** The most requests one outage may cover. */
export const MAX_OUTAGE_REQUESTS = 1000;

/**
 * `POST /outage`'s body: how many of the next requests fail.
 * @param {unknown} body
 */
function outageRequests(body) {
  const n = body && typeof body === 'object' ? /** @type {Record<string, unknown>} */ (body).requests : undefined;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_OUTAGE_REQUESTS)
    throw mailError(422, 'validation_error', `\`requests\` must be a whole number from 0 to ${MAX_OUTAGE_REQUESTS}.`);
  return n;
}

/**
 * @param {{ key: string, deliver: (mail: { to: string, subject: string, body: string, link: string, otp: string }) => Promise<void>,
 *   dailyQuota?: number }} options
 *   key: the API key callers must hold; deliver: puts one mail in the local inbox;
 *   dailyQuota: e-mails accepted before 429 daily_quota_exceeded (tests; unset, no quota).
 */
export function mailApiRoutes({ key, deliver, dailyQuota = Number.POSITIVE_INFINITY }) {
  /** @type {Map<string, { payload: string, id: string }>} */
  const idempotent = new Map();
  let sent = 0;
  /** Requests of POST /emails still to answer 503 (POST /outage). */
  let outage = 0;
  const app = new Hono();
  app.post('/outage', async (c) => {
    checkKey(c.req.header('authorization'), key);
    const body = await readJson(c);
    outage = outageRequests(body);
    return c.json({ requests: outage });
  });
  app.post('/emails', async (c) => {
    if (outage > 0) {
      outage -= 1;
      throw OUTAGE();
    }
    checkKey(c.req.header('authorization'), key);
    const idemKey = c.req.header('idempotency-key');
    if (idemKey !== undefined && (idemKey.length < 1 || idemKey.length > 256))
      throw mailError(400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.');
    const body = await readJson(c);
    const mail = validateEmail(body);
    const payload = JSON.stringify(body);
    const seen = idemKey ? idempotent.get(idemKey) : undefined;
    if (seen && seen.payload !== payload)
      throw mailError(409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.');
    if (seen) return c.json({ id: seen.id });
    if (sent >= dailyQuota)
      throw mailError(429, 'daily_quota_exceeded', 'You have reached your daily email sending quota.');
    sent += 1;
    const id = randomUUID();
    if (idemKey) idempotent.set(idemKey, { payload, id });
    const text = mail.html ? htmlToText(mail.html) : mail.text;
    for (const to of mail.to) await deliver({ to, subject: mail.subject, body: text, ...codeAndLink(mail.html) });
    return c.json({ id });
  });
  app.all('/emails', () => {
    throw mailError(405, 'method_not_allowed', 'Method is not allowed for the requested path.');
  });
  app.all('*', (c) => {
    throw mailError(404, 'not_found', `The requested endpoint does not exist: ${urlOf(c).pathname}`);
  });
  app.onError((err, c) => {
    nodeRequest(c).resume();
    if (err instanceof HttpError) return c.json(err.body, /** @type {any} */ (err.status));
    throw err;
  });
  return app;
}
