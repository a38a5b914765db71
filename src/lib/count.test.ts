import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeReference } from './campaign';
import { countEndpoint, countedPage, startCounting } from './count';

const ENDPOINT = 'https://project.supabase.co/functions/v1/count';

/** What the page sent, through a fetch that answers each count as the function does. */
function recordingWindow() {
  const sent: Array<{ url: string; init: RequestInit; body: Record<string, unknown> }> = [];
  const fetch = (url: string, init: RequestInit) => {
    sent.push({ url, init, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    return Promise.resolve(new Response(JSON.stringify({ counted: true }), { status: 202 }));
  };
  const win = Object.create(window, { fetch: { value: fetch } }) as Window;
  return { win, sent };
}

/** Lets the counts' promises settle. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

function setAddress(path: string, referrer = '') {
  window.history.replaceState(null, '', path);
  Object.defineProperty(document, 'referrer', { value: referrer, configurable: true });
}

beforeEach(() => {
  document.body.innerHTML = `
    <a href="https://buy.stripe.com/abc" data-checkout="foundation">Begin</a>
    <a href="https://shop.example.com/ebook" data-needs-app-in-frame="">Buy the ebook</a>
    <button type="button" data-shows="frame" data-hides="play" id="play">Play</button>
    <div id="frame" hidden><div data-frame-src="https://video.example.com/embed"></div></div>
    <button type="button" data-shows="form">Forgot password?</button><div id="form" hidden></div>`;
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => setAddress('/'));

describe('startCounting', () => {
  it('counts the view with the address’s campaign and an outside referrer’s origin, and keeps nothing in the browser', async () => {
    setAddress('/?utm_source=Podcast&utm_medium=audio&utm_campaign=launch', 'https://www.youtube.com/watch?v=1');
    const { win, sent } = recordingWindow();
    startCounting('/', ENDPOINT, win);
    await settled();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(ENDPOINT);
    expect(sent[0]?.init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
    expect(sent[0]?.body).toEqual({
      k: 'view',
      p: '/',
      r: 'https://www.youtube.com',
      s: 'podcast',
      m: 'audio',
      c: 'launch',
    });
    expect([localStorage.length, sessionStorage.length, document.cookie]).toEqual([0, 0, '']);
  });

  it('takes the campaign of the page of this site the visitor came from, and sends no referrer of this site', async () => {
    setAddress('/bundles', `${window.location.origin}/?utm_source=podcast&utm_campaign=launch`);
    const { win, sent } = recordingWindow();
    startCounting('/bundles', ENDPOINT, win);
    await settled();
    expect(sent[0]?.body).toEqual({ k: 'view', p: '/bundles', s: 'podcast', c: 'launch' });
  });

  it('gives a clicked checkout link the visit’s campaign, and counts the click with its bundle', async () => {
    setAddress('/bundles', `${window.location.origin}/?utm_source=podcast&utm_campaign=launch`);
    const { win, sent } = recordingWindow();
    const counter = startCounting('/bundles', ENDPOINT, win);
    await settled();
    const link = document.querySelector('a')!;
    counter.click(link);
    await settled();
    const href = new URL(link.href);
    expect(decodeReference(href.searchParams.get('client_reference_id') ?? '')).toEqual({
      source: 'podcast',
      medium: null,
      campaign: 'launch',
      referrer: null,
    });
    expect(href.searchParams.get('utm_source')).toBe('podcast');
    expect(sent.map((count) => count.body.k)).toEqual(['view', 'checkout']);
    expect(sent[1]?.body).toMatchObject({ k: 'checkout', p: '/bundles', b: 'foundation' });
  });

  it('leaves a checkout link as it is for a visit with no campaign, counts the ebook’s purchase link and the video’s Play, not other swaps', async () => {
    setAddress('/');
    const { win, sent } = recordingWindow();
    const counter = startCounting('/', ENDPOINT, win);
    await settled();
    counter.click(document.querySelector('a')!);
    counter.click(document.querySelectorAll('a')[1]!);
    counter.click(document.querySelector('#play')!);
    counter.click(document.querySelector('[data-shows="form"]')!);
    await settled();
    expect(document.querySelector('a')!.href).toBe('https://buy.stripe.com/abc');
    expect(sent.map((count) => [count.body.k, count.body.b])).toEqual([
      ['view', undefined],
      ['checkout', 'foundation'],
      ['checkout', 'ebook'],
      ['play', undefined],
    ]);
  });

  it('counts a return from the checkout on /upgrade reached from outside the site, not from within it', async () => {
    setAddress('/upgrade', 'https://checkout.stripe.com/');
    const outside = recordingWindow();
    startCounting('/upgrade', ENDPOINT, outside.win);
    await settled();
    expect(outside.sent.map((count) => count.body.k)).toEqual(['view', 'return']);

    setAddress('/upgrade', `${window.location.origin}/bundles`);
    const inside = recordingWindow();
    startCounting('/upgrade', ENDPOINT, inside.win);
    await settled();
    expect(inside.sent.map((count) => count.body.k)).toEqual(['view']);
  });

  it('keeps the page working when the count fails', async () => {
    setAddress('/?utm_campaign=launch');
    const win = Object.create(window, { fetch: { value: () => Promise.reject(new TypeError('offline')) } }) as Window;
    const counter = startCounting('/', ENDPOINT, win);
    await settled();
    counter.click(document.querySelector('a')!);
    expect(new URL(document.querySelector('a')!.href).searchParams.get('utm_campaign')).toBe('launch');
  });
});

describe('countedPage and countEndpoint', () => {
  it('names the counted pages, with or without a trailing slash, and nothing else', () => {
    expect(countedPage('/')).toBe('/');
    expect(countedPage('/bundles/')).toBe('/bundles');
    expect(countedPage('/auth')).toBe('/auth');
    expect(countedPage('/resources')).toBeNull();
    expect(countedPage('/auth/confirm')).toBeNull();
  });

  it('is the functions address of the project, or null without one', () => {
    expect(countEndpoint('https://project.supabase.co/')).toBe(ENDPOINT);
    expect(countEndpoint(undefined)).toBeNull();
    expect(countEndpoint('not a url')).toBeNull();
  });
});
