// What the store makes of the mail provider's and Auth's answers (docs/decisions/097-a-mail-outage-heals-itself.md):
// a 5xx or no answer is an outage (tried again after a backoff), a 429 waits for the next run,
// any other 4xx fails at once; and the RPCs the backoff and the mail path are written with.
import { describe, expect, it } from 'vitest';
import { createSupabaseStore, type StoreClient } from './store.ts';

type RpcCall = { fn: string; args: Record<string, unknown> };
type AuthAnswer = { message: string; code?: string; status?: number; name?: string } | null;

function client({ rpcData = null as unknown, authError = null as AuthAnswer } = {}) {
  const rpcs: RpcCall[] = [];
  const fake: StoreClient = {
    rpc: async (fn, args) => {
      rpcs.push({ fn, args });
      return { data: rpcData, error: null };
    },
    inviteUserByEmail: async () => ({ error: authError }),
    generateInviteLink: async () =>
      authError
        ? { data: { properties: null }, error: authError }
        : { data: { properties: { hashed_token: 'abc123', email_otp: '123456' } }, error: null },
  };
  return { fake, rpcs };
}

const api = { url: 'https://mail.test', key: 're_test', from: 'Shop <hi@shop.test>' };

/** A store that sends through a mail API answering `answer` (a Response, or a thrown error). */
function throughMailApi(answer: () => Response) {
  return createSupabaseStore(client().fake, { api, siteUrl: 'https://site.test', fetch: async () => answer() });
}

const provider = (status: number, name: string, message: string) => () =>
  new Response(JSON.stringify({ statusCode: status, name, message }), { status });

describe('inviteBuyer through the mail API', () => {
  it('sent: invited', async () => {
    const store = throughMailApi(() => new Response(JSON.stringify({ id: 'm-1' }), { status: 200 }));
    expect(await store.inviteBuyer('b@example.com', 'https://site.test/auth/set-password')).toEqual({
      kind: 'invited',
    });
  });

  it('a 5xx, or no answer at all, is an outage', async () => {
    for (const status of [500, 502, 503]) {
      const store = throughMailApi(provider(status, 'application_error', 'down'));
      expect(await store.inviteBuyer('b@example.com', 'r')).toEqual({
        kind: 'unavailable',
        reason: `mail API ${status} application_error: down`,
      });
    }
    const html = throughMailApi(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(await html.inviteBuyer('b@example.com', 'r')).toEqual({
      kind: 'unavailable',
      reason: 'mail API 502 error: HTTP 502',
    });
    const unreachable = throughMailApi(() => {
      throw new TypeError('fetch failed');
    });
    expect(await unreachable.inviteBuyer('b@example.com', 'r')).toEqual({
      kind: 'unavailable',
      reason: 'mail API 0 network_error: fetch failed',
    });
  });

  it('a 429 waits for the next run; any other 4xx fails at once', async () => {
    const limited = throughMailApi(provider(429, 'rate_limit_exceeded', 'Too many requests'));
    expect((await limited.inviteBuyer('b@example.com', 'r')).kind).toBe('rate_limited');
    for (const [status, name] of [
      [401, 'missing_api_key'],
      [403, 'invalid_api_key'],
      [422, 'validation_error'],
    ] as const) {
      const store = throughMailApi(provider(status, name, 'no'));
      expect(await store.inviteBuyer('b@example.com', 'r')).toEqual({
        kind: 'failed',
        reason: `mail API ${status} ${name}: no`,
      });
    }
  });
});

describe('inviteBuyer through Auth (no mail API)', () => {
  const outcome = async (authError: AuthAnswer) =>
    createSupabaseStore(client({ authError }).fake).inviteBuyer('b@example.com', 'r');

  it('Auth’s 5xx (its SMTP down) or no answer is an outage', async () => {
    expect(await outcome({ status: 500, code: 'unexpected_failure', message: 'Error sending invite email' })).toEqual({
      kind: 'unavailable',
      reason: 'unexpected_failure: Error sending invite email',
    });
    expect((await outcome({ status: 0, name: 'AuthRetryableFetchError', message: 'fetch failed' })).kind).toBe(
      'unavailable',
    );
    expect((await outcome({ status: 503, name: 'AuthRetryableFetchError', message: '' })).kind).toBe('unavailable');
  });

  it('the budget waits, a confirmed address is accepted, other refusals fail', async () => {
    expect((await outcome({ status: 429, code: 'over_email_send_rate_limit', message: 'x' })).kind).toBe(
      'rate_limited',
    );
    expect((await outcome({ status: 422, code: 'email_exists', message: 'x' })).kind).toBe('already_registered');
    expect((await outcome({ status: 400, code: 'validation_failed', message: 'bad address' })).kind).toBe('failed');
  });

  it('says it invites through Auth; through the mail API it does not', () => {
    expect(createSupabaseStore(client().fake).invitesViaAuth).toBe(true);
    expect(throughMailApi(() => new Response('{}')).invitesViaAuth).toBe(false);
  });
});

describe('the RPCs', () => {
  it('retry_invitation gets the backoff and answers the state it left', async () => {
    const { fake, rpcs } = client({
      rpcData: { status: 'pending', next_attempt_at: '2026-11-23T12:01:00+00:00', retries: 1 },
    });
    const store = createSupabaseStore(fake);
    expect(await store.retryInvitation('b@example.com', 'claim-1', 'mail API 503', [60, 300])).toEqual({
      status: 'pending',
      nextAttemptAt: '2026-11-23T12:01:00+00:00',
      retries: 1,
    });
    expect(rpcs).toEqual([
      {
        fn: 'retry_invitation',
        args: { p_email: 'b@example.com', p_claim: 'claim-1', p_reason: 'mail API 503', p_backoff_seconds: [60, 300] },
      },
    ]);
    expect(await createSupabaseStore(client({ rpcData: null }).fake).retryInvitation('b', 'c', 'r', [])).toBeNull();
    await expect(
      createSupabaseStore(client({ rpcData: { status: 'x' } }).fake).retryInvitation('b', 'c', 'r', []),
    ).rejects.toThrow(/retry_invitation answered/);
  });

  it('record_mail_path says whether invitations go through Auth', async () => {
    const viaAuth = client();
    await createSupabaseStore(viaAuth.fake).recordMailPath();
    const viaApi = client();
    await createSupabaseStore(viaApi.fake, { api, siteUrl: 'https://site.test' }).recordMailPath();
    expect([...viaAuth.rpcs, ...viaApi.rpcs]).toEqual([
      { fn: 'record_mail_path', args: { p_via_auth: true } },
      { fn: 'record_mail_path', args: { p_via_auth: false } },
    ]);
  });
});
