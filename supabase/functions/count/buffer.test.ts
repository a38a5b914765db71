import { describe, expect, it } from 'vitest';
import {
  createCountBuffer,
  createMinuteLimit,
  FLUSH_AFTER_MS,
  FLUSH_AT_COUNTS,
  type CountRpc,
  type LogEntry,
  type Timers,
  type VisitCount,
} from './buffer.ts';

/** Timers that run only when the test says so. */
function manualTimers() {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  const timers: Timers = {
    set: (run, ms) => {
      next += 1;
      pending.set(next, { run, ms });
      return next;
    },
    clear: (timer) => void pending.delete(timer as number),
  };
  /** Runs every pending timer, as if their time had come. */
  const elapse = () => {
    for (const [id, timer] of [...pending]) {
      pending.delete(id);
      timer.run();
    }
  };
  return { timers, pending, elapse };
}

type Answer = { data: unknown; error: { message: string; code?: string } | null };

/** A buffer whose rpc records each batch and answers from `answers` in turn (then counted). */
function setup(answers: (Answer | Error)[] = []) {
  const batches: VisitCount[][] = [];
  const logs: LogEntry[] = [];
  const kept: Promise<unknown>[] = [];
  const clock = manualTimers();
  const rpc: CountRpc = async (fn, args) => {
    expect(fn).toBe('count_visits');
    const counts = args.p_counts as VisitCount[];
    batches.push([...counts]);
    const answer = answers.shift() ?? { data: { counted: counts.length, dropped: 0 }, error: null };
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const buffer = createCountBuffer({
    rpc,
    log: (entry) => logs.push(entry),
    timers: clock.timers,
    waitUntil: (promise) => kept.push(promise),
  });
  return { buffer, batches, logs, kept, clock };
}

const count = (n: number): VisitCount => ({
  kind: 'view',
  page: '/',
  source: null,
  medium: null,
  campaign: null,
  referrer: null,
  bundle: null,
  device: 'desktop',
  address: `203.0.113.${n}`,
  user_agent: 'UA',
  site: 'site.test',
});

describe('the count buffer', () => {
  it('writes a batch FLUSH_AFTER_MS after its first count, in the order the counts came', async () => {
    const { buffer, batches, clock, kept } = setup();
    buffer.add(count(1));
    buffer.add(count(2));
    expect(batches).toEqual([]);
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([FLUSH_AFTER_MS]);
    expect(kept).toHaveLength(1);
    clock.elapse();
    await kept[0];
    expect(batches).toEqual([[count(1), count(2)]]);
    expect(buffer.size).toBe(0);
  });

  it('writes at once when it holds FLUSH_AT_COUNTS counts, and starts a new batch after', async () => {
    const { buffer, batches, clock, kept } = setup();
    for (let n = 0; n < FLUSH_AT_COUNTS + 1; n += 1) buffer.add(count(n));
    await kept[0];
    expect(batches.map((b) => b.length)).toEqual([FLUSH_AT_COUNTS]);
    expect(buffer.size).toBe(1);
    // The full batch's timer is gone; the new batch has its own.
    expect(clock.pending.size).toBe(1);
    clock.elapse();
    await kept[1];
    expect(batches.map((b) => b.length)).toEqual([FLUSH_AT_COUNTS, 1]);
  });

  it('hands each batch to waitUntil when it starts; the promise settles once the batch is written', async () => {
    const { buffer, clock, kept } = setup();
    buffer.add(count(1));
    let settled = false;
    void kept[0]?.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    clock.elapse();
    await kept[0];
    expect(settled).toBe(true);
  });

  it('flush writes what waits now, and nothing when nothing waits', async () => {
    const { buffer, batches, clock } = setup();
    await buffer.flush();
    expect(batches).toEqual([]);
    buffer.add(count(1));
    await buffer.flush();
    expect(batches).toEqual([[count(1)]]);
    expect(clock.pending.size).toBe(0);
  });

  it('tries a failed batch once more; when that fails too, logs an error with how many counts were lost', async () => {
    const retried = setup([{ data: null, error: { message: 'connection reset' } }]);
    retried.buffer.add(count(1));
    await retried.buffer.flush();
    expect(retried.batches).toEqual([[count(1)], [count(1)]]);
    expect(retried.logs.map((l) => l.level)).toEqual(['warn']);

    const lost = setup([new Error('network down'), { data: null, error: { message: 'timeout', code: '57014' } }]);
    lost.buffer.add(count(1));
    lost.buffer.add(count(2));
    await lost.buffer.flush();
    expect(lost.batches).toHaveLength(2);
    expect(lost.logs.at(-1)).toEqual({ level: 'error', message: 'counts lost', lost: 2, error: '57014 timeout' });
  });

  it('logs the counts the database dropped over its minute cap', async () => {
    const { buffer, logs } = setup([{ data: { counted: 1, dropped: 2 }, error: null }]);
    for (let n = 0; n < 3; n += 1) buffer.add(count(9));
    await buffer.flush();
    expect(logs).toEqual([expect.objectContaining({ level: 'warn', dropped: 2 })]);
  });
});

describe('the per-minute limit', () => {
  it('takes 120 counts an address a minute, refuses the rest, and starts again the next minute', () => {
    let now = Date.UTC(2026, 10, 28, 12, 0, 5);
    const limit = createMinuteLimit(() => now);
    const taken = Array.from({ length: 121 }, () => limit.take('a'));
    expect(taken.filter(Boolean)).toHaveLength(120);
    expect(taken.at(-1)).toBe(false);
    expect(limit.take('b')).toBe(true);
    now += 60_000;
    expect(limit.take('a')).toBe(true);
  });
});
