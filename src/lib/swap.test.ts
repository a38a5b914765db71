import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadFrame, swap } from './swap';

afterEach(() => {
  document.body.innerHTML = '';
});

/** Resolves just after the next frame has been painted (a task queued from its frame callback). */
function afterNextPaint() {
  return new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

function page(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

describe('swap', () => {
  it('swaps: hides one element, shows another and focuses its first field', () => {
    const root = page(`
      <div id="form"><button id="forgot" data-shows="reset" data-hides="form">Forgot password?</button></div>
      <section id="reset" hidden><h3>Reset</h3><input aria-label="Email"></section>`);
    swap(root.querySelector('#forgot')!);
    expect(root.querySelector('#form')).toHaveAttribute('hidden');
    expect(root.querySelector('#reset')).not.toHaveAttribute('hidden');
    expect(document.activeElement).toBe(root.querySelector('input'));
  });

  it("shows a click-to-load frame's slot at once, then makes the frame once that is painted, and focuses it", async () => {
    const root = page(`
      <button id="play" data-shows="slot" data-hides="play">Play</button>
      <div id="slot" data-frame-src="https://video.test/embed?autoplay=1" data-frame-title="Video" data-frame-allow="autoplay" hidden></div>`);
    swap(root.querySelector('#play')!);
    expect(root.querySelector('#play')).toHaveAttribute('hidden');
    expect(root.querySelector('#slot')).not.toHaveAttribute('hidden');
    expect(root.querySelector('#slot > iframe')).toBeNull();

    await afterNextPaint();
    const frame = root.querySelector('#slot > iframe');
    expect(frame).toHaveAttribute('src', 'https://video.test/embed?autoplay=1');
    expect(frame).toHaveAttribute('title', 'Video');
    expect(frame).toHaveAttribute('allow', 'autoplay');
    expect(document.activeElement).toBe(frame);
  });

  it('makes the frame at once on a page in the background, which paints nothing', () => {
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    try {
      const root = page(`
        <button id="play" data-shows="slot" data-hides="play">Play</button>
        <div id="slot" data-frame-src="https://video.test/embed" data-frame-title="Video" hidden></div>`);
      swap(root.querySelector('#play')!);
      expect(root.querySelector('#slot > iframe')).toHaveAttribute('src', 'https://video.test/embed');
    } finally {
      visibility.mockRestore();
    }
  });

  it('makes the frame once: a second call finds the first (a new one would load the player again)', () => {
    const root = page('<div data-frame-src="https://video.test/embed" data-frame-title="Video"></div>');
    const slot = root.querySelector<HTMLElement>('[data-frame-src]')!;
    const first = loadFrame(slot);
    expect(loadFrame(slot)).toBe(first);
    expect(slot.querySelectorAll('iframe')).toHaveLength(1);
    expect(loadFrame(page('<div></div>').querySelector('div')!)).toBeNull();
  });
});
