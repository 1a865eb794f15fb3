// Screen variables (issue 23 "Measure"): a click on a filter → the last bound widget repainted, on a screen of
// 30 widgets of which 10 are bound to the variable, vs a screen of 1 bound widget. Checks each change sends
// exactly the bound widgets' requests and repaints only them. One browser session, alternating rounds, medians.
//   npx tsx bench/variables/run.ts [--rounds 6] [--changes 20]
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { alternateRounds, median, numArg, printRatio } from '../lib/page';
import { VARIABLE_DEBOUNCE_MS } from '../../widgets/data/useWidgetData';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = numArg('rounds', 6);
const CHANGES = numArg('changes', 20);
const SIZES = [1, 30];
const BOUND: Record<number, number> = { 1: 1, 30: 10 };

type Result = { ms: number; calls: string[]; touched: string[] };

async function round(page: Page, url: string, n: number): Promise<number[]> {
  const bound = BOUND[n];
  await page.goto(`${url}/index.html?n=${n}&bound=${bound}`);
  await page.waitForFunction(() => (window as unknown as { benchReady: () => boolean }).benchReady(), null, { timeout: 60_000 });
  await page.waitForTimeout(500);
  const expected = Array.from({ length: bound }, (_, i) => `w${i}`).sort();
  const samples: number[] = [];
  for (let k = 0; k < CHANGES; k++) {
    const region = k % 2 ? 'east' : 'west';
    await page.evaluate(() => (window as unknown as { benchArm: () => void }).benchArm());
    await page.locator('[data-widget="filterButtons"] .ant-radio-button-wrapper', { hasText: region === 'east' ? '东区' : '西区' }).click();
    const handle = await page
      .waitForFunction((r) => (window as unknown as { benchResult: (r: string) => Result | null }).benchResult(r), region, { timeout: 10_000, polling: 5 })
      .catch(async (e: unknown) => {
        const state = await page.evaluate(() => ({ bars: document.querySelectorAll('[data-testid="widget-refetching"]').length, text: document.querySelector('[data-widget-id="w0"]')?.textContent, probe: (window as unknown as { benchProbe: () => unknown }).benchProbe() }));
        throw new Error(`${n} widgets, change ${k}: ${JSON.stringify(state)}`, { cause: e });
      });
    const res = (await handle.jsonValue()) as Result;
    const sentTo = [...res.calls].map((d) => `w${d.slice(3)}`).sort();
    if (JSON.stringify(sentTo) !== JSON.stringify(expected)) throw new Error(`${n} widgets: requests to ${sentTo.join(',')}, expected ${expected.join(',')}`);
    if (JSON.stringify(res.touched) !== JSON.stringify(expected)) throw new Error(`${n} widgets: repainted ${res.touched.join(',')}, expected ${expected.join(',')}`);
    samples.push(res.ms);
    await page.waitForTimeout(300);
  }
  return samples;
}

async function main() {
  const r = await alternateRounds(here, { sizes: SIZES, rounds: ROUNDS, viewport: { width: 1600, height: 1000 }, warmUp: 30 }, round);
  console.log(`each change: exactly the bound widgets' requests (1, 10), only they repainted — checked on all ${ROUNDS * CHANGES} changes per size`);
  const past = (n: number) => median(r.all[n]) - VARIABLE_DEBOUNCE_MS;
  printRatio(`filter click → last bound widget repainted (Chromium, ${ROUNDS} rounds × ${CHANGES} changes; API answers in 40 ms; includes the 150 ms debounce)`, r, 1, 30, (n) => (n === 1 ? '1 widget' : '30 (10 bound)'), 1.5);
  console.log(`  after the ${VARIABLE_DEBOUNCE_MS} ms debounce (fetch + render + paint): 1 widget ${past(1).toFixed(2)} ms, 30 (10 bound) ${past(30).toFixed(2)} ms, ratio ${(past(30) / past(1)).toFixed(2)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
