// The count function's two pieces of memory, each the isolate's own: the counts waiting to be
// written (one `count_visits` call per batch) and each address's counts in the current minute.

type ApiError = { message: string; code?: string };

/** A PostgREST call with the service-role key (supabase-js's `rpc`). */
export type CountRpc = (
  fn: string,
  args: Record<string, unknown>,
) => PromiseLike<{ data: unknown; error: ApiError | null }>;

export type LogEntry = { level: 'info' | 'warn' | 'error'; message: string } & Record<string, unknown>;

/** One count as `public.count_visits` takes it. */
export type VisitCount = {
  kind: string;
  page: string;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
  bundle: string | null;
  device: string;
  address: string;
  user_agent: string;
  site: string;
};

/** setTimeout and clearTimeout, or a test's own. */
export type Timers = {
  set: (run: () => void, ms: number) => unknown;
  clear: (timer: unknown) => void;
};

export const realTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (timer) => clearTimeout(timer as number),
};

/** A batch is written when it holds this many counts… */
export const FLUSH_AT_COUNTS = 100;
/** …or this long after its first count, whichever comes first. */
export const FLUSH_AFTER_MS = 250;

export type CountBufferOptions = {
  rpc: CountRpc;
  log: (entry: LogEntry) => void;
  timers?: Timers;
  /** Keeps the isolate alive until the promise settles (hosted: `EdgeRuntime.waitUntil`). */
  waitUntil?: (promise: Promise<unknown>) => void;
};

export type CountBuffer = {
  add: (count: VisitCount) => void;
  /** Writes the waiting counts now; settles when they are written or given up on (never rejects). */
  flush: () => Promise<void>;
  readonly size: number;
};

/** One `count_visits` call; the error's message when it failed. */
async function write(rpc: CountRpc, counts: VisitCount[]): Promise<{ error: string | null; data?: unknown }> {
  try {
    const { data, error } = await rpc('count_visits', { p_counts: counts });
    return error ? { error: `${error.code ?? ''} ${error.message}`.trim() } : { error: null, data };
  } catch (error) {
    return { error: String(error) };
  }
}

/** Writes a batch, tries once more when that fails, and logs what was dropped or lost. */
async function send(options: CountBufferOptions, counts: VisitCount[]): Promise<void> {
  let result = await write(options.rpc, counts);
  if (result.error !== null) {
    options.log({
      level: 'warn',
      message: 'count_visits failed, trying again',
      counts: counts.length,
      error: result.error,
    });
    result = await write(options.rpc, counts);
  }
  if (result.error !== null) {
    options.log({ level: 'error', message: 'counts lost', lost: counts.length, error: result.error });
    return;
  }
  const dropped = (result.data as { dropped?: unknown } | null)?.dropped;
  if (typeof dropped === 'number' && dropped > 0) {
    options.log({ level: 'warn', message: 'counts over the database’s minute cap dropped', dropped });
  }
}

/**
 * Counts held in memory and written in batches: when the batch holds FLUSH_AT_COUNTS counts or
 * FLUSH_AFTER_MS after its first count. When a batch starts, a promise that settles once it is
 * written goes to `waitUntil`, so the platform keeps the isolate for the wait and the write.
 */
export function createCountBuffer(options: CountBufferOptions): CountBuffer {
  const timers = options.timers ?? realTimers;
  let batch: { counts: VisitCount[]; timer: unknown; written: (sent: Promise<void>) => void } | null = null;

  const flush = (): Promise<void> => {
    const current = batch;
    if (!current) return Promise.resolve();
    batch = null;
    timers.clear(current.timer);
    const sent = send(options, current.counts);
    current.written(sent);
    return sent;
  };

  const start = () => {
    let settle = () => {};
    const written = new Promise<void>((resolve) => (settle = resolve));
    options.waitUntil?.(written);
    return {
      counts: [],
      timer: timers.set(() => void flush(), FLUSH_AFTER_MS),
      written: (sent: Promise<void>) => void sent.then(settle),
    };
  };

  return {
    add(count) {
      batch ??= start();
      batch.counts.push(count);
      if (batch.counts.length >= FLUSH_AT_COUNTS) void flush();
    },
    flush,
    get size() {
      return batch?.counts.length ?? 0;
    },
  };
}

/** Counts an address may send in one minute, here and in the database. */
export const PER_MINUTE = 120;

/**
 * Each address's counts in the current minute of `now`; `take` says whether one more is within
 * PER_MINUTE. Only the current minute is kept: a new minute starts from nothing.
 */
export function createMinuteLimit(now: () => number = Date.now): { take: (address: string) => boolean } {
  let minute = -1;
  let seen = new Map<string, number>();
  return {
    take(address) {
      const current = Math.floor(now() / 60_000);
      if (current !== minute) {
        minute = current;
        seen = new Map();
      }
      const n = (seen.get(address) ?? 0) + 1;
      seen.set(address, n);
      return n <= PER_MINUTE;
    },
  };
}
