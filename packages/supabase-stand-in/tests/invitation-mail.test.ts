// Buyers' invitations through the transactional mail API (docs/decisions/079-invitations-through-the-mail-api.md):
// the stand-in's provider endpoint (inbox/mail-api.mjs) as strict as the provider, Auth's
// admin generate_link (GoTrue's adminGenerateLink: no mail, no e-mail budget), the function's
// sender (supabase/functions/purchase-webhook/mail.ts) against that endpoint, and a buyer who
// pays while a sign-up flood has spent the auth e-mail budget: invited at once, and gets in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_FUNCTION_SECRETS, LOCAL_MAIL_API } from '../functions/service.mjs';
import { loadMailTemplates, htmlToText } from '../mail-templates.mjs';
import { SITE_URL } from '../auth/redirects.mjs';
import { inviteMail, sendMail } from '../../../supabase/functions/purchase-webhook/mail.ts';
import { shopifyOrder, shopifyRequest } from '../../../supabase/functions/purchase-webhook/test-support.ts';
import { anonClient, readInbox, serviceClient, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
beforeAll(async () => {
  // The hosted posture (confirmations on) with an auth e-mail budget of 2 an hour, and a mail API
  // that accepts 4 e-mails before its daily quota.
  server = await startStandIn({ seedSampleFiles: false, authConfig: { emailSent: 2 }, mailApi: { dailyQuota: 4 } });
});
afterAll(async () => {
  await server?.close();
});

const api = () => ({ url: `${server.url}${LOCAL_MAIL_API.path}`, key: LOCAL_MAIL_API.key, from: LOCAL_MAIL_API.from });

/** A raw call to the mail API. */
async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/mail/emails`, {
    method: 'POST',
    headers: { authorization: `Bearer ${LOCAL_MAIL_API.key}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

const mail = (to: string | string[]) => ({ from: LOCAL_MAIL_API.from, to, subject: 'Hello', html: '<p>Hi</p>' });

describe('the mail API (as the provider checks a call)', () => {
  it('refuses a missing or wrong key, bad JSON, missing fields, bad addresses, and other methods', async () => {
    const to = uniqueEmail('refused');
    expect(await post(mail(to), { authorization: '' })).toMatchObject({
      status: 401,
      body: { name: 'missing_api_key' },
    });
    expect(await post(mail(to), { authorization: 'Bearer re_guessed' })).toMatchObject({
      status: 403,
      body: { name: 'invalid_api_key' },
    });
    expect(await post('{"from":')).toMatchObject({ status: 400, body: { name: 'validation_error' } });
    expect(await post([mail(to)])).toMatchObject({ status: 422, body: { name: 'validation_error' } });
    for (const field of ['from', 'to', 'subject'] as const) {
      const { [field]: _, ...rest } = mail(to);
      expect(await post(rest)).toMatchObject({ status: 422, body: { name: 'missing_required_field' } });
    }
    expect(await post({ ...mail(to), html: undefined })).toMatchObject({ status: 422 });
    expect(await post({ ...mail(to), from: 'not an address' })).toMatchObject({ status: 422 });
    expect(await post(mail(['someone@example.com', 'nope']))).toMatchObject({ status: 422 });
    const many = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
    expect(await post(mail(many))).toMatchObject({ status: 422 });
    expect(await post(mail(to), { 'idempotency-key': 'k'.repeat(257) })).toMatchObject({
      status: 400,
      body: { name: 'invalid_idempotency_key' },
    });
    const get = await fetch(`${server.url}/mail/emails`, {
      headers: { authorization: `Bearer ${LOCAL_MAIL_API.key}` },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    // Nothing of that reached the inbox.
    expect(await readInbox(server.url, to)).toEqual([]);
  });

  it('sends once per idempotency key, and refuses the key with another body', async () => {
    const to = uniqueEmail('idem');
    const key = `invite-${to}`;
    const first = await post(mail(to), { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(await post(mail(to), { 'idempotency-key': key })).toEqual({ ...first, headers: expect.anything() });
    expect((await readInbox(server.url, to)).map((m) => m.subject)).toEqual(['Hello']);
    expect(await post({ ...mail(to), subject: 'Other' }, { 'idempotency-key': key })).toMatchObject({
      status: 409,
      body: { name: 'invalid_idempotent_request' },
    });
  });
});

describe('generate_link (GoTrue adminGenerateLink)', () => {
  it('is for the service role only, knows GoTrue’s types, and needs an account for recovery', async () => {
    const anon = await anonClient(server.url).auth.admin.generateLink({ type: 'invite', email: uniqueEmail('x') });
    expect(anon.error?.status).toBe(403);
    const admin = serviceClient(server.url).auth.admin;
    const wrong = await admin.generateLink({ type: 'bogus' as 'invite', email: uniqueEmail('x') });
    expect(wrong.error).toMatchObject({ status: 400, message: 'Invalid email action link type requested: bogus' });
    const nobody = await admin.generateLink({ type: 'recovery', email: uniqueEmail('nobody') });
    expect(nobody.error).toMatchObject({ status: 404, code: 'user_not_found' });
    const confirmed = uniqueEmail('confirmed');
    await admin.createUser({ email: confirmed, password: 'password123', email_confirm: true });
    const taken = await admin.generateLink({ type: 'invite', email: confirmed });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
  });
});

describe('the function’s sender', () => {
  it('says what supabase/templates/invite.html says, for the same link and code', () => {
    const fields = { siteUrl: SITE_URL, email: 'buyer+1@example.com', tokenHash: 'ab12'.repeat(14), otp: '042137' };
    const ours = inviteMail(fields);
    const auths = loadMailTemplates().render('invite', {
      SiteURL: SITE_URL,
      Email: fields.email,
      Token: fields.otp,
      TokenHash: fields.tokenHash,
      ConfirmationURL: '',
      Data: {},
      RedirectTo: SITE_URL,
    });
    // The same words and addresses; line breaks inside a paragraph and the case of a %-escape
    // (html/template writes lower case) are the template source's, not what a reader sees.
    const words = (text: string) =>
      text
        .replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase())
        .split('\n\n')
        .map((paragraph) => paragraph.replace(/\s+/g, ' '));
    expect(ours.subject).toBe(auths.subject);
    expect(words(htmlToText(ours.html))).toEqual(words(auths.text));
    expect(words(ours.text)).toEqual(words(auths.text));
  });

  it('sends through the API into the inbox, once per idempotency key', async () => {
    const to = uniqueEmail('sender');
    const made = inviteMail({ siteUrl: SITE_URL, email: to, tokenHash: 'cd34'.repeat(14), otp: '765432' });
    const first = await sendMail(api(), { to, ...made }, { idempotencyKey: `k-${to}` });
    expect(first).toEqual({ ok: true, id: expect.any(String) });
    expect(await sendMail(api(), { to, ...made }, { idempotencyKey: `k-${to}` })).toEqual(first);
    const inbox = await readInbox(server.url, to);
    expect(inbox.map((m) => ({ subject: m.subject, otp: m.otp, link: m.link }))).toEqual([
      { subject: 'Your files are ready', otp: '765432', link: made.link },
    ]);
  });

  it('is refused with the provider’s own error for a wrong key', async () => {
    const sent = await sendMail(
      { ...api(), key: 're_wrong' },
      { to: uniqueEmail('s'), subject: 'S', html: '<p>x</p>', text: 'x' },
    );
    expect(sent).toEqual({ ok: false, status: 403, name: 'invalid_api_key', message: 'API key is invalid.' });
  });
});

async function deliver(email: string, id: number) {
  const made = await shopifyRequest('orders/paid', shopifyOrder({ id, email }), {
    secret: LOCAL_FUNCTION_SECRETS.SHOPIFY_WEBHOOK_SECRET,
  });
  const res = await fetch(`${server.url}/functions/v1/purchase-webhook/shopify`, {
    method: 'POST',
    headers: made.headers,
    body: await made.arrayBuffer(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('a sign-up flood spends the auth e-mail budget; buyers are still invited at once', () => {
  it('the buyer’s invitation arrives through the mail API and its link’s token opens the account', async () => {
    // Three sign-ups from one visitor: two spend the hour's budget, the third is refused by it.
    const flooder = anonClient(server.url);
    const answers = [];
    for (let i = 0; i < 3; i += 1)
      answers.push(await flooder.auth.signUp({ email: uniqueEmail('flood'), password: 'secret123' }));
    expect(answers.map((a) => a.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'over_email_send_rate_limit']);
    // generate_link still makes links: it sends nothing, so it spends nothing.
    const made = await serviceClient(server.url).auth.admin.generateLink({ type: 'invite', email: uniqueEmail('gl') });
    expect(made.error).toBeNull();
    expect(made.data.properties?.email_otp).toMatch(/^\d{6}$/);

    const buyer = uniqueEmail('flood-buyer');
    expect(await deliver(buyer, 9_100_001)).toMatchObject({ status: 200, body: { invitation: 'invited' } });
    const [invitation, ...more] = await readInbox(server.url, buyer);
    expect(more).toEqual([]);
    expect(invitation?.subject).toBe('Your files are ready');
    const link = new URL(invitation?.link ?? '');
    expect(link.origin + link.pathname).toBe(`${SITE_URL}/auth/confirm`);
    expect(link.searchParams.get('type')).toBe('invite');
    expect(link.searchParams.get('email')).toBe(buyer);
    expect(invitation?.body).toContain(`type this code: ${invitation?.otp}`);

    // The confirm page's press: verifyOtp with the link's token hash opens the account.
    const person = anonClient(server.url);
    const verified = await person.auth.verifyOtp({ token_hash: link.searchParams.get('token_hash')!, type: 'invite' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(buyer);
    const { data: tier } = await person.from('user_tiers').select('tier').maybeSingle();
    expect(tier?.tier).toBe('foundation');
  });

  it('past the provider’s quota the invitation waits as pending, as past Auth’s budget', async () => {
    // Spend what is left of the quota (earlier tests sent some), then a buyer pays.
    while ((await post(mail(uniqueEmail('quota')))).status === 200);
    const buyer = uniqueEmail('quota-buyer');
    expect(await deliver(buyer, 9_100_002)).toMatchObject({ status: 200, body: { invitation: 'pending' } });
    const { data } = await serviceClient(server.url)
      .from('buyer_invitations')
      .select('status, last_error')
      .eq('email', buyer)
      .single();
    expect(data).toEqual({
      status: 'pending',
      last_error: 'mail API 429 daily_quota_exceeded: You have reached your daily email sending quota.',
    });
    expect(await readInbox(server.url, buyer)).toEqual([]);
  });
});
