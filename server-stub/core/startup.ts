// Start-up of one instance against its store (DESIGN §8 "Several instances"): migrations, then the modules'
// seeds in one transaction, both by one instance at a time (store.startLock: a PostgreSQL advisory lock), so
// that any number of instances may start at the same moment. The first start of a store writes the first data
// and marks the store; every later start writes only what the shipped defaults changed (SeedContext.shipped),
// so a rolling restart changes nothing other instances answer, and nothing admins changed comes back.
import type { Kysely, Migration } from 'kysely';
import type { Config } from '../config.js';
import { now } from '../store/columns.js';
import { migrate, type Store } from '../store/db.js';
import type { Database } from '../store/schema.js';
import type { SeedContext, ServerModule, Shipped } from './module.js';
import type { LoadedSchemas } from './schemas.js';

/** sys_setting key set when a store's first seed is committed. */
export const SEEDED_MARK = 'store_seeded';
const SHIPPED_PREFIX = 'shipped:';

function shippedIn(db: Kysely<Database>, module: string) {
  return async <T>(name: string, value: T): Promise<Shipped<T>> => {
    const key = `${SHIPPED_PREFIX}${module}:${name}`.slice(0, 64);
    const text = JSON.stringify(value);
    const row = await db.selectFrom('sys_setting').select('value').where('key', '=', key).executeTakeFirst();
    if (row?.value === text) return { changed: false };
    if (row) await db.updateTable('sys_setting').set({ value: text }).where('key', '=', key).execute();
    else await db.insertInto('sys_setting').values({ key, value: text }).execute();
    return { changed: true, before: row ? (JSON.parse(row.value) as T) : null };
  };
}

/** Migrates and seeds the store once per start, as the only instance doing so; answers what the seeds generated. */
export async function prepareStore(store: Store, config: Config, schemas: LoadedSchemas, modules: ServerModule[], platformMigrations: Record<string, Migration> = {}): Promise<Pick<SeedContext, 'generated'>> {
  // the platform services' own tables (core/platform.ts) and every module's
  const migrations: Record<string, Migration> = Object.assign({}, platformMigrations, ...modules.map((m) => m.migrations ?? {}));
  const generated: SeedContext['generated'] = [];
  await store.startLock(async () => {
    await migrate(store.db, migrations, store.dialect === 'postgres' ? config.databaseSchema : undefined);
    await store.db.transaction().execute(async (trx) => {
      const first = !(await trx.selectFrom('sys_setting').select('key').where('key', '=', SEEDED_MARK).executeTakeFirst());
      for (const mod of modules) {
        if (!mod.seed) continue;
        await mod.seed(trx, { config, schemas, generated, first, shipped: shippedIn(trx, mod.name) });
      }
      if (first) await trx.insertInto('sys_setting').values({ key: SEEDED_MARK, value: now() }).execute();
    });
  });
  return { generated };
}
