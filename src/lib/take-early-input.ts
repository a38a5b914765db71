/** An input the page's inline head script held before the page's own script ran (scripts/build/early-input.mjs). */
export type EarlyInput = { type: 'click' | 'keydown'; target: Element; key?: string };

/**
 * Stops the inline head script's holding and returns what it held, oldest first: a visitor
 * who acts between the first paint and the page's own script (a round trip or more on a
 * phone) loses nothing. Each page's script calls this at start: the public pages'
 * (src/document/main.ts) and the app's boot script (src/boot/main.ts).
 */
export function takeEarlyInput(target: Window & { __earlyInput?: () => EarlyInput[] } = window): EarlyInput[] {
  const take = target.__earlyInput;
  delete target.__earlyInput;
  return typeof take === 'function' ? take() : [];
}
