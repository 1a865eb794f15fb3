// Property-panel latency: keystroke in the selected widget's panel → that widget's DOM
// update, with 300 widgets mounted vs 1. One browser session, alternating rounds, medians.
//   npx tsx bench/panel/run.ts [--rounds 6] [--keys 40]
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { alternateRounds, numArg, printRatio } from '../lib/page';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = numArg('rounds', 6);
const KEYS = numArg('keys', 40);
const SIZES = [1, 300];
const ONLY = process.argv.includes('--only') ? `&only=${process.argv[process.argv.indexOf('--only') + 1]}` : '';




async function round(page: Page, url: string, n: number): Promise<number[]> {
  await page.goto(`${url}/index.html?n=${n}${ONLY}`);
  await page.waitForFunction(() => (window as unknown as { benchReady: () => boolean }).benchReady(), null, { timeout: 60_000 });
  await page.waitForTimeout(1500); // let charts finish their first animation
  const input = page.getByLabel('标题文字');
  await input.click();
  await page.keyboard.press('End');
  const samples: number[] = [];
  for (let k = 0; k < KEYS; k++) {
    await page.evaluate(() => (window as unknown as { benchArm: () => void }).benchArm());
    // Alternate typing and deleting so the text stays short and valid.
    await page.keyboard.press(k % 2 ? 'Backspace' : 'a');
    const t = await page.waitForFunction(() => (window as unknown as { benchResult: () => number | null }).benchResult(), null, { timeout: 10_000 });
    samples.push(Number(await t.jsonValue()));
    if (process.env.BENCH_SPLIT) console.log(n, await page.evaluate(() => (window as unknown as { benchSplit: () => unknown }).benchSplit()));
    await page.waitForTimeout(40);
  }
  return samples;
}

async function main() {
  const r = await alternateRounds(here, { sizes: SIZES, rounds: ROUNDS, viewport: { width: 1600, height: 1000 }, warmUp: 1 }, round);
  printRatio(`keystroke → selected widget re-render (Chromium, ${ROUNDS} rounds × ${KEYS} keys per size)`, r, 1, 300, (n) => `${n} widget${n > 1 ? 's' : ''}`, 1.2);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
