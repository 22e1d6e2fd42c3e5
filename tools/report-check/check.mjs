// Opens a wireshape report's index.html in headless Chromium (puppeteer-core driving the
// machine's Chromium), measures the first view, opens the largest lane's cases and one
// case's details the way a person would, and writes screenshots. It fails (exit 1) on a
// script error on the page, a lane that does not load, or a first view slower than the limit.
//
//   npm ci --prefix tools/report-check
//   node tools/report-check/check.mjs REPORT_DIR [OUT_DIR] [--max-first-view-ms N]
//
// CHROMIUM names the browser (default: the first of chromium, chromium-browser,
// google-chrome on PATH). OUT_DIR (default: REPORT_DIR/../report-check) gets index.png
// (the first view), cases.png (the largest lane's cases), case.png (one case opened) and,
// when a case fails, failure.png (the first failing case opened from the failures table).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const args = process.argv.slice(2);
let maxFirstView = 2000;
const at = args.indexOf('--max-first-view-ms');
if (at >= 0) {
  maxFirstView = Number(args[at + 1]);
  args.splice(at, 2);
}
if (args.length < 1 || !Number.isFinite(maxFirstView)) {
  console.error('usage: node check.mjs REPORT_DIR [OUT_DIR] [--max-first-view-ms N]');
  process.exit(2);
}
const report = path.resolve(args[0]);
const out = path.resolve(args[1] ?? path.join(report, '..', 'report-check'));
// OUT_DIR holds this script's screenshots and nothing else: a directory with other
// files in it is refused, never written into.
const SHOTS = ['index.png', 'cases.png', 'case.png', 'failure.png'];
if (existsSync(out)) {
  const other = readdirSync(out).filter((f) => !SHOTS.includes(f));
  if (other.length) {
    console.error(`${out}: holds files this check did not write (${other.slice(0, 3).join(', ')}); name another OUT_DIR`);
    process.exit(2);
  }
}
mkdirSync(out, { recursive: true });

function browserPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // not this one
    }
  }
  console.error('no Chromium found: install one (Debian: apt-get install chromium) or set CHROMIUM');
  process.exit(2);
}

const errors = [];
const browser = await puppeteer.launch({
  executablePath: browserPath(),
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.setViewport({ width: 1400, height: 1000 });

  // The first view: navigation start to the load event (parse, style, layout, inline script).
  const timeout = Math.max(120000, 10 * maxFirstView);
  try {
    await page.goto(pathToFileURL(path.join(report, 'index.html')).href, { waitUntil: 'load', timeout });
  } catch (e) {
    console.error(`index.html did not finish loading within ${timeout} ms: ${e.message}`);
    process.exitCode = 1;
    throw e;
  }
  const first = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { load: nav.loadEventEnd, fcp: fcp ? fcp.startTime : null };
  });
  await page.screenshot({ path: path.join(out, 'index.png') });
  console.log(`first view: load event at ${first.load.toFixed(0)} ms` +
    (first.fcp === null ? '' : `, first contentful paint at ${first.fcp.toFixed(0)} ms`));

  // The largest lane's cases, picked in the lane list and shown.
  const lanes = await page.$$eval('#f-lane option', (os) =>
    os.filter((o) => o.value).map((o) => [o.value, Number((/\((\d+)\)$/.exec(o.textContent) || [])[1])]));
  if (lanes.length === 0) {
    console.log('no divergent or failing case: no lane to open');
  } else {
    const [lane, n] = lanes.reduce((a, b) => (b[1] > a[1] ? b : a));
    const t0 = Date.now();
    await page.select('#f-lane', lane);
    await page.click('#f-go');
    await page.waitForFunction(
      () => !document.getElementById('case-table').hidden &&
        /^\d+ cases/.test(document.getElementById('f-count').textContent),
      { timeout: 30000 },
    );
    const shown = await page.$eval('#f-count', (e) => e.textContent);
    console.log(`lane ${lane} (${n} cases): "${shown}" after ${Date.now() - t0} ms`);
    await page.$eval('#cases', (e) => e.scrollIntoView());
    await page.screenshot({ path: path.join(out, 'cases.png') });
    const t1 = Date.now();
    await page.click('#case-table tbody tr a');
    await page.waitForSelector('#detail .case', { timeout: 10000 });
    console.log(`case details after ${Date.now() - t1} ms`);
    await page.screenshot({ path: path.join(out, 'case.png') });
  }
  // A failing case, opened from the failures table at the top.
  if (await page.$('a[data-open-case]')) {
    await page.$eval('#failures', (e) => e.scrollIntoView());
    const t2 = Date.now();
    await page.click('a[data-open-case]');
    await page.waitForFunction(
      () => {
        const d = document.querySelector('#detail .case h3');
        const a = document.querySelector('a[data-open-case]');
        return d && a && d.textContent.endsWith(a.getAttribute('data-open-case'));
      },
      { timeout: 30000 },
    );
    console.log(`first failing case's details after ${Date.now() - t2} ms`);
    await page.screenshot({ path: path.join(out, 'failure.png') });
  }
  if (first.load > maxFirstView) {
    errors.push(`first view took ${first.load.toFixed(0)} ms, over the ${maxFirstView} ms limit`);
  }
} catch (e) {
  errors.push(e.message);
} finally {
  await browser.close();
}
console.log(`screenshots in ${out}`);
if (errors.length) {
  for (const e of errors) console.error(e);
  process.exit(1);
}
