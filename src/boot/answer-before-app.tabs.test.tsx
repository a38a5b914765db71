import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { useState } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { holdInteractions } from './hold-until-app';

// Before the app runs, the page answers a tab's keys itself (answer-before-app.ts, through
// holdInteractions); once it runs, Radix does. The two must agree, key for key: each
// sequence below is pressed on the real Radix Tabs and on their prerendered markup with the
// boot's DOM code, and the same tab must end focused and selected, its panel alone shown.

type Setup = { labels: string[]; initial: string; orientation?: 'horizontal' | 'vertical'; disabled?: string[] };
type Press = { key: string; shiftKey?: boolean; ctrlKey?: boolean; altKey?: boolean; metaKey?: boolean };
type Outcome = { focused: string | null; selected: string[]; shown: string[] };

/** Tabs as the /auth page uses them: controlled, every panel mounted, the inactive ones hidden. */
function PageTabs({ labels, initial, orientation = 'horizontal', disabled = [] }: Setup) {
  const [tab, setTab] = useState(initial);
  return (
    <Tabs value={tab} onValueChange={setTab} orientation={orientation}>
      <TabsList>
        {labels.map((label) => (
          <TabsTrigger key={label} value={label} disabled={disabled.includes(label)}>
            {label}
          </TabsTrigger>
        ))}
      </TabsList>
      {labels.map((label) => (
        <TabsContent key={label} value={label} forceMount hidden={tab !== label}>
          {`${label} panel`}
        </TabsContent>
      ))}
    </Tabs>
  );
}

function outcome(root: HTMLElement): Outcome {
  const active = root.ownerDocument.activeElement;
  return {
    focused: active?.getAttribute('role') === 'tab' ? active.textContent : null,
    selected: [...root.querySelectorAll('[role="tab"][aria-selected="true"]')].map((tab) => tab.textContent ?? ''),
    shown: [...root.querySelectorAll<HTMLElement>('[role="tabpanel"]')]
      .filter((panel) => !panel.hidden)
      .map((panel) => panel.textContent ?? ''),
  };
}

function tabNamed(root: HTMLElement, label: string): HTMLElement {
  const tab = [...root.querySelectorAll<HTMLElement>('[role="tab"]')].find((each) => each.textContent === label);
  if (!tab) throw new Error(`no tab ${label}`);
  return tab;
}

/** The app's answer: Radix Tabs rendered by React, keys pressed on the focused tab. */
async function pressInApp(setup: Setup, presses: Press[]): Promise<Outcome> {
  const { container } = render(<PageTabs {...setup} />);
  act(() => tabNamed(container, setup.initial).focus());
  for (const press of presses) {
    fireEvent.keyDown(document.activeElement ?? document.body, press);
    // Radix moves focus in a timeout; the focus then selects the tab (automatic activation).
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  }
  const result = outcome(container);
  cleanup();
  return result;
}

/** The page's answer: the prerendered markup, held and answered by the boot's DOM code. */
function pressInPage(setup: Setup, presses: Press[]): Outcome {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = renderToString(<PageTabs {...setup} />);
  document.body.append(root);
  const held = holdInteractions(root);
  tabNamed(root, setup.initial).focus();
  for (const press of presses) {
    const target = document.activeElement ?? document.body;
    target.dispatchEvent(new KeyboardEvent('keydown', { ...press, bubbles: true, cancelable: true }));
  }
  const result = outcome(root);
  held.abandon();
  root.remove();
  return result;
}

const keys = (...names: string[]): Press[] => names.map((key) => ({ key }));

const sequences: [string, Press[]][] = [
  ['right', keys('ArrowRight')],
  ['left', keys('ArrowLeft')],
  ['right twice', keys('ArrowRight', 'ArrowRight')],
  ['left twice', keys('ArrowLeft', 'ArrowLeft')],
  ['right, left', keys('ArrowRight', 'ArrowLeft')],
  ['down', keys('ArrowDown')],
  ['up', keys('ArrowUp')],
  ['down, down, up', keys('ArrowDown', 'ArrowDown', 'ArrowUp')],
  ['End', keys('End')],
  ['Home', keys('Home')],
  ['End, Home', keys('End', 'Home')],
  ['End, left', keys('End', 'ArrowLeft')],
  ['PageDown', keys('PageDown')],
  ['PageUp', keys('PageUp')],
  ['a letter', keys('a')],
  ['shift+right', [{ key: 'ArrowRight', shiftKey: true }]],
  ['ctrl+End', [{ key: 'End', ctrlKey: true }]],
  ['alt+left', [{ key: 'ArrowLeft', altKey: true }]],
  ['meta+right, right', [{ key: 'ArrowRight', metaKey: true }, { key: 'ArrowRight' }]],
];

const setups: [string, Setup][] = [
  ['/auth: Sign In selected', { labels: ['Sign In', 'Sign Up'], initial: 'Sign In' }],
  ['/auth: Sign Up selected', { labels: ['Sign In', 'Sign Up'], initial: 'Sign Up' }],
  ['three tabs, from the middle', { labels: ['One', 'Two', 'Three'], initial: 'Two' }],
  ['four tabs, one disabled', { labels: ['One', 'Two', 'Three', 'Four'], initial: 'One', disabled: ['Three'] }],
  ['three vertical tabs', { labels: ['One', 'Two', 'Three'], initial: 'One', orientation: 'vertical' }],
];

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a tab key answered by the page agrees with Radix Tabs', () => {
  describe.each(setups)('%s', (_name, setup) => {
    it.each(sequences)('%s', async (_sequence, presses) => {
      const app = await pressInApp(setup, presses);
      expect(pressInPage(setup, presses)).toEqual(app);
      // Each side ends with exactly one tab selected, focused, its panel alone shown.
      expect(app.selected).toEqual([app.focused]);
      expect(app.shown).toEqual([`${app.focused} panel`]);
    });
  });

  it('moves between tabs at all (a sequence the two agree on is not a no-op)', async () => {
    const setup = setups[0]![1];
    expect(await pressInApp(setup, keys('ArrowRight'))).toMatchObject({ focused: 'Sign Up' });
    expect(pressInPage(setup, keys('ArrowRight'))).toMatchObject({ focused: 'Sign Up' });
  });
});
