import { afterEach, describe, expect, it } from 'vitest';
import { HYDRATE_AT_ONCE_EVENTS, holdInteractions } from './hold-until-app';

afterEach(() => {
  document.body.innerHTML = '';
  document.documentElement.style.cursor = '';
});

function page(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

describe('holdInteractions', () => {
  it('keeps a click on a button from the page and the app, and replays it as a tap on release', () => {
    const root = page('<button type="button">Play</button>');
    const button = root.querySelector('button')!;
    const seen: string[] = [];
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
      root.addEventListener(type, () => seen.push(type));
    }
    const held = holdInteractions(root);

    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    button.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(seen).toEqual([]);
    expect(held.pending()).toBe(true);
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(document.documentElement.style.cursor).toBe('progress');

    held.release();
    expect(seen).toEqual(['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']);
    expect(button).not.toHaveAttribute('aria-busy');
    expect(document.documentElement.style.cursor).toBe('');
    expect(held.pending()).toBe(false);

    // Released: clicks go straight through, and a second release replays nothing.
    seen.length = 0;
    button.click();
    held.release();
    expect(seen).toEqual(['click']);
  });

  it('holds a submit (it must not post the prerendered form) and submits through the app on release', () => {
    const root = page('<form method="post"><input name="email" value="a@b.c"><button>Sign In</button></form>');
    const form = root.querySelector('form')!;
    const submits: string[] = [];
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submits.push(new FormData(form).get('email') as string);
    });
    const held = holdInteractions(root);
    root.querySelector('button')!.click();
    expect(submits).toEqual([]);

    held.release();
    expect(submits).toEqual(['a@b.c']);
  });

  it('replays only the last button clicked', () => {
    const root = page('<button type="button">One</button><button type="button">Two</button>');
    const clicked: string[] = [];
    root.addEventListener('click', (event) => clicked.push((event.target as HTMLElement).textContent ?? ''));
    const held = holdInteractions(root);
    const [one, two] = root.querySelectorAll('button');
    one!.click();
    two!.click();
    expect(one).not.toHaveAttribute('aria-busy');
    held.release();
    expect(clicked).toEqual(['Two']);
  });

  it('leaves links (they work without the app) and whatever is outside the page alone', () => {
    const root = page('<a href="#there">There</a>');
    const outside = document.createElement('button');
    document.body.append(outside);
    const held = holdInteractions(root);

    const onLink = new MouseEvent('click', { bubbles: true, cancelable: true });
    root.querySelector('a')!.dispatchEvent(onLink);
    const onOutside = new MouseEvent('click', { bubbles: true, cancelable: true });
    outside.dispatchEvent(onOutside);
    expect(onLink.defaultPrevented).toBe(false);
    expect(onOutside.defaultPrevented).toBe(false);
    expect(held.pending()).toBe(false);
    held.release();
  });

  it('abandoned (the app failed to load), drops the held click and stops holding', () => {
    const root = page('<form method="post"><button>Sign In</button></form>');
    const button = root.querySelector('button')!;
    let submits = 0;
    root.querySelector('form')!.addEventListener('submit', (event) => {
      event.preventDefault();
      submits += 1;
    });
    const held = holdInteractions(root);
    button.click();
    held.abandon();
    expect(submits).toBe(0);
    expect(button).not.toHaveAttribute('aria-busy');
    expect(document.documentElement.style.cursor).toBe('');
    held.release();
    expect(submits).toBe(0);
  });

  it('does not replay onto a button the app has removed', () => {
    const root = page('<button type="button">Gone</button>');
    const button = root.querySelector('button')!;
    let clicks = 0;
    button.addEventListener('click', () => (clicks += 1));
    const held = holdInteractions(root);
    button.click();
    button.remove();
    held.release();
    expect(clicks).toBe(0);
  });
});

