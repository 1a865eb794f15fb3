// What the screen tests read from a preview: a chart's bars as drawn and a table widget's rows.
import type { Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import { must, signIn } from './calls';

/**
 * The bars of a chart as drawn (runs of the bar colour `hex` across a line near the plot's bottom), left to right,
 * in page pixels.
 */
export function barsOf(page: Page, widgetId: string, hex: string): Promise<Array<{ x: number; y: number }>> {
  return page
    .locator(`[data-widget-id="${widgetId}"] canvas`)
    .first()
    .evaluate((canvas: HTMLCanvasElement, hex: string) => {
      const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const ctx = canvas.getContext('2d')!;
      const row = Math.round(canvas.height * 0.85);
      const px = ctx.getImageData(0, row, canvas.width, 1).data;
      const runs: Array<[number, number]> = [];
      for (let x = 0; x < canvas.width; x++) {
        const on = want.every((c, k) => Math.abs(px[x * 4 + k] - c) < 12) && px[x * 4 + 3] > 240;
        const last = runs.at(-1);
        if (on && last && last[1] === x - 1) last[1] = x;
        else if (on) runs.push([x, x]);
      }
      const r = canvas.getBoundingClientRect();
      const sx = r.width / canvas.width;
      const sy = r.height / canvas.height;
      return runs.filter(([a, b]) => b - a > 4).map(([a, b]) => ({ x: r.left + ((a + b) / 2) * sx, y: r.top + row * sy }));
    }, hex);
}

/** A table widget's rows as text (the header row left out). */
export const widgetRows = (page: Page, widgetId: string) =>
  page.locator(`[data-widget-id="${widgetId}"] [role="row"]`).evaluateAll((rows) => rows.slice(1).map((r) => (r.textContent ?? '').trim()));

/**
 * The sales table the dataset screens chart (6 rows: 浙江 杭州 ×2 and 宁波, 江苏 南京 and 苏州, 广东 广州, three months), in a
 * SQLite file of the e2e server's data folder, registered by the administrator as the data source `file`; answers its id.
 */
export async function salesSource(file: string): Promise<number> {
  const dir = join(inject('dataDir'), 'sqlite');
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, `${file}.db`));
  db.exec(`CREATE TABLE sales (id INTEGER PRIMARY KEY, province TEXT, city TEXT, sold_on DATE, amount NUMERIC);
    INSERT INTO sales(province, city, sold_on, amount) VALUES ('浙江','杭州','2026-01-05',100),('浙江','杭州','2026-02-01',80),('浙江','宁波','2026-01-09',60),
      ('江苏','南京','2026-01-03',90),('江苏','苏州','2026-03-02',70),('广东','广州','2026-02-11',50);`);
  db.close();
  const admin = await signIn('admin', inject('adminPassword'));
  return must('/api/gemini/datasource/info/save', { dsName: file, dbType: 'sqlite', dbName: `${file}.db` }, admin);
}

