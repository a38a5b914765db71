// @ts-check
// Renders public/og-image.png, the 1200x630 picture a shared link to the site shows (Open
// Graph, Twitter card). Run once after changing the copy or the cover, and commit the PNG:
//   node scripts/build/render-share-image.mjs
// Drawn as HTML with the site's palette and the ebook cover, screenshotted in Chromium.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium, launchOptions } from '../dev/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cover = readFileSync(path.join(root, 'public/yes-you-can-cover.svg'), 'utf8');
const output = path.join(root, 'public/og-image.png');

const html = `<!doctype html>
<html><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; }
  body { width: 1200px; height: 630px; overflow: hidden; font-family: Georgia, Cambria, 'Times New Roman', serif;
    background: linear-gradient(160deg, #223a6b 0%, #111e38 70%); color: #fdf9f0;
    display: flex; align-items: center; gap: 64px; padding: 0 80px; }
  .text { flex: 1; }
  .eyebrow { font-family: system-ui, sans-serif; font-weight: 600; letter-spacing: .12em; text-transform: uppercase;
    color: #f5d77a; font-size: 26px; }
  h1 { color: #f5d77a; font-size: 104px; line-height: 1.05; margin-top: 18px; }
  .tagline { font-size: 40px; line-height: 1.25; margin-top: 24px; }
  .price { display: inline-block; margin-top: 36px; background: #f0c64a; color: #111e38; border-radius: 14px;
    padding: 14px 28px; font-family: system-ui, sans-serif; font-weight: 700; font-size: 30px; }
  .cover svg { width: 300px; height: 450px; border-radius: 10px; box-shadow: 0 24px 60px rgba(0,0,0,.45); display: block; }
</style></head><body>
  <div class="text">
    <p class="eyebrow">For first-time Christian writers</p>
    <h1>Yes, You Can!</h1>
    <p class="tagline">Overcome fear, silence your inner critic and finish your book in 90 days.</p>
    <p class="price">Start today</p>
  </div>
  <div class="cover">${cover}</div>
</body></html>`;

const browser = await chromium.launch(launchOptions(findChromium()));
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.screenshot({ path: output, type: 'png' });
  console.log(`wrote ${path.relative(root, output)}`);
} finally {
  await browser.close();
}
