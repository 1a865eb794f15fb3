import { chromium } from 'playwright-core';
const url = process.argv[2];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
await page.goto(`${url}/index.html?n=${process.argv[3] ?? 300}`);
await page.waitForFunction(() => (window as any).benchReady());
await page.waitForTimeout(1500);
await page.getByLabel('标题文字').click();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
const res: number[] = [];
for (let k = 0; k < 16; k++) {
  await page.evaluate(() => (window as any).benchArm());
  await page.keyboard.press(k % 2 ? 'Backspace' : 'a');
  const t = await page.waitForFunction(() => (window as any).benchResult());
  res.push(Number(await t.jsonValue()));
  await page.waitForTimeout(40);
}
const { profile } = (await cdp.send('Profiler.stop')) as any;
console.log(res.map((x) => x.toFixed(1)).join(' '));
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const self = new Map<number, number>();
const dt = profile.timeDeltas as number[];
profile.samples.forEach((id: number, i: number) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
const agg: Record<string, number> = {};
for (const [id, us] of self) { const n: any = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; agg[k] = (agg[k] ?? 0) + us; }
console.log(Object.entries(agg).sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, us]) => `${(us / 1000).toFixed(1)}ms ${k}`).join('\n'));
await browser.close();
