// Debian's Chromium, headless, driven over CDP by puppeteer-core, as the page tests open the pages
// weft writes: a fresh profile, no network, software WebGL; and a clock the test advances, so a
// page draws the frames the test asks for and no others.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

export const browserPath = process.env.WEFT_CHROMIUM || '/usr/bin/chromium';

export async function launch({ width = 960, height = 600 } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: browserPath,
    headless: true,
    userDataDir: profile,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--allow-file-access-from-files'],
    defaultViewport: { width, height },
  });
  return { browser, close: async () => { await browser.close(); fs.rmSync(profile, { recursive: true, force: true }); } };
}

// Runs in the page before its scripts: requestAnimationFrame queues the callback until the test
// calls weftTestClock.advance(ms), which moves the page's clock on by ms and runs the callbacks
// queued before it with the new time, as one frame. Returns how many callbacks ran.
function installClock() {
  let queued = [];
  let now = performance.now();
  let next = 1;
  window.requestAnimationFrame = (callback) => { queued.push({ id: next, callback }); return next++; };
  window.cancelAnimationFrame = (id) => { queued = queued.filter((q) => q.id !== id); };
  window.weftTestClock = {
    advance(ms) {
      now += ms;
      const frame = queued;
      queued = [];
      for (const q of frame) q.callback(now);
      return frame.length;
    },
  };
}

/// The page at `file`, with every console error, page error, failed request, request beyond the
/// file itself and dialog (alert, confirm, prompt: a name's script ran) listed in `problems`.
export async function open(browser, file) {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`network: ${r.url()}`); });
  page.on('dialog', async (d) => { problems.push(`a dialog opened: ${d.type()} ${d.message()}`); await d.dismiss(); });
  await page.evaluateOnNewDocument(installClock);
  await page.goto('file://' + path.resolve(file), { waitUntil: 'load' });
  return { page, problems };
}

/// Luminance of the page's WebGL canvas (or any canvas/img selector) scaled to w x h cells.
export async function luminance(page, selector = '#weft-canvas', w = 64, h = 40) {
  return page.evaluate((sel, w, h) => {
    const src = document.querySelector(sel);
    const c = document.createElement('canvas');
    c.width = w; c.height = h;
    const ctx = c.getContext('2d');
    ctx.drawImage(src, 0, 0, w, h);
    const d = ctx.getImageData(0, 0, w, h).data;
    const lum = [];
    for (let i = 0; i < d.length; i += 4) lum.push(Math.round(0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]));
    return lum;
  }, selector, w, h);
}
