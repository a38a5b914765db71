/** What a paint observer's callback is handed, as far as the boot code reads it. */
type PaintEntries = { getEntriesByName: (name: string) => unknown[] };

/**
 * The Paint Timing API as far as the boot code asks it: a `PerformanceObserver` of `paint`
 * entries, whose first contentful paint is recorded at `paint()`. As in a browser, an observer
 * started after the paint (`buffered`) is told of it, in a later turn, not inside `observe()`.
 */
export function fakePaintTiming() {
  let painted = false;
  const waiting = new Set<() => void>();
  const entries: PaintEntries = {
    getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{ name }] : []),
  };
  class PaintObserver {
    static supportedEntryTypes = ['paint'];
    private readonly notify: () => void;
    constructor(callback: (list: PaintEntries) => void) {
      this.notify = () => callback(entries);
    }
    observe() {
      if (painted) queueMicrotask(this.notify);
      else waiting.add(this.notify);
    }
    disconnect() {
      waiting.delete(this.notify);
    }
  }
  const paint = () => {
    painted = true;
    for (const notify of [...waiting]) notify();
  };
  return { PerformanceObserver: PaintObserver as unknown as typeof PerformanceObserver, paint };
}

/**
 * A window whose paint, frames and timers come when the test says: `paint()` records the first
 * contentful paint (with `observer: false`, a browser without paint entries: it runs the frame
 * callbacks alone); `advance(ms)` moves the clock and runs the timers due. `hidden`: a tab in
 * the background.
 */
export function fakeWindow({ observer = true, hidden = false } = {}) {
  const frames: (() => void)[] = [];
  const timers: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  let now = 0;
  const paintTiming = fakePaintTiming();
  const target = Object.assign(new EventTarget(), {
    document: { visibilityState: hidden ? 'hidden' : 'visible', defaultView: null as unknown },
    PerformanceObserver: observer ? paintTiming.PerformanceObserver : undefined,
    requestAnimationFrame: (run: () => void) => frames.push(run),
    setTimeout: (run: () => void, ms = 0) => {
      timers.push({ at: now + ms, run, id: ++ids });
      return ids;
    },
    clearTimeout: (id: number) => {
      const at = timers.findIndex((timer) => timer.id === id);
      if (at >= 0) timers.splice(at, 1);
    },
  }) as unknown as Window;
  (target.document as unknown as { defaultView: Window }).defaultView = target;
  const paint = () => {
    frames.splice(0).forEach((run) => run());
    paintTiming.paint();
  };
  const advance = (ms: number) => {
    now += ms;
    for (const timer of timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.run();
    }
  };
  return { target, paint, advance };
}
