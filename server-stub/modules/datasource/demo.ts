// Demo data for a fresh install (`npm start` on an empty DATA_DIR): a SQLite demo database registered as a
// data source, and a few system variables, so every page has something to show. Runs once; DEMO_DATA=off skips it.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { SeedContext } from '../../core/module.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import '../variable/index.js';
import './shared.js';

const MARK = 'demo_data_seeded';
const DISTRICTS: [string, number][] = [['朝阳区', 820], ['海淀区', 932], ['东城区', 601], ['西城区', 734], ['丰台区', 1090], ['通州区', 530], ['昌平区', 1320]];

export async function seedDemoData(db: Kysely<Database>, { config }: Pick<SeedContext, 'config'>): Promise<void> {
  if (!config.demoData) return;
  if (await db.selectFrom('sys_setting').select('key').where('key', '=', MARK).executeTakeFirst()) return;

  const dir = path.join(config.dataDir, 'sqlite');
  mkdirSync(dir, { recursive: true });
  const demo = new SQLite(path.join(dir, 'demo.db'));
  demo.exec(`CREATE TABLE IF NOT EXISTS district_sales (id INTEGER PRIMARY KEY, district TEXT NOT NULL, amount INTEGER NOT NULL, day TEXT NOT NULL)`);
  if ((demo.prepare('SELECT count(*) AS n FROM district_sales').get() as { n: number }).n === 0) {
    const insert = demo.prepare('INSERT INTO district_sales (district, amount, day) VALUES (?, ?, ?)');
    demo.transaction(() => {
      for (let d = 1; d <= 7; d++) for (const [name, base] of DISTRICTS) insert.run(name, base + d * 37, `2026-11-0${d}`);
    })();
  }
  demo.close();

  const t = now();
  const exists = await db.selectFrom('gemini_datasource').select('id').where('ds_name', '=', 'demo_sqlite').executeTakeFirst();
  if (!exists) {
    await db
      .insertInto('gemini_datasource')
      .values({ kind: 'datasource', ds_name: 'demo_sqlite', db_type: 'sqlite', host_name: null, port: null, db_name: 'demo.db', properties: null, username: null, pwd: null, max_wait_time: 120, max_active: 20, query_timeout: 300, status: 1, create_time: t, update_time: t })
      .execute();
  }
  const vars: [string, string, string][] = [
    ['APP_ENV', 'dev', '当前运行环境'],
    ['ETL_HOME', '/opt/etl', 'ETL 脚本根目录'],
    ['BACKUP_CRON', '0 2 * * *', '每日备份时间（cron）'],
  ];
  for (const [name, value, desc] of vars) {
    if (await db.selectFrom('sys_variable').select('id').where('variable_name', '=', name).executeTakeFirst()) continue;
    await db.insertInto('sys_variable').values({ variable_name: name, variable_value: value, variable_desc: desc, create_time: t, update_time: t }).execute();
  }
  await db.insertInto('sys_setting').values({ key: MARK, value: t }).execute();
}
