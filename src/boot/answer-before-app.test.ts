import { afterEach, describe, expect, it } from 'vitest';
import { answerActivation, tabForKey } from './answer-before-app';

afterEach(() => {
  document.body.innerHTML = '';
});

function page(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

describe('tabForKey', () => {
  const list = (orientation: string) =>
    page(`<div role="tablist" aria-orientation="${orientation}">
      <button role="tab" id="a">A</button><button role="tab" id="b" disabled>B</button><button role="tab" id="c">C</button>
    </div>`);

  it('moves left and right in a horizontal list, looping and skipping disabled tabs', () => {
    const root = list('horizontal');
    const [a, , c] = root.querySelectorAll('[role="tab"]');
    expect(tabForKey(a!, 'ArrowRight')?.id).toBe('c');
    expect(tabForKey(c!, 'ArrowRight')?.id).toBe('a');
    expect(tabForKey(a!, 'ArrowLeft')?.id).toBe('c');
    expect(tabForKey(c!, 'Home')?.id).toBe('a');
    expect(tabForKey(a!, 'End')?.id).toBe('c');
    expect(tabForKey(a!, 'ArrowDown')).toBeNull();
    expect(tabForKey(a!, 'a')).toBeNull();
  });

  it('moves up and down in a vertical list', () => {
    const root = list('vertical');
    const [a] = root.querySelectorAll('[role="tab"]');
    expect(tabForKey(a!, 'ArrowDown')?.id).toBe('c');
    expect(tabForKey(a!, 'ArrowRight')).toBeNull();
  });
});

describe('answerActivation', () => {
  it('answers a swap and a tab, the controls whose markup says how', () => {
    const root = page(`
      <div id="form"><button id="forgot" data-shows="reset" data-hides="form">Forgot password?</button></div>
      <section id="reset" hidden><input aria-label="Email"></section>
      <div role="tablist"><button role="tab" id="a" aria-selected="true">A</button><button role="tab" id="b" aria-selected="false">B</button></div>`);
    expect(answerActivation(root.querySelector('#forgot')!)).toBe(true);
    expect(root.querySelector('#reset')).not.toHaveAttribute('hidden');
    expect(answerActivation(root.querySelector('#b')!)).toBe(true);
    expect(root.querySelector('#b')).toHaveAttribute('aria-selected', 'true');
  });

  it('answers nothing for a control the markup does not describe', () => {
    const root = page('<button id="plain">Save</button>');
    expect(answerActivation(root.querySelector('#plain')!)).toBe(false);
  });
});
