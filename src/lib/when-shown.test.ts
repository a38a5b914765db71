import { describe, expect, it } from 'vitest';
import { fakeWindow } from '@/testing/fake-window';
import { SHOWN_FRAME_FALLBACK_MS, whenShown } from './when-shown';

/** A document that is being prerendered until `activate` (as Chrome fires prerenderingchange). */
function prerenderingDocument(visibilityState: DocumentVisibilityState = 'visible') {
  const target = new EventTarget();
  const doc = Object.assign(target, { prerendering: true, visibilityState });
  return {
    doc,
    activate() {
      doc.prerendering = false;
      target.dispatchEvent(new Event('prerenderingchange'));
    },
  };
}

describe('whenShown', () => {
  it('calls back at once on a page that is shown', () => {
    let calls = 0;
    whenShown(() => (calls += 1), document);
    expect(calls).toBe(1);
  });

  it('waits, on a prerendered page, until the visitor goes to it and its first frame is painted, then calls back once', () => {
    const { doc, activate } = prerenderingDocument();
    const { target, paint, advance } = fakeWindow();
    let calls = 0;
    whenShown(() => (calls += 1), doc, target);
    advance(SHOWN_FRAME_FALLBACK_MS);
    expect(calls).toBe(0);
    activate();
    advance(0);
    expect(calls).toBe(0);
    paint();
    expect(calls).toBe(0);
    advance(0);
    expect(calls).toBe(1);
    doc.dispatchEvent(new Event('prerenderingchange'));
    advance(SHOWN_FRAME_FALLBACK_MS);
    paint();
    advance(0);
    expect(calls).toBe(1);
  });

  it('calls back without a frame when none comes: a tab hidden when shown, or one hidden meanwhile', () => {
    const hidden = prerenderingDocument('hidden');
    const first = fakeWindow();
    let calls = 0;
    whenShown(() => (calls += 1), hidden.doc, first.target);
    hidden.activate();
    first.advance(0);
    expect(calls).toBe(1);

    const visible = prerenderingDocument();
    const second = fakeWindow();
    whenShown(() => (calls += 1), visible.doc, second.target);
    visible.activate();
    second.advance(SHOWN_FRAME_FALLBACK_MS - 1);
    expect(calls).toBe(1);
    second.advance(1);
    expect(calls).toBe(2);
  });
});
