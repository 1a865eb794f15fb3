// Property-panel latency: keystroke in the selected widget's panel → that widget's DOM
// update, with 300 widgets mounted vs 1. One browser session, alternating rounds, medians.
//   npx tsx bench/panel/run.ts [--rounds 6] [--keys 40]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { alternateRounds, median } from '../lib/page';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROUNDS = arg('rounds', 6);
const KEYS = arg('keys', 40);
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
  const out = mkdtempSync(join(tmpdir(), 'bench-panel-'));
  try {
    const { all, perRound } = await alternateRounds(here, out, { sizes: SIZES, rounds: ROUNDS, viewport: { width: 1600, height: 1000 }, warmUp: 1 }, round);
    const m1 = median(all[1]);
    const m300 = median(all[300]);
    console.log(`keystroke → selected widget re-render (Chromium, ${ROUNDS} rounds × ${KEYS} keys per size)`);
    console.log(`  1 widget   : median ${m1.toFixed(2)} ms  (round medians ${perRound[1].map((x) => x.toFixed(2)).join(', ')})`);
    console.log(`  300 widgets: median ${m300.toFixed(2)} ms  (round medians ${perRound[300].map((x) => x.toFixed(2)).join(', ')})`);
    console.log(`  ratio 300/1: ${(m300 / m1).toFixed(2)} (target ≤ 1.2)`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
