// @ts-check
// Renders public/yes-you-can-cover.webp, the ebook cover the pages show, from its source
// public/yes-you-can-cover.svg. Run once after changing the SVG, and commit the WebP:
//   node scripts/build/render-cover.mjs
// Drawn by Chromium at 320x480 (twice the phone size of 160 CSS px; 1.5 times the widest, 208)
// and encoded by its canvas, so no image tool is needed beyond the browser the tests use.
// Quality 0.6 keeps it at 8 kB: every image on `/` stays under 10 kB (e2e/a11y.spec.ts).
/* global Image, document -- the function passed to page.evaluate runs in the browser */
import { chromium } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium, launchOptions } from '../dev/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const svg = readFileSync(path.join(root, 'public/yes-you-can-cover.svg'), 'utf8');
const output = path.join(root, 'public/yes-you-can-cover.webp');
const WIDTH = 320;
const HEIGHT = 480;
const QUALITY = 0.6;

const browser = await chromium.launch(launchOptions(findChromium()));
try {
  const page = await browser.newPage();
  const dataUrl = await page.evaluate(
    async ({ svg, width, height, quality }) => {
      const image = new Image();
      image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2D canvas');
      context.drawImage(image, 0, 0, width, height);
      return canvas.toDataURL('image/webp', quality);
    },
    { svg, width: WIDTH, height: HEIGHT, quality: QUALITY },
  );
  if (!dataUrl.startsWith('data:image/webp;base64,')) throw new Error('this Chromium cannot encode WebP');
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  writeFileSync(output, bytes);
  console.log(`wrote ${path.relative(root, output)} (${WIDTH}x${HEIGHT}, ${(bytes.length / 1000).toFixed(1)} kB)`);
} finally {
  await browser.close();
}