describe('holdInteractions and the app still hydrating', () => {
  it('keeps presses, keys and typing inside the page from the app until release, and leaves link clicks to it', () => {
    const root = page('<input id="email" /><a href="/bundles">Bundles</a>');
    const outside = document.createElement('button');
    document.body.append(outside);
    const input = root.querySelector('input')!;
    const link = root.querySelector('a')!;
    // Where React listens: on its root, capturing.
    const seen: string[] = [];
    for (const type of HYDRATE_AT_ONCE_EVENTS) root.addEventListener(type, () => seen.push(type), true);
    root.addEventListener('click', (event) => (seen.push('click'), event.preventDefault()), true);
    let outsideSeen = 0;
    outside.addEventListener('pointerdown', () => (outsideSeen += 1));

    const held = holdInteractions(root);
    for (const type of HYDRATE_AT_ONCE_EVENTS) input.dispatchEvent(new Event(type, { bubbles: true }));
    expect(seen).toEqual([]);
    link.click();
    expect(seen).toEqual(['click']);
    outside.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(outsideSeen).toBe(1);

    held.release();
    seen.length = 0;
    for (const type of HYDRATE_AT_ONCE_EVENTS) input.dispatchEvent(new Event(type, { bubbles: true }));
    expect(seen).toEqual(HYDRATE_AT_ONCE_EVENTS);
  });

  it("cancels none of them: focus and typing stay the browser's", () => {
    const root = page('<input id="email" />');
    const input = root.querySelector('input')!;
    holdInteractions(root);
    input.focus();
    const keydown = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, key: 'a' });
    input.dispatchEvent(keydown);
    expect(keydown.defaultPrevented).toBe(false);
    expect(document.activeElement).toBe(input);
  });
});

