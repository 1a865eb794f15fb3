// Versions of what is designed (issue 37 item 1): every save of a page declaration, a screen or form (its canvas and
// widgets as one snapshot), a menu entry or a dataset keeps a version — who, when, an optional note — in one table,
// sys_version. The module that owns a kind registers it (its permission, how to read the item now, how to restore
// content as a new save) and records a version at each save; the history routes (modules/history) list, show and
// restore them. A save that changes nothing keeps no new version. Kept: the last VERSIONS_KEPT per item plus every
// published one. A restore saves the old content
// through the kind's own save, so it becomes the newest version and history is never rewritten. Versions hold no
// secret in clear: a value under a secret-looking key is masked before it is stored.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { BizError } from './envelope.js';
import { hasPermission } from './permissions.js';
import { declareTable, type TableRow } from './tables.js';
import { now } from '../store/columns.js';
import type { Database } from '../store/schema.js';
import type { VersionKind, VersionRow } from '../../common/versions.js';

export type { VersionKind, VersionRow };

export const versionsTable = declareTable({
  name: 'sys_version',
  migration: '20261206_01_sys_version',
  columns: {
    id: { type: 'id' },
    kind: { type: 'varchar(20)', notNull: true },
    itemKey: { type: 'varchar(100)', notNull: true },
    title: { type: 'varchar(200)' },
    content: { type: 'text', notNull: true },
    note: { type: 'varchar(200)' },
    published: { type: 'integer', notNull: true, default: 0 },
    size: { type: 'integer', notNull: true, default: 0 },
    createUser: { type: 'varchar(100)' },
    createTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ix_sys_version_item', columns: ['kind', 'itemKey'] }],
});

declare module '../store/schema.js' {
  interface Database {
    sys_version: TableRow<typeof versionsTable>;
  }
}

export const versionMigrations = { ...versionsTable.migrations };


export const VERSION_KIND_LABELS: Record<VersionKind, string> = { page: '页面', screen: '大屏', form: '表单', menu: '菜单', dataset: '数据集' };

/** What the module owning a kind tells the history: who may see its versions, the item now, how to restore. */
export interface VersionKindDef {
  kind: VersionKind;
  /** the permission to edit such items: needed to see, compare and restore their versions */
  perm: string;
  /** a further check for one item (a SQL dataset's versions only for those who may write SQL); throws to refuse */
  guard?(key: string, req: FastifyRequest): Promise<void>;
  /** the item as it is now (the content a version is compared with), null when it is gone */
  current(key: string, req: FastifyRequest): Promise<{ title: string; content: unknown } | null>;
  /** saves `content` as the item's content now (through the kind's own checks); it records the new version itself */
  restore(key: string, content: unknown, req: FastifyRequest, note: string): Promise<void>;
}

export interface RecordOptions {
  title?: string;
  note?: string | null;
  published?: boolean;
}


export interface VersionsService {
  register(def: VersionKindDef): void;
  kindOf(kind: string): VersionKindDef;
  /** Keeps `content` as the newest version of the item (in `db`: a save's own transaction when given). */
  record(kind: VersionKind, key: string | number, content: unknown, req: FastifyRequest | null, opts?: RecordOptions, db?: Kysely<Database>): Promise<number>;
  /** The item's versions, newest first (without content). Refused without the kind's permission. */
  list(kind: string, key: string, req: FastifyRequest): Promise<VersionRow[]>;
  /** One version with its content (parsed). Refused without its kind's permission. */
  get(id: number, req: FastifyRequest): Promise<VersionRow & { content: unknown }>;
  /** Makes version `id`'s content the item's content now, as a new version; answers the new version's id. */
  restore(id: number, req: FastifyRequest): Promise<void>;
}

/** Keys whose values are never kept in a version (a secret would otherwise outlive its change). */
const SECRET_KEY = /^(password|passwd|pwd|secret|secretKey|clientSecret|token|accessToken|apiKey|accessKey|privateKey)$/i;
export const MASK = '******';

/** A copy of `content` with every value under a secret-looking key masked (depth-bounded). */
export function withoutSecrets(content: unknown, depth = 0): unknown {
  if (depth > 64 || content === null || typeof content !== 'object') return content;
  if (Array.isArray(content)) return content.map((v) => withoutSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(content)) out[k] = SECRET_KEY.test(k) && typeof v === 'string' && v !== '' ? MASK : withoutSecrets(v, depth + 1);
  return out;
}

/** Whether `content` holds a masked secret (a restore would write the mask back as the value). */
function hasMasked(content: unknown, depth = 0): boolean {
  if (depth > 64 || content === null || typeof content !== 'object') return false;
  if (Array.isArray(content)) return content.some((v) => hasMasked(v, depth + 1));
  return Object.entries(content).some(([k, v]) => (SECRET_KEY.test(k) && v === MASK) || hasMasked(v, depth + 1));
}

/** The largest version kept (bytes of JSON): a bigger item saves, but its version says it was too large. */
const MAX_VERSION_BYTES = 8 * 1024 * 1024;

export function versionsService(app: FastifyInstance, kept: number): VersionsService {
  const { db } = app.ctx;
  const kinds = new Map<string, VersionKindDef>();
  const kindOf = (kind: string) => {
    const def = kinds.get(kind);
    if (!def) throw new BizError('不支持的历史版本类型');
    return def;
  };
  const allowed = (req: FastifyRequest, def: VersionKindDef) => {
    if (app.ctx.config.permissionSwitch && !hasPermission(req.user?.permissions ?? [], def.perm)) throw new BizError('没有权限查看该类内容的历史版本', 403);
  };
  const present = (r: Pick<Selectable<Database['sys_version']>, 'id' | 'kind' | 'item_key' | 'title' | 'note' | 'published' | 'size' | 'create_user' | 'create_time'>, number: number): VersionRow => ({
    id: Number(r.id),
    kind: r.kind as VersionKind,
    itemKey: r.item_key,
    title: r.title,
    note: r.note,
    published: Number(r.published) === 1,
    size: Number(r.size),
    createUser: r.create_user,
    createTime: r.create_time,
    number,
  });
  const columns = ['id', 'kind', 'item_key', 'title', 'note', 'published', 'size', 'create_user', 'create_time'] as const;

  return {
    register(def) {
      kinds.set(def.kind, def);
    },
    kindOf,
    async record(kind, key, content, req, opts = {}, on = db) {
      const json = JSON.stringify(withoutSecrets(content));
      const size = Buffer.byteLength(json);
      if (size > MAX_VERSION_BYTES) return 0;
      const itemKey = String(key);
      // a save that changed nothing (the designer's canvas save before its widget save, a second 保存) keeps none
      const last = await on.selectFrom('sys_version').select(['id', 'content', 'published']).where('kind', '=', kind).where('item_key', '=', itemKey).orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (last && last.content === json && (Number(last.published) === 1 || !opts.published)) return Number(last.id);
      const r = await on
        .insertInto('sys_version')
        .values({ kind, item_key: itemKey, title: opts.title?.slice(0, 200) ?? null, content: json, note: opts.note?.slice(0, 200) || null, published: opts.published ? 1 : 0, size, create_user: req?.user?.username ?? null, create_time: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      // the newest `kept` and every published one stay; older drafts go
      const keep = await on.selectFrom('sys_version').select('id').where('kind', '=', kind).where('item_key', '=', itemKey).orderBy('id', 'desc').limit(kept).execute();
      const floor = keep.length === kept ? Math.min(...keep.map((x) => Number(x.id))) : 0;
      if (floor) await on.deleteFrom('sys_version').where('kind', '=', kind).where('item_key', '=', itemKey).where('id', '<', floor).where('published', '=', 0).execute();
      return Number(r.id);
    },
    async list(kind, key, req) {
      allowed(req, kindOf(kind));
      await kindOf(kind).guard?.(key, req);
      const rows = await db.selectFrom('sys_version').select(columns).where('kind', '=', kind).where('item_key', '=', key).orderBy('id', 'desc').execute();
      return rows.map((r, i) => present(r, rows.length - i));
    },
    async get(id, req) {
      const r = await db.selectFrom('sys_version').selectAll().where('id', '=', id).executeTakeFirst();
      if (!r) throw new BizError('历史版本不存在');
      allowed(req, kindOf(r.kind));
      await kindOf(r.kind).guard?.(r.item_key, req);
      const older = await db.selectFrom('sys_version').select((eb) => eb.fn.countAll().as('n')).where('kind', '=', r.kind).where('item_key', '=', r.item_key).where('id', '<=', r.id).executeTakeFirst();
      return { ...present(r, Number(older?.n ?? 1)), content: JSON.parse(r.content) as unknown };
    },
    async restore(id, req) {
      const v = await this.get(id, req);
      const def = kindOf(v.kind);
      if (!(await def.current(v.itemKey, req))) throw new BizError(`该${VERSION_KIND_LABELS[v.kind]}已不存在（可在回收站中还原）`);
      if (hasMasked(v.content)) throw new BizError('该版本中的密码等密钥没有保存在历史版本里，不能恢复：请在编辑器中对照差异手工修改');
      await def.restore(v.itemKey, v.content, req, `恢复自版本 ${v.number}（${v.createTime}）`);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the `versions` platform service: versions of designed items (core/versions.ts) */
    versions: VersionsService;
  }
}

export const versionsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('versions', versionsService(app, app.ctx.config.versionsKept));
  },
  { name: 'versions' },
);
