// 回收站 (issue 37 item 2): a deleted page, screen, form, dataset or API design is not gone. Its module marks it
// deleted (its rows stay where they are, out of every list and call) and puts an entry in sys_recycle: who deleted
// it, when, and what it took along (its menu entries with their role grants, its records) as the module described
// them. 还原 gives it back through its module (a menu entry whose parent is gone goes to the top level, and says
// so); 彻底删除 and the daily sweep after RECYCLE_DAYS delete it for good through the module. Admins see every entry,
// others what they deleted themselves, and only of kinds they may delete.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import { likePattern } from './declarations.js';
import { BizError } from './envelope.js';
import { hasPermission } from './permissions.js';
import { declareTable, type TableRow } from './tables.js';
import { now } from '../store/columns.js';
import type { Database } from '../store/schema.js';

export const recycleTable = declareTable({
  name: 'sys_recycle',
  migration: '20261206_02_sys_recycle',
  columns: {
    id: { type: 'id' },
    kind: { type: 'varchar(20)', notNull: true },
    itemKey: { type: 'varchar(100)', notNull: true },
    title: { type: 'varchar(200)', notNull: true },
    /** what the item took along, in words (JSON list) */
    took: { type: 'text', notNull: true, default: '[]' },
    /** what the module needs to put it back (JSON: its menu snapshot…) */
    payload: { type: 'text', notNull: true, default: '{}' },
    deleteUser: { type: 'varchar(100)' },
    deleteTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ix_sys_recycle_item', columns: ['kind', 'itemKey'] }],
});

declare module '../store/schema.js' {
  interface Database {
    sys_recycle: TableRow<typeof recycleTable>;
  }
}

export const recycleMigrations = { ...recycleTable.migrations };

export type RecycleKind = 'page' | 'screen' | 'form' | 'dataset' | 'api';
export const RECYCLE_KIND_LABELS: Record<RecycleKind, string> = { page: '页面', screen: '大屏', form: '表单', dataset: '数据集', api: 'API 设计' };

/** What the module owning a kind does for the bin. */
export interface RecycleKindDef {
  kind: RecycleKind;
  /** the permission to delete such items: needed to see, restore and purge them in the bin */
  perm: string;
  /** gives the item back (its deleted mark cleared, what it took put back); answers notes to tell the user */
  restore(key: string, payload: any, req: FastifyRequest | null): Promise<string[]>;
  /** deletes it for good (and what it took) */
  purge(key: string, payload: any): Promise<void>;
}

export interface RecycleEntry {
  id: number;
  kind: RecycleKind;
  kindLabel: string;
  itemKey: string;
  title: string;
  took: string[];
  deleteUser: string | null;
  deleteTime: string;
  /** when the sweep deletes it for good */
  expireTime: string;
}

export interface RecycleService {
  register(def: RecycleKindDef): void;
  /** Records an item just marked deleted (in `db`: the delete's own transaction when given). */
  put(kind: RecycleKind, key: string | number, title: string, took: string[], payload: unknown, req: FastifyRequest, db?: Kysely<Database>): Promise<void>;
  list(req: FastifyRequest, q: { search?: string | null; kind?: string | null; pageNum?: number; pageSize?: number }): Promise<{ records: RecycleEntry[]; total: number }>;
  restore(id: number, req: FastifyRequest): Promise<string[]>;
  purge(id: number, req: FastifyRequest): Promise<void>;
  /** Deletes for good what has been in the bin longer than RECYCLE_DAYS; answers how many. */
  sweep(): Promise<number>;
}

/** The permission that shows every user's deletions (sys_admin holds every permission). */
export const RECYCLE_ALL = 'system:recycle:all';

const DAY_MS = 24 * 60 * 60_000;
const pad = (n: number) => String(n).padStart(2, '0');
const timeText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

export function recycleService(app: FastifyInstance, days: number): RecycleService {
  const { db } = app.ctx;
  const kinds = new Map<string, RecycleKindDef>();
  const may = (req: FastifyRequest, perm: string) => !app.ctx.config.permissionSwitch || hasPermission(req.user?.permissions ?? [], perm);
  const expire = (deleted: string) => timeText(new Date(new Date(deleted.replace(' ', 'T')).getTime() + days * DAY_MS));
  const present = (r: Selectable<Database['sys_recycle']>): RecycleEntry => ({
    id: Number(r.id),
    kind: r.kind as RecycleKind,
    kindLabel: RECYCLE_KIND_LABELS[r.kind as RecycleKind] ?? r.kind,
    itemKey: r.item_key,
    title: r.title,
    took: JSON.parse(r.took ?? '[]') as string[],
    deleteUser: r.delete_user,
    deleteTime: r.delete_time,
    expireTime: expire(r.delete_time),
  });
  /** An entry the caller may act on: of a kind they may delete, theirs unless they see all. */
  const entryFor = async (id: number, req: FastifyRequest) => {
    const r = await db.selectFrom('sys_recycle').selectAll().where('id', '=', id).executeTakeFirst();
    const def = r ? kinds.get(r.kind) : undefined;
    if (!r || !def || !may(req, def.perm) || (!may(req, RECYCLE_ALL) && r.delete_user !== req.user?.username)) throw new BizError('回收站中没有该项');
    return { r, def };
  };
  const purgeRow = async (r: { id: number; kind: string; item_key: string; payload: string }) => {
    const def = kinds.get(r.kind);
    // a kind no module answers for now stays in the bin (its item stays marked, never half gone)
    if (!def) return false;
    await def.purge(r.item_key, JSON.parse(r.payload ?? '{}'));
    // its history goes with it: a later item under the same key starts its own
    await db.deleteFrom('sys_version').where('kind', '=', r.kind).where('item_key', '=', r.item_key).execute();
    await db.deleteFrom('sys_recycle').where('id', '=', r.id).execute();
    return true;
  };

  return {
    register(def) {
      kinds.set(def.kind, def);
    },
    async put(kind, key, title, took, payload, req, on = db) {
      await on
        .insertInto('sys_recycle')
        .values({ kind, item_key: String(key), title: title.slice(0, 200), took: JSON.stringify(took), payload: JSON.stringify(payload ?? {}), delete_user: req.user?.username ?? null, delete_time: now() })
        .execute();
    },
    async list(req, q) {
      const visible = [...kinds.values()].filter((k) => may(req, k.perm)).map((k) => k.kind);
      if (!visible.length) return { records: [], total: 0 };
      let b = db.selectFrom('sys_recycle').where('kind', 'in', visible);
      if (!may(req, RECYCLE_ALL)) b = b.where('delete_user', '=', req.user?.username ?? '');
      if (q.kind) b = b.where('kind', '=', q.kind);
      const text = typeof q.search === 'string' ? q.search.trim().toLowerCase() : '';
      if (text) b = b.where(sql<boolean>`lower(title) like ${likePattern(text)} escape '\\'`);
      const total = Number((await b.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const size = Math.min(100, Math.max(1, q.pageSize ?? 10));
      const rows = await b
        .selectAll()
        .orderBy('id', 'desc')
        .limit(size)
        .offset((Math.max(1, q.pageNum ?? 1) - 1) * size)
        .execute();
      return { records: rows.map(present), total };
    },
    async restore(id, req) {
      const { r, def } = await entryFor(id, req);
      const notes = await def.restore(r.item_key, JSON.parse(r.payload ?? '{}'), req);
      await db.deleteFrom('sys_recycle').where('id', '=', r.id).execute();
      return notes;
    },
    async purge(id, req) {
      const { r } = await entryFor(id, req);
      await purgeRow(r);
    },
    async sweep() {
      const before = timeText(new Date(Date.now() - days * DAY_MS));
      const old = await db.selectFrom('sys_recycle').select(['id', 'kind', 'item_key', 'payload']).where('delete_time', '<', before).execute();
      let n = 0;
      for (const r of old) if (await purgeRow(r)) n++;
      return n;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the `recycle` platform service: the recycle bin (core/recycle.ts) */
    recycle: RecycleService;
  }
}

export const recyclePlugin = fp(
  async (app: FastifyInstance) => {
    const service = recycleService(app, app.ctx.config.recycleDays);
    app.decorate('recycle', service);
    // what has been in the bin longer than RECYCLE_DAYS goes for good: once the modules have registered, then daily
    const sweep = () => service.sweep().catch((err: unknown) => app.ctx.log.error({ err: String(err) }, 'recycle bin sweep failed'));
    app.addHook('onReady', async () => {
      await sweep();
    });
    const timer = setInterval(sweep, DAY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'recycle' },
);
