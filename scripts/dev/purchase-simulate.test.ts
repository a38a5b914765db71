// `npm run purchase:simulate` against a stand-in: the script's own command line (read from
// package.json, with the pinned Deno binary), a real signed delivery, and the tier it results in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiers } from '../../src/content/tiers';
import { serviceClient, startStandIn, uniqueEmail, type StandIn } from '../../packages/supabase-stand-in/tests/helpers';
import { runDenoScript } from './run-deno-script';

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn({ seedSampleFiles: false });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

function simulate(...args: string[]): Promise<{ code: number; output: string }> {
  return runDenoScript(
    'purchase:simulate',
    args,
    { PURCHASE_WEBHOOK_URL: `${server.url}/functions/v1/purchase-webhook` },
    ['SHOPIFY_WEBHOOK_SECRET', 'STRIPE_WEBHOOK_SECRET'],
  );
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
