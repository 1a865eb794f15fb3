// Wiki title filter: keystroke → the tree re-filtered and painted, 2,000 nodes vs 20, in one Chromium,
// alternating rounds, medians. Each key changes what matches ("d", "do", … then back), so every sample
// re-filters the whole tree.
//   npx tsx bench/wiki-tree/run.ts [--rounds 6] [--keys 40]
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { alternateRounds, numArg, printRatio } from '../lib/page';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = numArg('rounds', 6);
const KEYS = numArg('keys', 40);
const SIZES = [20, 2000];
const WORD = 'doc-1';

type W = { benchReady(): boolean; benchArm(): void; benchResult(): number | null };

async function round(page: Page, url: string, n: number): Promise<number[]> {
  await page.goto(`${url}/index.html?n=${n}`);
  await page.waitForFunction(() => (window as unknown as W).benchReady(), null, { timeout: 60_000 });
  await page.getByLabel('搜索标题').click();
  const samples: number[] = [];
  for (let k = 0; k < KEYS; k++) {
    await page.evaluate(() => (window as unknown as W).benchArm());
    // type the word, then delete it, over and over: each key changes the set of matches
    const cycle = k % (WORD.length * 2);
    await page.keyboard.press(cycle < WORD.length ? WORD[cycle] : 'Backspace');
    const t = await page.waitForFunction(() => (window as unknown as W).benchResult(), null, { timeout: 10_000 });
    samples.push(Number(await t.jsonValue()));
    await page.waitForTimeout(30);
  }
  return samples;
}

async function main() {
  const r = await alternateRounds(here, { sizes: SIZES, rounds: ROUNDS, viewport: { width: 1280, height: 900 } }, round);
  printRatio(`wiki title filter: keystroke → tree filtered and painted (Chromium, ${ROUNDS} rounds × ${KEYS} keys per size)`, r, 20, 2000, (n) => `${n} nodes`, 1.5);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
