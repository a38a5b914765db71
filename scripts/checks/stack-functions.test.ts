import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../src/config/paths';
import { readConfig } from '../../supabase/functions/purchase-webhook/config.ts';
import { createWebhookHandler } from '../../supabase/functions/purchase-webhook/handler.ts';
import type { PurchaseStore } from '../../supabase/functions/purchase-webhook/types.ts';
import { LOCAL_FUNCTION_SECRETS } from '../../packages/supabase-stand-in/functions/secrets.mjs';
import { FUNCTIONS_ENV_FILE, functionEnvFile, writeFunctionEnv } from '../dev/function-env.mjs';
import { waitForPurchaseWebhook } from '../dev/wait-for-function.mjs';

// The CI workflow's functions path on a `supabase start` stack (.github/workflows/supabase-stack.yml):
// scripts/dev/function-env.mjs writes supabase/functions/.env, the CLI gives its variables to the
// function, and scripts/dev/wait-for-function.mjs waits until the function serves with them.

/** `NAME=value` lines, as the CLI's dotenv parser reads this file's plain form. */
function parseDotenv(text: string): Record<string, string> {
  const lines = text.split('\n').filter((line) => line && !line.startsWith('#'));
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

const neverCalled: PurchaseStore = {
  recordPurchase: () => Promise.reject(new Error('not in these tests')),
  recordRefund: () => Promise.reject(new Error('not in these tests')),
  claimInvitation: () => Promise.reject(new Error('not in these tests')),
  claimDueInvitations: () => Promise.reject(new Error('not in these tests')),
  finishInvitation: () => Promise.reject(new Error('not in these tests')),
  retryInvitation: () => Promise.reject(new Error('not in these tests')),
  inviteBuyer: () => Promise.reject(new Error('not in these tests')),
  invitesViaAuth: false,
  recordMailPath: () => Promise.reject(new Error('not in these tests')),
};

/**
 * The function as index.ts builds it from an environment (readConfig + the plain handler), behind
 * a server that first answers as the gateway does while the edge runtime is not up yet.
 */
async function stack(env: Record<string, string>, gatewayErrorsFirst = 0) {
  const config = readConfig({ ...env, SUPABASE_URL: 'http://kong:8000', SUPABASE_SERVICE_ROLE_KEY: 'service-role' });
  const handle = createWebhookHandler({
    providers: config.providers,
    store: neverCalled,
    inviteRedirectTo: `${config.siteUrl}${paths.setPassword}`,
  });
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      if (seen.length <= gatewayErrorsFirst) {
        res.writeHead(502, { 'Content-Type': 'application/json' });
        res.end('{"message":"An invalid response was received from the upstream server"}');
        return;
      }
      const sub = (req.url ?? '').replace(/^\/functions\/v1/, '');
      const request = new Request(`http://function${sub}`, {
        method: req.method ?? 'GET',
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : null,
      });
      void handle(request).then(async (answer) => {
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('supabase/functions/.env for a supabase start stack (scripts/dev/function-env.mjs)', () => {
  it('holds the published development secrets and the site origin, and nothing else', () => {
    expect(parseDotenv(functionEnvFile({ siteUrl: 'http://127.0.0.1:4173/' }))).toEqual({
      ...LOCAL_FUNCTION_SECRETS,
      SITE_URL: 'http://127.0.0.1:4173',
    });
    expect(() => functionEnvFile({ siteUrl: 'file:///etc' })).toThrow(/not http/);
  });

  it('is where the CLI looks for it, and git-ignored', () => {
    expect(path.relative(path.resolve(import.meta.dirname, '..', '..'), FUNCTIONS_ENV_FILE)).toBe(
      path.join('supabase', 'functions', '.env'),
    );
    const ignored = execFileSync('git', ['check-ignore', '--no-index', FUNCTIONS_ENV_FILE], {
      cwd: path.resolve(import.meta.dirname, '..', '..'),
      encoding: 'utf8',
    });
    expect(ignored.trim()).toBe(FUNCTIONS_ENV_FILE);
  });

  it('writes the file, leaves an equal one alone, and does not overwrite other content without --force', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'function-env-'));
    dirs.push(dir);
    const out = path.join(dir, '.env');
    expect(writeFunctionEnv({ siteUrl: 'http://127.0.0.1:4173', out })).toBe('written');
    expect(writeFunctionEnv({ siteUrl: 'http://127.0.0.1:4173', out })).toBe('unchanged');
    writeFileSync(out, 'STRIPE_API_KEY=mine\n');
    expect(() => writeFunctionEnv({ siteUrl: 'http://127.0.0.1:4173', out })).toThrow(/--force/);
    expect(readFileSync(out, 'utf8')).toBe('STRIPE_API_KEY=mine\n');
    expect(writeFunctionEnv({ siteUrl: 'http://127.0.0.1:4173', out, force: true })).toBe('written');
  });
});

describe('waiting for the purchase webhook on a stack (scripts/dev/wait-for-function.mjs)', () => {
  const fileEnv = parseDotenv(functionEnvFile({ siteUrl: 'http://127.0.0.1:4173' }));

  it("with the file's variables, the function boots and refuses an unsigned delivery for both providers: served", async () => {
    const { url, seen } = await stack(fileEnv, 2);
    const requests = await waitForPurchaseWebhook({ url, intervalMs: 10, limitMs: 10_000 });
    // Two gateway errors, then one answer from the function per provider.
    expect(requests).toBe(4);
    expect(seen.slice(2)).toEqual([
      'POST /functions/v1/purchase-webhook/shopify',
      'POST /functions/v1/purchase-webhook/stripe',
    ]);
  });

  it('fails at once, naming the secret, when one did not reach the function', async () => {
    const { url, seen } = await stack({ ...fileEnv, STRIPE_WEBHOOK_SECRET: '' });
    await expect(waitForPurchaseWebhook({ url, intervalMs: 10, limitMs: 10_000 })).rejects.toThrow(
      /provider stripe is not enabled; STRIPE_WEBHOOK_SECRET did not reach the function/,
    );
    expect(seen).toHaveLength(2);
  });

  it('gives up at its limit with the last answer when the function is never served', async () => {
    const { url } = await stack(fileEnv, Number.POSITIVE_INFINITY);
    await expect(waitForPurchaseWebhook({ url, intervalMs: 10, limitMs: 200 })).rejects.toThrow(
      /not served within 0.2 s; last answer: 502 \{"message":"An invalid response/,
    );
  });
});
