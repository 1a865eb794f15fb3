import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const url = process.argv[2];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
await page.goto(`${url}/index.html?n=300`);
await page.waitForFunction(() => (window as any).benchReady());
await page.waitForTimeout(1500);
await page.getByLabel('标题文字').click();
await browser.startTracing(page, { path: '/tmp/wtrace.json', categories: ['devtools.timeline', 'v8', 'blink.user_timing', 'disabled-by-default-devtools.timeline'] });
const res: number[] = [];
for (let k = 0; k < 16; k++) {
  await page.evaluate(() => (window as any).benchArm());
  await page.evaluate(() => performance.mark('key' + Date.now()));
  await page.keyboard.press(k % 2 ? 'Backspace' : 'a');
  const t = await page.waitForFunction(() => (window as any).benchResult());
  res.push(Number(await t.jsonValue()));
  await page.waitForTimeout(40);
}
await browser.stopTracing();
console.log(res.map((x) => x.toFixed(1)).join(' '));
const ev = JSON.parse(readFileSync('/tmp/wtrace.json', 'utf8')).traceEvents as any[];
const main = ev.filter((e) => e.ph === 'X' && e.dur > 8000 && ['RunTask','FunctionCall','Layout','UpdateLayoutTree','MajorGC','MinorGC','V8.GC_SCAVENGER','FireAnimationFrame','EventDispatch','TimerFire','Paint','ParseHTML','v8.run', 'ThreadControllerImpl::RunTask'].includes(e.name));
const agg: Record<string, [number, number]> = {};
for (const e of main) { const a = (agg[e.name + ' ' + (e.args?.data?.type ?? e.args?.data?.functionName ?? '')] ??= [0, 0]); a[0]++; a[1] += e.dur / 1000; }
console.log(Object.entries(agg).sort((a, b) => b[1][1] - a[1][1]).slice(0, 25).map(([k, [n, ms]]) => `${k}: ${n} × total ${ms.toFixed(0)}ms`).join('\n'));
await browser.close();
