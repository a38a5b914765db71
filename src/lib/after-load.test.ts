import { describe, expect, it } from 'vitest';
import { fakeWindow as paintingWindow } from '@/testing/fake-window';
import { afterFirstPaint, afterLoad, whenIdle } from './after-load';

/** A stand-in window with the scheduling calls `whenIdle` may use, recording what it is asked. */
function fakeWindow({ idle }: { idle: boolean }) {
  const waiting = new Map<number, () => void>();
  let next = 1;
  const schedule = (callback: () => void) => {
    const handle = next++;
    waiting.set(handle, callback);
    return handle;
  };
  const target = {
    setTimeout: schedule,
    clearTimeout: (handle: number) => waiting.delete(handle),
    ...(idle
      ? {
          requestIdleCallback: schedule,
          cancelIdleCallback: (handle: number) => waiting.delete(handle),
        }
      : {}),
  } as unknown as Window;
  const runAll = () => {
    for (const [handle, callback] of [...waiting]) {
      waiting.delete(handle);
      callback();
    }
  };
  return { target, runAll, pending: () => waiting.size };
}

describe('whenIdle', () => {
  it.each([
    ['requestIdleCallback', true],
    ['a new task where there is no requestIdleCallback', false],
  ])('runs the callback later, through %s, never at once', (_, idle) => {
    const { target, runAll } = fakeWindow({ idle });
    const calls: string[] = [];
    whenIdle(() => calls.push('ran'), {}, target);
    expect(calls).toEqual([]);
    runAll();
    expect(calls).toEqual(['ran']);
  });

  it.each([true, false])('cancels a callback still waiting (requestIdleCallback: %s)', (idle) => {
    const { target, runAll, pending } = fakeWindow({ idle });
    const calls: string[] = [];
    const cancel = whenIdle(() => calls.push('ran'), {}, target);
    expect(pending()).toBe(1);
    cancel();
    runAll();
    expect(calls).toEqual([]);
  });
});

describe('afterLoad', () => {
  it('runs at once on a loaded page', () => {
    const calls: string[] = [];
    afterLoad(() => calls.push('ran'));
    expect(document.readyState).toBe('complete');
    expect(calls).toEqual(['ran']);
  });
});

describe('afterFirstPaint', () => {
  it('calls back when the first contentful paint is recorded, once, not before', () => {
    const page = paintingWindow();
    let calls = 0;
    afterFirstPaint(() => (calls += 1), {}, page.target);
    page.advance(0);
    expect(calls).toBe(0);
    page.paint();
    expect(calls).toBe(1);
    page.advance(1000);
    expect(calls).toBe(1);
  });

  it('without paint entries, calls back in a task after the first frame', () => {
    const page = paintingWindow({ observer: false });
    let calls = 0;
    afterFirstPaint(() => (calls += 1), {}, page.target);
    page.paint();
    expect(calls).toBe(0);
    page.advance(0);
    expect(calls).toBe(1);
  });

  it('calls back after the fallback when no paint comes', () => {
    const page = paintingWindow();
    let calls = 0;
    afterFirstPaint(() => (calls += 1), { fallbackMs: 1000 }, page.target);
    page.advance(999);
    expect(calls).toBe(0);
    page.advance(1);
    expect(calls).toBe(1);
    page.paint();
    expect(calls).toBe(1);
  });

  it('calls back at once in a tab in the background (it paints nothing)', () => {
    const page = paintingWindow({ hidden: true });
    let calls = 0;
    afterFirstPaint(() => (calls += 1), {}, page.target);
    expect(calls).toBe(1);
  });
});
