// POST /verify as GoTrue validates it (internal/api/verify.go, VerifyParams.Validate and
// verifyTokenHash): the site's confirm page sends a link's token hash with nothing but its type;
// a code goes with its address. A link is spent only by that POST, never by opening the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY } from '../keys.mjs';
import { anonClient, readInbox, serviceClient, startStandIn, uniqueEmail, type StandIn } from './helpers';

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
});
afterAll(async () => {
  await server?.close();
});

async function postVerify(body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/auth/v1/verify`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function invited() {
  const email = uniqueEmail('hash');
  expect((await serviceClient(server.url).auth.admin.inviteUserByEmail(email)).error).toBeNull();
  const [mail] = await readInbox(server.url, email);
  return { email, otp: mail!.otp, tokenHash: new URL(mail!.link).searchParams.get('token')! };
}

describe('POST /verify with a token hash', () => {
  it('refuses a hash sent with an address or a redirect, or with a code, as GoTrue does', async () => {
    const { email, otp, tokenHash } = await invited();
    expect(await postVerify({ type: 'invite', token_hash: tokenHash, email })).toMatchObject({
      status: 400,
      body: { error_code: 'validation_failed', msg: 'Only the token_hash and type should be provided' },
    });
    expect((await postVerify({ type: 'invite', token_hash: tokenHash, redirect_to: 'x' })).status).toBe(400);
    expect(await postVerify({ type: 'invite', token_hash: tokenHash, token: otp, email })).toMatchObject({
      status: 400,
      body: { msg: 'Verify requires either a token or a token hash' },
    });
    expect(await postVerify({ type: 'invite', token: otp })).toMatchObject({
      status: 400,
      body: { msg: 'Only an email address or phone number should be provided on verify' },
    });
    expect(await postVerify({ type: 'nonsense', token_hash: tokenHash })).toMatchObject({
      status: 400,
      body: { msg: 'Invalid email verification type' },
    });
  });

  it('opens a session once, with verifyOtp({ token_hash, type }); then says the link is spent', async () => {
    const { email, tokenHash } = await invited();
    const client = anonClient(server.url);
    const first = await client.auth.verifyOtp({ token_hash: tokenHash, type: 'invite' });
    expect(first.error).toBeNull();
    expect(first.data.user?.email).toBe(email);
    const again = await anonClient(server.url).auth.verifyOtp({ token_hash: tokenHash, type: 'invite' });
    expect(again.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Email link is invalid or has expired',
    });
  });

  it('answers a wrong code with the code wording, and the right code still works', async () => {
    const { email, otp } = await invited();
    const wrong = String((Number(otp) + 1) % 1_000_000).padStart(6, '0');
    const refused = await anonClient(server.url).auth.verifyOtp({ email, token: wrong, type: 'invite' });
    expect(refused.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
    const accepted = await anonClient(server.url).auth.verifyOtp({ email, token: otp, type: 'invite' });
    expect(accepted.error).toBeNull();
  });
});
