import { describe, expect, it } from 'vitest';
import { whenShown } from './when-shown';

/** A document that is being prerendered until `activate` (as Chrome fires prerenderingchange). */
function prerenderingDocument() {
  const target = new EventTarget();
  const doc = Object.assign(target, { prerendering: true });
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

  it('waits, on a prerendered page, until the visitor goes to it, then calls back once', () => {
    const { doc, activate } = prerenderingDocument();
    let calls = 0;
    whenShown(() => (calls += 1), doc);
    expect(calls).toBe(0);
    activate();
    expect(calls).toBe(1);
    doc.dispatchEvent(new Event('prerenderingchange'));
    expect(calls).toBe(1);
  });
});
