#!/usr/bin/env node
// Renders the app's icons (web/pwa/*.svg) to the PNGs of the web app manifest (web/public/icons/), in Chromium.
// Run after changing an SVG: `node scripts/generate-icons.mjs`; the PNGs are committed (decision 023).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'web/public/icons');
const icons = [
  { svg: 'icon.svg', file: 'icon-192.png', size: 192 },
  { svg: 'icon.svg', file: 'icon-512.png', size: 512 },
  { svg: 'icon-maskable.svg', file: 'icon-maskable-512.png', size: 512 },
  { svg: 'icon.svg', file: 'apple-touch-icon.png', size: 180 },
];

fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (const icon of icons) {
    const svg = fs.readFileSync(path.join(root, 'web/pwa', icon.svg), 'utf8');
    await page.setViewportSize({ width: icon.size, height: icon.size });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `)}</body></html>`);
    await page.screenshot({ path: path.join(out, icon.file), omitBackground: true, clip: { x: 0, y: 0, width: icon.size, height: icon.size } });
    console.log(`${icon.file} (${icon.size}×${icon.size})`);
  }
} finally {
  await browser.close();
}
