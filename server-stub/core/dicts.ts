// The `dicts` platform service (core/platform.ts, app.dicts; issue 21 item 4 字典管理): the dictionaries live in
// the platform store (sys_dict_type, sys_dict_data: a tree dictionary's children by parent_id), seeded from
// schemas/dicts on a store's first start and afterwards with only what the shipped files changed since the store
// last recorded them (the dict module's seed, SeedContext.shipped), so an admin's edits survive restarts and a
// restart with the same files writes nothing. The files stay the shipped defaults: 重置 writes a type's file
// back, and a type that ships in a file cannot be deleted nor change its value type.
//
// Reading: app.dicts.current() answers every dictionary as the store holds it, in the files' shape
// ({ type, name, valueType, items: [{ value, label, dictStyle?, children? }] }, numbers for number types), from
// a copy held per instance and checked against a version in the cache (app.ctx.cache: shared through Redis with
// REDIS_URL). Every write calls changed(), which sets a new version, so every instance reloads on its next read.
// A reader that loaded before a write stores its copy under the old version, which nobody asks for again.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Cache } from './cache.js';
import { declareTable, type TableRow, timestamps } from './tables.js';
import { now } from '../store/columns.js';
import type { Database } from '../store/schema.js';

export const dictTypes = declareTable({
  name: 'sys_dict_type',
  migration: '20261129_30_sys_dict_type',
  columns: {
    id: { type: 'id' },
    /** the type's key, as pages name it (x-dict, dict): ^[A-Z][A-Z0-9_]{1,63}$ */
    dictType: { type: 'varchar(64)', notNull: true },
    dictName: { type: 'varchar(100)', notNull: true },
    /** 'string' or 'number': how the entries' values are answered */
    valueType: { type: 'varchar(10)', notNull: true },
    remark: { type: 'varchar(500)' },
    ...timestamps,
  },
  indexes: [{ name: 'ux_sys_dict_type_type', columns: ['dictType'], unique: true }],
  duplicate: (rec) => `字典类型【${rec.dictType}】已存在`,
});

export const dictEntries = declareTable({
  name: 'sys_dict_data',
  migration: '20261129_31_sys_dict_data',
  columns: {
    id: { type: 'id' },
    dictType: { type: 'varchar(64)', notNull: true },
    /** the parent entry's id (a tree dictionary's child), null at the top */
    parentId: { type: 'integer' },
    /** the value as text; a number type's is the number's canonical text (answered as `value`) */
    dictValue: { type: 'varchar(100)', notNull: true },
    /** answered as `label` */
    dictLabel: { type: 'varchar(100)', notNull: true },
    /** the tag's colour: success, processing, error, warning, default or #rrggbb (answered as `dictStyle`) */
    tagStyle: { type: 'varchar(20)' },
    orderNum: { type: 'integer', notNull: true, default: 0 },
    ...timestamps,
  },
  indexes: [
    { name: 'ux_sys_dict_data_value', columns: ['dictType', 'dictValue'], unique: true },
    { name: 'ix_sys_dict_data_parent', columns: ['parentId'] },
  ],
  duplicate: (rec) => `字典值【${rec.dictValue}】已存在`,
});
declare module '../store/schema.js' {
  interface Database {
    sys_dict_type: TableRow<typeof dictTypes>;
    sys_dict_data: TableRow<typeof dictEntries>;
  }
}

/** The store's migrations of the dictionaries (app.ts runs them with the modules'). */
export const dictMigrations = { ...dictTypes.migrations, ...dictEntries.migrations };

export type DictValueType = 'string' | 'number';

/** One entry as answered (key order as in the files: value, label, dictStyle, children). */
export interface DictEntry {
  value: string | number;
  label: string;
  dictStyle?: string;
  children?: DictEntry[];
}

export interface Dictionary {
  type: string;
  name: string;
  valueType: DictValueType;
  items: DictEntry[];
}

/** Dictionaries by type. */
export type DictMap = Record<string, Dictionary>;

/** A type key: capital letter first, capitals, digits and underscores, 2–64 characters. */
export const DICT_TYPE_PATTERN = '^[A-Z][A-Z0-9_]{1,63}$';
/** A tag colour: one of antd's status colours or #rrggbb. */
export const DICT_STYLE_PATTERN = '^(success|processing|error|warning|default|#[0-9a-fA-F]{6})$';

