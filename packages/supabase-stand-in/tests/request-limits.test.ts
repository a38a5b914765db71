// GoTrue's per-IP request limits (auth/request-limits.mjs, mirroring
// internal/api/apilimiter/apilimiter.go and internal/api/middleware.go): a bucket of 30 per
// address and endpoint group, refilled at config.toml's [auth.rate_limit] rate per 5 minutes,
// and 429 over_request_rate_limit past it. The address is the connection's (hosted: the gateway's
// Sb-Forwarded-For), so each caller here connects from a loopback address of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_SETTINGS } from '../config/auth.mjs';
import { BURST, createRequestLimits } from '../auth/request-limits.mjs';
import { ANON_KEY } from '../keys.mjs';
import { fetchFrom, nextLoopbackAddress } from '../loopback-fetch.mjs';
import { readInbox, serviceClient, startStandIn, uniqueEmail, type StandIn } from './helpers';

describe('the buckets', () => {
  it('hold 30, then refill at the configured rate per 5 minutes, per address and per group', () => {
    let now = 0;
    const limits = createRequestLimits({ now: () => now });
    for (let i = 0; i < BURST; i += 1) limits.take('verify', '10.0.0.1');
    expect(() => limits.take('verify', '10.0.0.1')).toThrow(
      expect.objectContaining({ status: 429, authCode: 'over_request_rate_limit' }),
    );
    // Another address, another group: their own buckets.
    expect(() => limits.take('verify', '10.0.0.2')).not.toThrow();
    expect(() => limits.take('token', '10.0.0.1')).not.toThrow();
    // token_verifications per 5 minutes: one request comes back every 300 / rate seconds.
    now += (300 / AUTH_SETTINGS.rateLimits.tokenVerifications) * 1000;
    expect(() => limits.take('verify', '10.0.0.1')).not.toThrow();
    expect(() => limits.take('verify', '10.0.0.1')).toThrow();
  });

  it('read their rates from config.toml [auth.rate_limit]', () => {
    expect(AUTH_SETTINGS.rateLimits).toEqual({ tokenRefresh: 150, signInSignUps: 60, tokenVerifications: 60 });
  });
});

describe('the auth server', () => {
  let server: StandIn;
  beforeAll(async () => {
    server = await startStandIn({ seedSampleFiles: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A POST from the loopback address `address`, with any headers the caller chooses to send. */
  async function post(path: string, body: unknown, address: string, headers: Record<string, string> = {}) {
    const res = await fetchFrom(address)(`${server.url}/auth/v1/${path}`, {
      method: 'POST',
      headers: { apikey: ANON_KEY, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('answers the 31st code from one address with 429, even the right code; another address is heard', async () => {
    const [guesser, other] = [nextLoopbackAddress(), nextLoopbackAddress()];
    const email = uniqueEmail('guessed');
    expect((await serviceClient(server.url).auth.admin.inviteUserByEmail(email)).error).toBeNull();
    const [mail] = await readInbox(server.url, email);
    const wrong = String((Number(mail!.otp) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < BURST; i += 1) {
      expect((await post('verify', { type: 'invite', email, token: wrong }, guesser)).status).toBe(403);
    }
    expect(await post('verify', { type: 'invite', email, token: mail!.otp }, guesser)).toEqual({
      status: 429,
      body: { code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' },
    });
    const elsewhere = await post('verify', { type: 'invite', email, token: mail!.otp }, other);
    expect(elsewhere.status).toBe(200);
  });

  it('a forged X-Forwarded-For or Sb-Forwarded-For does not escape a full bucket', async () => {
    const [flooder, bystander] = [nextLoopbackAddress(), nextLoopbackAddress()];
    const email = uniqueEmail('forger');
    const statuses: number[] = [];
    for (let i = 0; i < BURST; i += 1) statuses.push((await post('recover', { email }, flooder)).status);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    for (const [n, header] of ['x-forwarded-for', 'sb-forwarded-for', 'x-real-ip'].entries()) {
      const forged = await post('recover', { email }, flooder, { [header]: `198.51.100.${n + 1}` });
      expect(forged).toMatchObject({ status: 429, body: { error_code: 'over_request_rate_limit' } });
    }
    // The bucket is the flooder's own: another address is heard, whatever it claims to be.
    const heard = await post('recover', { email }, bystander, { 'x-forwarded-for': flooder.replace('127.', '') });
    expect(heard.status).not.toBe(429);
  });

  it('answers the 31st password sign-in from one address with 429', async () => {
    const signInAddress = nextLoopbackAddress();
    const answers: number[] = [];
    for (let i = 0; i <= BURST; i += 1) {
      answers.push(
        (await post('token?grant_type=password', { email: 'nobody@example.com', password: 'x' }, signInAddress)).status,
      );
    }
    expect(answers.slice(0, BURST).every((status) => status === 400)).toBe(true);
    expect(answers[BURST]).toBe(429);
  });

  it('answers the 31st sign-up and the 31st reset request from one address with 429', async () => {
    for (const path of ['signup', 'recover'] as const) {
      const address = nextLoopbackAddress();
      const statuses: number[] = [];
      for (let i = 0; i <= BURST; i += 1) {
        const email = uniqueEmail(`flood-${path}`);
        statuses.push((await post(path, { email, password: 'secret123' }, address)).status);
      }
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, BURST)).not.toContain(429);
    }
  });
});
