// `npm run purchase:simulate` against a stand-in: the script's own command line (read from
// package.json, with the pinned Deno binary), a real signed delivery, and the tier it results in.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiers } from '../../src/content/tiers';
import { denoExecutable } from '../../packages/supabase-stand-in/functions/service.mjs';
import { serviceClient, startStandIn, uniqueEmail, type StandIn } from '../../packages/supabase-stand-in/tests/helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts['purchase:simulate'];

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

function simulate(...args: string[]): Promise<{ code: number; output: string }> {
  const [command, ...scriptArgs] = (script ?? '').split(' ');
  expect(command).toBe('deno');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PURCHASE_WEBHOOK_URL: `${server.url}/functions/v1/purchase-webhook`,
    NO_COLOR: '1',
  };
  delete env.SHOPIFY_WEBHOOK_SECRET;
  delete env.STRIPE_WEBHOOK_SECRET;
  return new Promise((resolve) => {
    execFile(denoExecutable(), [...scriptArgs, ...args], { cwd: root, env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

async function tierOf(userId: string): Promise<string | null> {
  const { data, error } = await serviceClient(server.url)
    .from('user_tiers')
    .select('tier')
    .eq('user_id', userId)
    .maybeSingle();
  if (error) throw error;
  return (data?.tier as string | null | undefined) ?? null;
}

describe('npm run purchase:simulate', () => {
  it(
    'sends a signed sale, then with --refund the matching refund, for either provider',
    { timeout: 120_000 },
    async () => {
      const email = uniqueEmail('simulated');
      const { data, error } = await serviceClient(server.url).auth.admin.createUser({
        email,
        password: 'password123',
        email_confirm: true,
      });
      if (error || !data.user) throw error ?? new Error('no user');

      const sale = await simulate('--email', email, '--product', 'accelerated');
      expect(sale.output).toContain('200 {"ok":true,"outcome":"recorded","tier":"accelerated","account":"confirmed"}');
      expect(sale.code).toBe(0);
      expect(await tierOf(data.user.id)).toBe('accelerated');

      const refund = await simulate('--email', email, '--product', 'accelerated', '--refund');
      expect(refund.output).toContain('200 {"ok":true,"outcome":"refunded"}');
      expect(await tierOf(data.user.id)).toBeNull();

      const stripe = await simulate('--email', email, '--product', 'ebook', '--provider', 'stripe');
      expect(stripe.output).toContain('"tier":"ebook"');
      expect(await tierOf(data.user.id)).toBe('ebook');
    },
  );

  it('refuses a product it does not know, without sending anything', async () => {
    const result = await simulate('--email', 'a@b.c', '--product', 'gold');
    expect(result.code).toBe(2);
    // One product per tier, named after it.
    expect(result.output).toContain(`--product must be one of ${tiers.join(', ')}`);
  });
});