/** The shipped files (schemas/dicts, as loaded) in the store's shape: what a seed compares and a reset writes. */
export function shippedDicts(files: Record<string, any>): DictMap {
  const entry = (e: any): DictEntry => ({
    value: e.value,
    label: e.label,
    ...(e.dictStyle !== undefined ? { dictStyle: e.dictStyle } : {}),
    ...(Array.isArray(e.children) && e.children.length ? { children: e.children.map(entry) } : {}),
  });
  const out: DictMap = {};
  for (const [type, d] of Object.entries(files)) out[type] = { type, name: d.name, valueType: d.valueType === 'number' ? 'number' : 'string', items: (d.items ?? []).map(entry) };
  return out;
}

/** A stored value's text as answered for its type. */
export function typedValue(text: string, valueType: string): string | number {
  return valueType === 'number' ? Number(text) : text;
}

/* ------------------------------------------------------------------ reading */

/** Every dictionary as the store holds it (entries by order, then id; children under their parent). */
export async function loadDicts(db: Kysely<Database>): Promise<DictMap> {
  const types = await db.selectFrom('sys_dict_type').selectAll().orderBy('id').execute();
  const rows = await db.selectFrom('sys_dict_data').selectAll().orderBy('order_num').orderBy('id').execute();
  const out: DictMap = {};
  for (const t of types) out[t.dict_type] = { type: t.dict_type, name: t.dict_name, valueType: t.value_type === 'number' ? 'number' : 'string', items: [] };
  const nodes = new Map<number, { entry: DictEntry; row: (typeof rows)[number] }>();
  for (const r of rows) {
    const d = out[r.dict_type];
    if (!d) continue;
    nodes.set(r.id, { entry: { value: typedValue(r.dict_value, d.valueType), label: r.dict_label, ...(r.tag_style ? { dictStyle: r.tag_style } : {}) }, row: r });
  }
  for (const { entry, row } of nodes.values()) {
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
    if (row.parent_id && (!parent || parent.row.dict_type !== row.dict_type)) continue; // an orphan is not answered
    if (parent) (parent.entry.children ??= []).push(entry);
    else out[row.dict_type]!.items.push(entry);
  }
  return out;
}

/* ------------------------------------------------------------------ writing the shipped defaults */

async function insertEntries(db: Kysely<Database>, type: string, items: DictEntry[], parentId: number | null, time: string): Promise<void> {
  for (const [i, e] of items.entries()) {
    const r = await db
      .insertInto('sys_dict_data')
      .values({ dict_type: type, parent_id: parentId, dict_value: String(e.value), dict_label: e.label, tag_style: e.dictStyle ?? null, order_num: i, create_time: time, update_time: time })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (e.children?.length) await insertEntries(db, type, e.children, r.id, time);
  }
}

/** Makes one type exactly what `d` says: its name and value type, and its entries (all others of it deleted). */
export async function writeDict(db: Kysely<Database>, d: Dictionary): Promise<void> {
  const time = now();
  const found = await db.selectFrom('sys_dict_type').select('id').where('dict_type', '=', d.type).executeTakeFirst();
  if (found) await db.updateTable('sys_dict_type').set({ dict_name: d.name, value_type: d.valueType, update_time: time }).where('id', '=', found.id).execute();
  else await db.insertInto('sys_dict_type').values({ dict_type: d.type, dict_name: d.name, value_type: d.valueType, create_time: time, update_time: time }).execute();
  await db.deleteFrom('sys_dict_data').where('dict_type', '=', d.type).execute();
  await insertEntries(db, d.type, d.items, null, time);
}

interface FlatShipped {
  parent: string | null;
  order: number;
  sig: string;
  entry: DictEntry;
}

function flatten(items: DictEntry[]): Map<string, FlatShipped> {
  const out = new Map<string, FlatShipped>();
  const walk = (list: DictEntry[], parent: string | null) => {
    for (const [order, e] of list.entries()) {
      const key = String(e.value);
      out.set(key, { parent, order, entry: e, sig: JSON.stringify([parent, order, e.label, e.dictStyle ?? null]) });
      if (e.children) walk(e.children, key);
    }
  };
  walk(items, null);
  return out;
}

/**
 * The shipped dictionaries into the store: every type the store lacks when it never recorded what was shipped
 * (`before` null); afterwards only what the files changed since: a new type is added, a changed type's name and
 * value type follow the file, an entry added, changed (label, colour, place) or dropped by the file is added,
 * updated or deleted; every other entry — an admin's edits and additions — stays. A type a file no longer ships
 * stays as the admin's own (it may then be deleted).
 */
