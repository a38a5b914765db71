// `npm run bench:launch` at a small size (12 orders, 6 in flight, a budget of 4 e-mails an hour,
// below the 6 new buyers' spike): the launch-day claims the benchmark checks, on the real stack
// (stand-in, Deno function, inbox). Its latency limit is the full benchmark's figure, measured on
// a quiet machine; here every correctness figure must hold.
import { describe, expect, it } from 'vitest';
import { runLaunchBench } from './bench-launch.mjs';

describe('bench:launch (small)', () => {
  it('every order once, the right tiers, one working invitation per new buyer, all sent once the budget frees', async () => {
    const lines: string[] = [];
    const { report, failures } = await runLaunchBench({
      orders: 12,
      concurrency: 6,
      budget: 4,
      log: (line) => lines.push(line),
    });
    expect(failures.filter((f) => !f.startsWith('p99'))).toEqual([]);
    expect(report).toMatchObject({
      deliveries: 36,
      byStatus: { 200: 36 },
      lost: 0,
      doubled: 0,
      wrongTiers: 0,
      invitationsPerNewBuyer: { 1: 6 },
      deadLinks: 0,
      withoutFiles: 0,
      // 6 new buyers, 4 e-mails an hour: 2 wait after the spike, and staff see both.
      staffListed: 2,
      hoursToDrain: 1,
    });
    expect(lines.at(-1)).toMatch(/^(PASSED|FAILED: p99)/);
  }, 120_000);
});
