import { afterEach, describe, expect, it } from 'vitest';
import { fakeWindow } from '@/testing/fake-window';
import { afterPress, onFirstIntent, PRESS_WAIT_MS } from './start-on-intent';

afterEach(() => {
  document.body.innerHTML = '';
});

function page(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

describe('afterPress', () => {
  it('calls back at once for anything but a press', () => {
    const page = fakeWindow();
    let calls = 0;
    for (const type of ['keydown', 'focusin', 'scroll', 'pointermove'])
      afterPress(new Event(type), () => (calls += 1), page.target);
    expect(calls).toBe(4);
  });

  it('after a press, calls back once its click has come and the frame after it is painted', () => {
    const page = fakeWindow();
    let calls = 0;
    afterPress(new Event('pointerdown'), () => (calls += 1), page.target);
    page.advance(0);
    page.paint();
    expect(calls).toBe(0);
    page.target.dispatchEvent(new Event('click'));
    page.advance(0);
    expect(calls).toBe(0);
    page.paint();
    expect(calls).toBe(0);
    page.advance(0);
    expect(calls).toBe(1);
    page.target.dispatchEvent(new Event('click'));
    page.paint();
    page.advance(PRESS_WAIT_MS);
    expect(calls).toBe(1);
  });

  it('ends a press the visitor gave up (the finger scrolled) as one that clicked', () => {
    for (const end of ['pointercancel', 'touchcancel', 'scroll', 'keydown', 'contextmenu']) {
      const page = fakeWindow();
      let calls = 0;
      afterPress(new Event('touchstart'), () => (calls += 1), page.target);
      page.target.dispatchEvent(new Event(end));
      page.paint();
      page.advance(0);
      expect(calls, end).toBe(1);
    }
  });

  it('does not wait for a press held longer than PRESS_WAIT_MS', () => {
    const page = fakeWindow();
    let calls = 0;
    afterPress(new Event('pointerdown'), () => (calls += 1), page.target);
    page.advance(PRESS_WAIT_MS - 1);
    page.paint();
    page.advance(0);
    expect(calls).toBe(0);
    page.advance(1);
    page.paint();
    page.advance(0);
    expect(calls).toBe(1);
  });

  it('in a tab in the background (no frame comes), calls back as the press ends', () => {
    const page = fakeWindow({ hidden: true });
    let calls = 0;
    afterPress(new Event('pointerdown'), () => (calls += 1), page.target);
    page.target.dispatchEvent(new Event('click'));
    expect(calls).toBe(1);
  });
});

describe('onFirstIntent', () => {
  it('calls back once, on the first action, and not before', () => {
    let calls = 0;
    onFirstIntent(() => (calls += 1));
    expect(calls).toBe(0);
    window.dispatchEvent(new Event('load'));
    expect(calls).toBe(0);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, key: 'Shift' }));
    expect(calls).toBe(1);
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    window.dispatchEvent(new Event('scroll'));
    expect(calls).toBe(1);
  });

  it('hears focus moving into the page (a keyboard user tabbing in)', () => {
    const root = page('<a href="/x">x</a>');
    let calls = 0;
    onFirstIntent(() => (calls += 1));
    root.querySelector('a')!.focus();
    expect(calls).toBe(1);
  });

  it('does not start on a press on a link, nor on the focus that press gives it: the visitor is leaving', () => {
    const root = page('<a href="/auth">Sign In</a><button type="button">Play</button>');
    const link = root.querySelector('a')!;
    let calls = 0;
    onFirstIntent(() => (calls += 1));
    link.dispatchEvent(new Event('touchstart', { bubbles: true }));
    link.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    link.focus();
    expect(calls).toBe(0);
    // Anything else the visitor does on the page still starts it.
    root.querySelector('button')!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(calls).toBe(1);
  });

  it('still starts on a keyboard user tabbing to a link they never pressed', () => {
    const root = page('<a href="/auth">Sign In</a><a href="/bundles">Bundles</a>');
    const [first, second] = [...root.querySelectorAll('a')];
    let calls = 0;
    onFirstIntent(() => (calls += 1));
    first!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(calls).toBe(0);
    second!.focus();
    expect(calls).toBe(1);
  });

  it('hands over the event it started on', () => {
    const root = page('<p>Text</p>');
    const seen: Event[] = [];
    onFirstIntent((event) => seen.push(event));
    const touch = new Event('touchstart', { bubbles: true });
    root.querySelector('p')!.dispatchEvent(touch);
    expect(seen).toEqual([touch]);
  });

  it('can be cancelled', () => {
    let calls = 0;
    const cancel = onFirstIntent(() => (calls += 1));
    cancel();
    window.dispatchEvent(new Event('scroll'));
    expect(calls).toBe(0);
  });
});