export async function applyShippedDicts(db: Kysely<Database>, shipped: DictMap, before: DictMap | null): Promise<void> {
  const stored = new Set((await db.selectFrom('sys_dict_type').select('dict_type').execute()).map((r) => r.dict_type));
  for (const d of Object.values(shipped)) {
    const old = before?.[d.type];
    if (!stored.has(d.type)) {
      await writeDict(db, d); // new to this store
      continue;
    }
    if (!old || JSON.stringify(old) === JSON.stringify(d)) continue;
    const time = now();
    if (old.name !== d.name || old.valueType !== d.valueType) {
      await db.updateTable('sys_dict_type').set({ dict_name: d.name, value_type: d.valueType, update_time: time }).where('dict_type', '=', d.type).execute();
    }
    const was = flatten(old.items);
    const is = flatten(d.items);
    const idOf = async (value: string) => (await db.selectFrom('sys_dict_data').select('id').where('dict_type', '=', d.type).where('dict_value', '=', value).executeTakeFirst())?.id;
    for (const [value, e] of is) {
      if (was.get(value)?.sig === e.sig) continue;
      const parentId = e.parent === null ? null : ((await idOf(e.parent)) ?? null);
      const row = { parent_id: parentId, dict_label: e.entry.label, tag_style: e.entry.dictStyle ?? null, order_num: e.order, update_time: time };
      const id = await idOf(value);
      if (id) await db.updateTable('sys_dict_data').set(row).where('id', '=', id).execute();
      else await db.insertInto('sys_dict_data').values({ ...row, dict_type: d.type, dict_value: value, create_time: time }).execute();
    }
    for (const value of was.keys()) {
      if (is.has(value)) continue;
      const id = await idOf(value);
      if (id) await deleteEntryTree(db, id);
    }
  }
}

/** Deletes an entry and every entry below it. */
export async function deleteEntryTree(db: Kysely<Database>, id: number): Promise<number> {
  let ids = [id];
  let count = 0;
  for (let depth = 0; ids.length && depth < 64; depth++) {
    const below = await db.selectFrom('sys_dict_data').select('id').where('parent_id', 'in', ids).execute();
    const r = await db.deleteFrom('sys_dict_data').where('id', 'in', ids).executeTakeFirst();
    count += Number(r.numDeletedRows ?? 0);
    ids = below.map((b) => b.id);
  }
  return count;
}

/* ------------------------------------------------------------------ the service */

/** The `dicts` platform service. */
export interface DictsService {
  /** Every dictionary as the store holds it now (the same copy until a change; do not modify it). */
  current(): Promise<DictMap>;
  /** One dictionary's entries ([] for a type that does not exist). */
  items(type: string): Promise<DictEntry[]>;
  /** After any write to the dictionaries: every instance reads the store again on its next read. */
  changed(): Promise<void>;
  /** The shipped files in the store's shape (the defaults a reset writes back). */
  readonly shipped: Readonly<DictMap>;
}

const VERSION_KEY = 'dicts:version';
const dataKey = (version: string) => `dicts:data:${version}`;
/** A copy in the cache lives this long without a read or a change (only for a version nobody changed since). */
const DATA_TTL_SECONDS = 3600;

/** `files`: the loaded schemas/dicts, read on first use. */
export function dictsService(db: Kysely<Database>, cache: Cache, files: () => Record<string, any>, log: Logger): DictsService {
  let shipped: DictMap | undefined;
  let held: { version: string; map: DictMap } | undefined;
  const fromStore = async (version: string) => {
    const map = await loadDicts(db);
    await cache.set(dataKey(version), map, DATA_TTL_SECONDS);
    return map;
  };
  const current = async (): Promise<DictMap> => {
    try {
      let version = await cache.get<string>(VERSION_KEY);
      if (!version) {
        version = randomUUID();
        await cache.set(VERSION_KEY, version);
      }
      if (held?.version === version) return held.map;
      const map = (await cache.get<DictMap>(dataKey(version))) ?? (await fromStore(version));
      held = { version, map };
      return map;
    } catch (err) {
      // the shared cache does not answer: the store still does
      log.warn({ err: String(err) }, 'dictionary cache unavailable, read from the store');
      return loadDicts(db);
    }
  };
  return {
    current,
    async items(type) {
      const map = await current();
      return Object.hasOwn(map, type) ? map[type]!.items : [];
    },
    async changed() {
      held = undefined;
      try {
        await cache.set(VERSION_KEY, randomUUID());
      } catch (err) {
        log.error({ err: String(err) }, 'dictionary change not announced: the shared cache does not answer');
      }
    },
    get shipped() {
      return (shipped ??= shippedDicts(files()));
    },
  };
}
