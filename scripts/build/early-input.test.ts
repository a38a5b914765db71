// @vitest-environment jsdom
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { takeEarlyInput } from '@/lib/take-early-input';
import { holdInteractions } from '@/boot/hold-until-app';
import { NEEDS_APP, NEEDS_APP_IN_FRAME } from '@/config/needs-app';
import { earlyInputPlugin, earlyInputScript, scriptHash } from './early-input.mjs';

afterEach(() => {
  takeEarlyInput();
  document.body.innerHTML = '';
});

/** A prerendered page, and the inline head script run on it as the browser would. */
function page(html: string) {
  document.body.innerHTML = `<div id="root">${html}</div><button id="outside">Outside</button>`;
  new Function(earlyInputScript(NEEDS_APP, NEEDS_APP_IN_FRAME))();
  return document.getElementById('root')!;
}

const tabs = `
  <div role="tablist"><button type="button" role="tab" id="t-in" aria-controls="p-in" aria-selected="true">Sign In</button><button type="button" role="tab" id="t-up" aria-controls="p-up" aria-selected="false">Sign Up</button></div>
  <div role="tabpanel" id="p-in"><form method="post"><button id="submit">Sign In</button></form></div>
  <div role="tabpanel" id="p-up" hidden></div>
  <a href="#there" id="link">There</a>`;

describe('the early-input script', () => {
  it('holds taps on controls and tab keys in the page until the boot script takes them, in order', () => {
    const root = page(tabs);
    const submit = new MouseEvent('click', { bubbles: true, cancelable: true });
    root.querySelector('#submit')!.dispatchEvent(submit);
    const key = new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true });
    root.querySelector('#t-in')!.dispatchEvent(key);
    // Held: the form is not posted, nothing else sees them, and nothing is answered yet.
    expect(submit.defaultPrevented).toBe(true);
    expect(key.defaultPrevented).toBe(true);
    expect(root.querySelector('#t-up')?.getAttribute('aria-selected')).toBe('false');

    const early = takeEarlyInput();
    expect(early.map(({ type, target, key }) => [type, target.id, key])).toEqual([
      ['click', 'submit', undefined],
      ['keydown', 't-in', 'ArrowRight'],
    ]);
    // The boot script answers them: the button is held for the app, the tab chosen.
    const held = holdInteractions(root, { early });
    expect(root.querySelector('#submit')?.getAttribute('aria-busy')).toBe('true');
    expect(root.querySelector('#t-up')?.getAttribute('aria-selected')).toBe('true');
    expect(root.querySelector('#p-up')?.hasAttribute('hidden')).toBe(false);
    held.abandon();
  });

  it('leaves links, other keys, modified keys and what is outside the page alone', () => {
    const root = page(tabs);
    const events = [
      [root.querySelector('#link')!, new MouseEvent('click', { bubbles: true, cancelable: true })],
      [document.getElementById('outside')!, new MouseEvent('click', { bubbles: true, cancelable: true })],
      [root.querySelector('#t-in')!, new KeyboardEvent('keydown', { key: 'a', bubbles: true, cancelable: true })],
      [
        root.querySelector('#t-in')!,
        new KeyboardEvent('keydown', { key: 'ArrowRight', shiftKey: true, bubbles: true, cancelable: true }),
      ],
    ] as const;
    for (const [target, event] of events) {
      target.dispatchEvent(event);
      expect(event.defaultPrevented).toBe(false);
    }
    expect(takeEarlyInput()).toEqual([]);
  });

  it('holds a purchase link only inside a frame, where it needs the app', () => {
    const realTop = Object.getOwnPropertyDescriptor(window, 'top');
    const link = '<a href="https://shop.test/p" data-needs-app-in-frame="" id="buy">Buy</a>';
    try {
      let click = new MouseEvent('click', { bubbles: true, cancelable: true });
      page(link).querySelector('#buy')!.dispatchEvent(click);
      expect(click.defaultPrevented).toBe(false);
      takeEarlyInput();

      Object.defineProperty(window, 'top', { configurable: true, get: () => ({}) });
      click = new MouseEvent('click', { bubbles: true, cancelable: true });
      page(link).querySelector('#buy')!.dispatchEvent(click);
      expect(click.defaultPrevented).toBe(true);
      expect(takeEarlyInput().map(({ target }) => target.id)).toEqual(['buy']);
    } finally {
      if (realTop) Object.defineProperty(window, 'top', realTop);
    }
  });

  it('stops holding once taken: the app gets every click after', () => {
    const root = page(tabs);
    takeEarlyInput();
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    root.querySelector('#t-up')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
    // A page without the script (or a second call) takes nothing.
    expect(takeEarlyInput()).toEqual([]);
  });

  it('goes into index.html after the charset, and the policy allows exactly it', () => {
    const script = earlyInputScript(NEEDS_APP, NEEDS_APP_IN_FRAME);
    const plugin = earlyInputPlugin(script);
    const transform = plugin.transformIndexHtml as { handler: (html: string) => string };
    const html = transform.handler('<head>\n    <meta charset="UTF-8" />\n    <title>t</title>\n</head>');
    expect(html).toContain(`<meta charset="UTF-8" />\n    <script>${script}</script>\n    <title>`);
    expect(scriptHash(script)).toBe(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(() => transform.handler('<head></head>')).toThrow(/charset/);
  });
});
