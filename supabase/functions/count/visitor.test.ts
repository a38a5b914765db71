import { describe, expect, it } from 'vitest';
import { deviceOf, isBot, referrerHost, siteOf } from './visitor.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID_PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0';

const req = (headers: Record<string, string>) => new Request('http://function/count', { method: 'POST', headers });

describe('isBot', () => {
  it('takes browsers for people', () => {
    for (const ua of [IPHONE, IPAD, ANDROID_PHONE, ANDROID_TABLET, DESKTOP, MAC_FIREFOX])
      expect(isBot(ua), ua).toBe(false);
  });

  it('knows crawlers, previews, headless browsers, scripts, and no user agent at all', () => {
    for (const ua of [
      null,
      '',
      '  ',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)',
      'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
      'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1',
      'python-requests/2.32.3',
      'curl/8.5.0',
      'Wget/1.21.4',
      'Go-http-client/2.0',
      'node',
      'Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    ]) {
      expect(isBot(ua), String(ua)).toBe(true);
    }
  });
});

describe('deviceOf', () => {
  it('tells phones, tablets and desktops apart', () => {
    expect(deviceOf(IPHONE)).toBe('phone');
    expect(deviceOf(ANDROID_PHONE)).toBe('phone');
    expect(deviceOf(IPAD)).toBe('tablet');
    expect(deviceOf(ANDROID_TABLET)).toBe('tablet');
    expect(deviceOf(DESKTOP)).toBe('desktop');
    expect(deviceOf(MAC_FIREFOX)).toBe('desktop');
    expect(deviceOf('')).toBe('desktop');
  });
});

describe('siteOf and referrerHost', () => {
  it('the site is the Origin host, else SITE_URL’s, lower-cased without www.', () => {
    expect(siteOf(req({ origin: 'https://WWW.YesYouCanBook.com' }), 'https://other.test')).toBe('yesyoucanbook.com');
    expect(siteOf(req({}), 'https://app.yesyoucanbook.com/')).toBe('app.yesyoucanbook.com');
    expect(siteOf(req({ origin: 'null' }), 'http://127.0.0.1:5173')).toBe('127.0.0.1');
    expect(siteOf(req({}), null)).toBe('');
  });

  it('reduces a referrer to its host, and drops the site itself and anything not a web address', () => {
    expect(referrerHost('https://www.YouTube.com/watch?v=1', 'site.test')).toBe('youtube.com');
    expect(referrerHost('http://news.example.org/a', 'site.test')).toBe('news.example.org');
    expect(referrerHost('https://www.site.test/bundles', 'site.test')).toBeNull();
    expect(referrerHost('https://site.test/', 'site.test')).toBeNull();
    expect(referrerHost('android-app://com.google.android.gm/', 'site.test')).toBeNull();
    expect(referrerHost('not a url', 'site.test')).toBeNull();
    expect(referrerHost(null, 'site.test')).toBeNull();
    expect(referrerHost(`https://${'a'.repeat(250)}.test/`, 'site.test')).toBeNull();
  });
});
