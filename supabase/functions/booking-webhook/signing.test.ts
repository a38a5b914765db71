// The signature checks, each provider's way: a good signature passes; a wrong one, a tampered
// body, an unset secret, Cal.com's `no-secret-provided` and a Calendly `t` over 3 minutes away
// are refused with 401. signing.ts also meets an outside party here: the HMAC recipe of the
// providers' documentation, computed with Node's own crypto.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { calcomProvider } from './calcom.ts';
import { calendlyProvider, readCalendlySignature } from './calendly.ts';
import { calcomSignature, calendlySignatureHeader, CALCOM_NO_SECRET, utf8 } from './signing.ts';
import { BookingError } from './types.ts';

const raw = JSON.stringify({ triggerEvent: 'BOOKING_CREATED', payload: { uid: 'u1', note: 'café, ✓' } });
const now = new Date('2026-12-07T12:00:00Z');
const t = Math.floor(now.getTime() / 1000);

async function refusal(check: Promise<void>): Promise<string> {
  const err = await check.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BookingError);
  expect((err as BookingError).status).toBe(401);
  return (err as BookingError).message;
}

describe('Cal.com: X-Cal-Signature-256', () => {
  const secret = 'calcom-secret';
  const provider = calcomProvider(secret);

  it('is the lower-case hex HMAC-SHA256 of the raw body, as Cal.com computes it', async () => {
    const documented = createHmac('sha256', secret).update(raw, 'utf8').digest('hex');
    expect(await calcomSignature(secret, utf8(raw))).toBe(documented);
  });

  it('passes a good signature, in either case', async () => {
    const good = createHmac('sha256', secret).update(raw).digest('hex');
    await expect(provider.verify(utf8(raw), good, now)).resolves.toBeUndefined();
    await expect(provider.verify(utf8(raw), ` ${good.toUpperCase()} `, now)).resolves.toBeUndefined();
  });

  it('refuses a wrong secret, a tampered body, garbage and no-secret-provided', async () => {
    const good = createHmac('sha256', secret).update(raw).digest('hex');
    const other = createHmac('sha256', 'another').update(raw).digest('hex');
    expect(await refusal(provider.verify(utf8(raw), other, now))).toBe('signature does not match');
    expect(await refusal(provider.verify(utf8(raw.replace('u1', 'u2')), good, now))).toBe('signature does not match');
    expect(await refusal(provider.verify(utf8(raw), '', now))).toBe('signature does not match');
    expect(await refusal(provider.verify(utf8(raw), CALCOM_NO_SECRET, now))).toMatch(/signed nothing/);
  });

  it('refuses everything when CALCOM_WEBHOOK_SECRET is unset, even no-secret-provided', async () => {
    const off = calcomProvider(null);
    expect(off.enabled).toBe(false);
    const good = createHmac('sha256', secret).update(raw).digest('hex');
    expect(await refusal(off.verify(utf8(raw), good, now))).toMatch(/CALCOM_WEBHOOK_SECRET is not set/);
    expect(await refusal(off.verify(utf8(raw), CALCOM_NO_SECRET, now))).toMatch(/not set/);
  });
});

describe('Calendly: Calendly-Webhook-Signature', () => {
  const key = 'calendly-signing-key';
  const provider = calendlyProvider(key);
  const documented = (at: number, body = raw) =>
    `t=${at},v1=${createHmac('sha256', key).update(`${at}.${body}`, 'utf8').digest('hex')}`;

  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>." + raw body>, as Calendly’s documentation computes it', async () => {
    expect(await calendlySignatureHeader(key, t, raw)).toBe(documented(t));
    expect(readCalendlySignature(documented(t))).toEqual({ t, v1: [documented(t).split('v1=')[1]] });
  });

  it('passes a good signature up to 3 minutes either side of now', async () => {
    await expect(provider.verify(utf8(raw), documented(t), now)).resolves.toBeUndefined();
    await expect(provider.verify(utf8(raw), documented(t - 180), now)).resolves.toBeUndefined();
    await expect(provider.verify(utf8(raw), documented(t + 180), now)).resolves.toBeUndefined();
  });

  it('refuses a t more than 3 minutes away, however well signed', async () => {
    expect(await refusal(provider.verify(utf8(raw), documented(t - 181), now))).toMatch(/more than 3 minutes/);
    expect(await refusal(provider.verify(utf8(raw), documented(t + 181), now))).toMatch(/more than 3 minutes/);
  });

  it('refuses a wrong key, a tampered body, a t changed after signing and a malformed header', async () => {
    const other = `t=${t},v1=${createHmac('sha256', 'another').update(`${t}.${raw}`).digest('hex')}`;
    expect(await refusal(provider.verify(utf8(raw), other, now))).toBe('signature does not match');
    expect(await refusal(provider.verify(utf8(raw.replace('u1', 'u2')), documented(t), now))).toBe(
      'signature does not match',
    );
    const moved = documented(t - 600).replace(`t=${t - 600}`, `t=${t}`);
    expect(await refusal(provider.verify(utf8(raw), moved, now))).toBe('signature does not match');
    for (const header of ['', 'v1=abc', `t=${t}`, 't=soon,v1=abc']) {
      expect(await refusal(provider.verify(utf8(raw), header, now))).toMatch(/not t=…,v1=…/);
    }
  });

  it('refuses everything when CALENDLY_WEBHOOK_SIGNING_KEY is unset', async () => {
    const off = calendlyProvider(null);
    expect(off.enabled).toBe(false);
    expect(await refusal(off.verify(utf8(raw), documented(t), now))).toMatch(/CALENDLY_WEBHOOK_SIGNING_KEY is not set/);
  });
});