describe('holdInteractions answers what the markup says how to', () => {
  const tabs = `
    <div role="tablist" aria-orientation="horizontal">
      <button type="button" role="tab" id="t-in" aria-controls="p-in" aria-selected="true" data-state="active" tabindex="0">Sign In</button>
      <button type="button" role="tab" id="t-up" aria-controls="p-up" aria-selected="false" data-state="inactive" tabindex="-1">Sign Up</button>
    </div>
    <div role="tabpanel" id="p-in" data-state="active"><input aria-label="in"></div>
    <div role="tabpanel" id="p-up" data-state="inactive" hidden><input aria-label="up"></div>`;

  it('switches a tab at once, and replays it to the app on release with focus left where the visitor is', () => {
    const root = page(tabs);
    const signUp = root.querySelector<HTMLElement>('#t-up')!;
    const seen: string[] = [];
    root.addEventListener('mousedown', (event) => seen.push((event.target as HTMLElement).id));
    const held = holdInteractions(root);

    signUp.click();
    expect(signUp).toHaveAttribute('aria-selected', 'true');
    expect(root.querySelector('#p-up')).not.toHaveAttribute('hidden');
    expect(root.querySelector('#p-in')).toHaveAttribute('hidden');
    // Answered, not held: nothing says "busy".
    expect(held.pending()).toBe(false);
    expect(signUp).not.toHaveAttribute('aria-busy');

    const field = root.querySelector<HTMLInputElement>('[aria-label="up"]')!;
    field.focus();
    signUp.addEventListener('mousedown', () => signUp.focus());
    held.release();
    expect(seen).toEqual(['t-up']);
    expect(document.activeElement).toBe(field);
  });

  it('moves between tabs with the arrow keys, as Radix does (looping), and replays the last one chosen', () => {
    const root = page(tabs);
    const signIn = root.querySelector<HTMLElement>('#t-in')!;
    const signUp = root.querySelector<HTMLElement>('#t-up')!;
    const seen: string[] = [];
    root.addEventListener('mousedown', (event) => seen.push((event.target as HTMLElement).id));
    const held = holdInteractions(root);
    signIn.focus();

    const right = new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true });
    signIn.dispatchEvent(right);
    expect(right.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(signUp);
    expect(signUp).toHaveAttribute('aria-selected', 'true');
    expect(signUp.tabIndex).toBe(0);
    expect(signIn.tabIndex).toBe(-1);

    signUp.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true }));
    expect(document.activeElement).toBe(signIn);
    expect(root.querySelector('#p-in')).not.toHaveAttribute('hidden');
    // Up and down belong to a vertical tablist; a key on anything else is not ours.
    const down = new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, cancelable: true });
    signIn.dispatchEvent(down);
    expect(down.defaultPrevented).toBe(false);

    held.release();
    expect(seen).toEqual(['t-up', 't-in']);
  });

  it('replays answered actions and the held click in the order they happened', () => {
    const root = page(`${tabs}<form><button id="send">Send</button></form>`);
    const seen: string[] = [];
    root.addEventListener('click', (event) => {
      event.preventDefault();
      seen.push((event.target as HTMLElement).id);
    });
    const held = holdInteractions(root);
    root.querySelector<HTMLElement>('#t-up')!.click();
    root.querySelector<HTMLElement>('#send')!.click();
    root.querySelector<HTMLElement>('#t-in')!.click();
    expect(root.querySelector('#send')).toHaveAttribute('aria-busy', 'true');
    held.release();
    expect(seen).toEqual(['t-up', 'send', 't-in']);
  });

  it('answers what the head script held, in order, leaving focus where the visitor has gone since', () => {
    const root = page(`${tabs}<form><button id="send">Sign In</button></form>`);
    const signIn = root.querySelector<HTMLElement>('#t-in')!;
    const send = root.querySelector<HTMLElement>('#send')!;
    const seen: string[] = [];
    root.addEventListener('mousedown', (event) => seen.push((event.target as HTMLElement).id));
    root.addEventListener('click', (event) => {
      event.preventDefault();
      seen.push(`click ${(event.target as HTMLElement).id}`);
    });
    // Before the boot script: an arrow key on Sign In, a tap back on Sign In, the form sent.
    send.focus();
    const held = holdInteractions(root, {
      early: [
        { type: 'keydown', target: signIn, key: 'ArrowRight' },
        { type: 'click', target: signIn },
        { type: 'click', target: send },
      ],
    });
    expect(signIn).toHaveAttribute('aria-selected', 'true');
    expect(root.querySelector('#p-in')).not.toHaveAttribute('hidden');
    expect(send).toHaveAttribute('aria-busy', 'true');
    expect(document.activeElement).toBe(send);

    held.release();
    expect(seen).toEqual(['t-up', 'click t-up', 't-in', 'click t-in', 'send', 'click send']);
    expect(document.activeElement).toBe(send);
  });

  it('moves focus with a held arrow key when focus is still on that tab', () => {
    const root = page(tabs);
    const signIn = root.querySelector<HTMLElement>('#t-in')!;
    signIn.focus();
    holdInteractions(root, { early: [{ type: 'keydown', target: signIn, key: 'ArrowRight' }] });
    expect(document.activeElement).toBe(root.querySelector('#t-up'));
    expect(root.querySelector('#p-up')).not.toHaveAttribute('hidden');
  });

  it('abandoned, keeps what the page answered and drops the held click', () => {
    const root = page(tabs);
    const held = holdInteractions(root);
    root.querySelector<HTMLElement>('#t-up')!.click();
    held.abandon();
    expect(root.querySelector('#t-up')).toHaveAttribute('aria-selected', 'true');
  });
});

describe('holdInteractions and links that need the app only in a frame', () => {
  const realTop = Object.getOwnPropertyDescriptor(window, 'top');
  afterEach(() => {
    if (realTop) Object.defineProperty(window, 'top', realTop);
  });
  const link = '<a href="https://shop.test/p" data-needs-app-in-frame="">Buy</a>';

  it('leaves them to the browser on a page that is not framed', () => {
    const root = page(link);
    const held = holdInteractions(root);
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    root.querySelector('a')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
    held.abandon();
  });

  it('in a frame, holds an unmodified click for the app and replays it; a modified one stays the browser’s', () => {
    Object.defineProperty(window, 'top', { configurable: true, get: () => ({}) });
    const root = page(link);
    const anchor = root.querySelector('a')!;
    const held = holdInteractions(root);
    const modified = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    anchor.dispatchEvent(modified);
    expect(modified.defaultPrevented).toBe(false);

    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    anchor.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(held.pending()).toBe(true);
    let replayed = 0;
    anchor.addEventListener('click', (event) => {
      event.preventDefault();
      replayed += 1;
    });
    held.release();
    expect(replayed).toBe(1);
  });
});
