// Workspace export and import (issue 37 item 3): how finished work moves from a test deployment to production.
// The module that owns a kind of item (page, screen, form, dataset, API design, dictionary, role, variable)
// registers it here: how to list and read its items in the file's form (data sources by name, datasets by name,
// never a secret), what it depends on, the target's item under the same key, the checks its own save makes, and how
// to write it inside the import's one transaction. The workspace module (modules/workspace) builds the file, the
// preview (new / changed / conflict, with the version diff) and the import from what the kinds say.
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { BizError } from './envelope.js';
import type { Database } from '../store/schema.js';
import { declareTable, type TableRow } from './tables.js';

/**
 * What each import wrote (issue 37 item 3): the item, the deployment its file came from and the content as it was
 * written. A later file from the same deployment is then told apart: an item this deployment has not touched since
 * is simply 有更新 (changed), one edited here meanwhile, or made here under the same key, is a 冲突 (conflict) to settle.
 */
export const workspaceImportTable = declareTable({
  name: 'sys_workspace_import',
  migration: '20261207_01_sys_workspace_import',
  columns: {
    id: { type: 'id' },
    kind: { type: 'varchar(20)', notNull: true },
    itemKey: { type: 'varchar(100)', notNull: true },
    origin: { type: 'varchar(64)', notNull: true },
    contentHash: { type: 'varchar(64)', notNull: true },
    importTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ux_sys_workspace_import_item', columns: ['kind', 'itemKey'], unique: true }],
});

declare module '../store/schema.js' {
  interface Database {
    sys_workspace_import: TableRow<typeof workspaceImportTable>;
  }
}

export const workspaceMigrations = { ...workspaceImportTable.migrations };

export const WORKSPACE_KINDS = ['dict', 'variable', 'role', 'dataset', 'api', 'page', 'screen', 'form', 'menu'] as const;
export type WorkspaceKind = (typeof WORKSPACE_KINDS)[number];
export const WORKSPACE_KIND_LABELS: Record<WorkspaceKind, string> = { dict: '字典', variable: '变量', role: '角色', dataset: '数据集', api: '接口', page: '页面', screen: '大屏', form: '表单', menu: '菜单' };

/** One item named by kind and key (its key in the file: a page key, an API name, a dataset's or screen's name). */
export interface WorkspaceRef {
  kind: WorkspaceKind;
  key: string;
}
/** A data source as the file names it: by name and type only, never where it is or how to sign in. */
export interface FileDataSource {
  name: string;
  type: string;
}

/** An item as the file holds it. */
export interface WorkspaceItem extends WorkspaceRef {
  title: string;
  content: unknown;
  /** what it needs that the file may carry (added to an export, imported before it) */
  deps?: WorkspaceRef[];
  /** the data sources it reads, by name */
  dataSources?: string[];
}

/** What an import decided and learnt so far: the kinds' prepare and write read it. */
export interface ImportContext {
  req: FastifyRequest;
  /** the target's data source id for a data source of the file (by its name), or refused */
  dataSource(name: string): { id: number; name: string };
  /** the target key an item of the file was written under (after its write; kinds are written in dependency order) */
  written: Map<string, string>;
  /** whether the file carries the item (to be written before what names it) */
  inFile(kind: WorkspaceKind, key: string): boolean;
  /** the file's items of a kind (what a check may take as present: they are written first) */
  fileItems(kind: WorkspaceKind): WorkspaceItem[];
  /** the target key of a file item written earlier in this import, else the key itself (the target's own) */
  keyOf(kind: WorkspaceKind, key: string): string;
}

export type ImportMode = 'new' | 'replace' | 'copy';

/** What a module tells the workspace about a kind it owns. */
export interface WorkspaceKindDef<P = unknown> {
  kind: WorkspaceKind;
  /** the permission to export such items (read them) */
  readPerm: string;
  /** the permission to import them (create or replace); the kind's prepare checks the rest as its save does */
  writePerm: string;
  /** the items an export may choose (key, title), those the caller may read */
  list(req: FastifyRequest): Promise<Array<{ key: string; title: string }>>;
  /** the item in the file's form, or null when there is none */
  read(key: string, req: FastifyRequest): Promise<WorkspaceItem | null>;
  /** the target's item under the same key, in the file's form (what a preview compares) */
  existing(key: string, req: FastifyRequest): Promise<WorkspaceItem | null>;
  /**
   * Checks the item as its save would (throws the reason), to be written under `key` (the file's, or a copy's free
   * one); answers what write needs. Runs before the transaction: what it names that the import brings along (a
   * dataset of a chart) may not exist yet.
   */
  prepare(item: WorkspaceItem, ctx: ImportContext, mode: ImportMode, key: string): Promise<P>;
  /** writes the prepared item in the import's transaction; answers the target key */
  write(prepared: P, on: Kysely<Database>, ctx: ImportContext): Promise<string>;
  /** the content as compared with another (what every import renames, e.g. widget ids, made positional) */
  comparable?(content: unknown): unknown;
  /** after the import's transaction: caches of the kind told of the new content */
  afterImport?(): Promise<void>;
  /** a free key for a copy of `key` in the target */
  copyKey(key: string): Promise<string>;
}

export interface WorkspaceService {
  register<P>(def: WorkspaceKindDef<P>): void;
  kindOf(kind: string): WorkspaceKindDef;
  kinds(): WorkspaceKindDef[];
}

export function workspaceService(): WorkspaceService {
  const kinds = new Map<string, WorkspaceKindDef>();
  return {
    register(def) {
      kinds.set(def.kind, def as WorkspaceKindDef);
    },
    kindOf(kind) {
      const def = kinds.get(kind);
      if (!def) throw new BizError(`不支持的内容类型：${String(kind).slice(0, 20)}`);
      return def;
    },
    // in dependency order: what others name comes first
    kinds: () => WORKSPACE_KINDS.filter((k) => kinds.has(k)).map((k) => kinds.get(k)!),
  };
}

/** A free name for a copy: 「名称（导入）」, then 「名称（导入 2）」… (`taken` says whether one is used). */
export async function copyName(name: string, taken: (n: string) => Promise<boolean>, max = 100): Promise<string> {
  for (let i = 1; i < 1000; i++) {
    const suffix = i === 1 ? '（导入）' : `（导入 ${i}）`;
    const n = name.slice(0, max - suffix.length) + suffix;
    if (!(await taken(n))) return n;
  }
  throw new BizError(`找不到「${name}」副本的可用名称`);
}

/**
 * This deployment's id in the files it exports: random, made once and kept in the store (sys_setting), so that it
 * tells deployments apart whatever their settings and reveals nothing of them.
 */
export async function deploymentId(db: Kysely<Database>): Promise<string> {
  const KEY = 'workspace.origin';
  const read = async () => (await db.selectFrom('sys_setting').select('value').where('key', '=', KEY).executeTakeFirst())?.value;
  const held = await read();
  if (held) return held;
  try {
    await db.insertInto('sys_setting').values({ key: KEY, value: randomUUID() }).execute();
  } catch {
    // another instance made it first
  }
  return (await read())!;
}

/** A free key for a copy: `key_2`, `key_3`… within `max` characters (`taken` says whether one is used). */
export async function freeKey(key: string, max: number, taken: (k: string) => Promise<boolean>): Promise<string> {
  for (let i = 2; i < 1000; i++) {
    const k = `${key.slice(0, max - String(i).length - 1)}_${i}`;
    if (!(await taken(k))) return k;
  }
  throw new BizError(`找不到「${key}」副本的可用标识`);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the `workspace` platform service: the kinds a workspace export and import carry (core/workspace.ts) */
    workspace: WorkspaceService;
  }
}

export const workspacePlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('workspace', workspaceService());
  },
  { name: 'workspace' },
);
