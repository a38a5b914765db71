// `npm run bench:launch` at a small size (12 orders, 6 in flight, a budget of 4 e-mails an hour,
// below the 6 new buyers' spike): the launch-day claims the benchmark checks, on the real stack
// (stand-in, Deno function, inbox). Its latency limit is the full benchmark's figure, measured on
// a quiet machine; here every correctness figure must hold. Invitations through Auth's invite
// (--through-auth) wait for its budget; through the mail API a sign-up flood does not hold them.
import { describe, expect, it } from 'vitest';
import { runLaunchBench } from './bench-launch.mjs';

describe('bench:launch (small)', () => {
  it('every order once, the right tiers, one working invitation per new buyer, all sent once the budget frees', async () => {
    const lines: string[] = [];
    const { report, failures } = await runLaunchBench({
      orders: 12,
      concurrency: 6,
      budget: 4,
      throughAuth: true,
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

  it('a flood of sign-ups and resets from 3 addresses spends the auth budget; invitations go out at once', async () => {
    const lines: string[] = [];
    const { report, failures } = await runLaunchBench({
      orders: 8,
      concurrency: 4,
      budget: 20,
      flood: 40,
      floodIps: 3,
      log: (line) => lines.push(line),
    });
    expect(failures.filter((f) => !f.startsWith('p99'))).toEqual([]);
    expect(report).toMatchObject({ deadLinks: 0, staffListed: 0 });
    expect(report.invitationsPerNewBuyer).toEqual({ 1: 4 });
    expect(report.longestInvitationWait).toBeLessThan(60_000);
    // The flood did spend the budget: some of its mails were refused by it.
    expect(lines.find((line) => line.includes('flood while paying'))).toMatch(
      /: 20 mailed, .* [1-9]\d* refused by the e-mail budget/,
    );
  }, 120_000);
});
