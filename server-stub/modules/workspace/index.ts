// 导出 / 导入工作区 (issue 37 item 3): chosen items with what they depend on, as one file checked against
// schemas/meta/workspace.schema.json; an import previews every item (new, unchanged, changed with its diff, refused
// with the reason) and every data source mapped to one of this deployment's, then writes it all in one transaction.
// The kinds are the owning modules' (core/workspace.ts); an item is checked as its own save checks it.
//   GET  /api/workspace/schema          the published file format
//   GET  /api/workspace/items           what the caller may export, by kind
//   POST /api/workspace/export          {items, plan?}: the file (or, with plan, the items it would hold)
//   POST /api/workspace/preview         {file, dataSources?}: per item its status and diff; the data source map
//   POST /api/workspace/import          {file, decisions, dataSources, dryRun?}: all of it in one transaction
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { attachment } from '../../core/csv.js';
import { hasPermission } from '../../core/permissions.js';
import { DATASOURCE_TABLE } from '../../core/datasources.js';
import { now } from '../../store/columns.js';
import { describeAjvErrors } from '../../../common/ajv-messages.js';
import { deploymentId, WORKSPACE_KIND_LABELS, WORKSPACE_KINDS, type FileDataSource, type ImportContext, type ImportMode, type WorkspaceItem, type WorkspaceKind, type WorkspaceKindDef, type WorkspaceRef } from '../../core/workspace.js';

export const WORKSPACE_FORMAT = 'dsc-workspace';
export type WorkspaceFile = { format: typeof WORKSPACE_FORMAT; formatVersion: 1; origin?: string; exportedAt?: string; exportedBy?: string; dataSources?: FileDataSource[]; items: WorkspaceItem[] };
export type Decision = 'keep' | 'replace' | 'copy';
/** new; same as here; changed at its source since this deployment imported it (untouched here); conflict: edited here meanwhile, or another item under the same key; invalid */
export type ItemStatus = 'new' | 'same' | 'changed' | 'conflict' | 'invalid';

/** The largest file accepted (bytes of JSON) and how deep it may nest. */
export const WORKSPACE_LIMITS = { bytes: 64 * 1024 * 1024, depth: 40, items: 5000 } as const;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export const WORKSPACE_MSG = {
  notJson: '文件不是合法的 JSON',
  tooLarge: `文件超过 ${WORKSPACE_LIMITS.bytes / 1024 / 1024} MB`,
  tooDeep: `文件嵌套超过 ${WORKSPACE_LIMITS.depth} 层`,
  badKey: (k: string) => `文件中含有不允许的键「${k}」`,
  format: (why: string) => `文件不符合工作区导出格式：${why}`,
  duplicate: (label: string, key: string) => `文件中${label}「${key}」出现了不止一次`,
  unmapped: (name: string) => `数据源「${name}」没有对应到本环境的数据源：请在导入预览中选择`,
  badMapping: (name: string) => `数据源「${name}」选择的目标数据源不存在`,
  decide: (label: string, key: string) => `${label}「${key}」在本环境已存在且内容不同（本环境改过，或是另一项同名内容）：请选择保留、覆盖或导入为副本`,
  refused: (label: string, key: string, why: string) => `${label}「${key}」不能导入：${why}`,
  nothing: '没有要导入的内容（全部保留或无变化）',
  chooseSome: '请选择要导出的内容',
  missing: (label: string, key: string) => `${label}「${key}」不存在或无权导出`,
} as const;

/** The file's text or object, checked: size, depth, no prototype keys, the published schema, no key twice. */
export function readWorkspaceFile(app: FastifyInstance, raw: unknown): WorkspaceFile {
  let data = raw;
  if (typeof raw === 'string') {
    if (Buffer.byteLength(raw) > WORKSPACE_LIMITS.bytes) throw new BizError(WORKSPACE_MSG.tooLarge);
    try {
      data = JSON.parse(raw);
    } catch {
      throw new BizError(WORKSPACE_MSG.notJson);
    }
  }
  // depth and keys first, iteratively (a deep file must not overflow the stack of the checks after it)
  const stack: Array<[unknown, number]> = [[data, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > WORKSPACE_LIMITS.depth) throw new BizError(WORKSPACE_MSG.tooDeep);
    for (const k of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(k)) throw new BizError(WORKSPACE_MSG.badKey(k));
      stack.push([(v as Record<string, unknown>)[k], d + 1]);
    }
  }
  const check = app.ctx.schemas.validators['workspace.schema.json'];
  if (!check(data)) throw new BizError(WORKSPACE_MSG.format(describeAjvErrors(check.errors, { root: '文件' }).slice(0, 3).join('；')));
  const file = data as WorkspaceFile;
  const seen = new Set<string>();
  for (const it of file.items) {
    const id = `${it.kind}:${it.key}`;
    if (seen.has(id)) throw new BizError(WORKSPACE_MSG.duplicate(WORKSPACE_KIND_LABELS[it.kind], it.key));
    seen.add(id);
  }
  return file;
}

/** Key order fixed, so that two equal contents compare equal as text. */
export function canonical(v: unknown): string {
  const sort = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sort);
    if (x && typeof x === 'object') return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort((x as Record<string, unknown>)[k])]));
    return x;
  };
  return JSON.stringify(sort(v));
}

const refBody = { type: 'object', required: ['kind', 'key'], additionalProperties: false, properties: { kind: { enum: [...WORKSPACE_KINDS] }, key: { type: 'string', minLength: 1, maxLength: 100 } } } as const;
const exportBody = {
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: { items: { type: 'array', maxItems: WORKSPACE_LIMITS.items, items: refBody, title: '内容' }, plan: { type: ['boolean', 'null'], title: '只看清单' } },
} as const;
const fileProps = {
  file: { type: ['string', 'object'], title: '文件' },
  dataSources: { type: ['object', 'null'], maxProperties: 500, additionalProperties: { type: 'integer', minimum: 1, maximum: 2147483647 }, title: '数据源对应' },
} as const;
const previewBody = { type: 'object', required: ['file'], additionalProperties: false, properties: fileProps } as const;
const importBody = {
  type: 'object',
  required: ['file'],
  additionalProperties: false,
  properties: {
    ...fileProps,
    decisions: { type: ['object', 'null'], maxProperties: WORKSPACE_LIMITS.items, additionalProperties: { enum: ['keep', 'replace', 'copy'] }, title: '处理方式' },
    dryRun: { type: ['boolean', 'null'], title: '只检查' },
  },
} as const;

interface Judged {
  item: WorkspaceItem;
  def: WorkspaceKindDef;
  status: ItemStatus;
  reason?: string;
  /** the refusal's HTTP status (403: a permission the importer lacks) */
  code?: number;
  before?: unknown;
  beforeTitle?: string;
}

export const workspaceModule: ServerModule = {
  name: 'workspace',
  prefix: '/api/workspace',
  service: 'platform',
  needs: ['workspace'],
  plugin: async (app: FastifyInstance) => {
    const { db } = app.ctx;
    const may = (req: FastifyRequest, perm: string) => !app.ctx.config.permissionSwitch || hasPermission(req.user?.permissions ?? [], perm);
    const EXPORT_PERM = 'system:workspace:export';
    const IMPORT_PERM = 'system:workspace:import';

    app.get('/schema', { config: { perm: EXPORT_PERM } }, async () => app.ctx.schemas.validators['workspace.schema.json'].schema);

    app.get('/items', { config: { perm: EXPORT_PERM } }, async (req) => {
      const kinds = [];
      for (const def of app.workspace.kinds()) {
        if (!may(req, def.readPerm)) continue;
        kinds.push({ kind: def.kind, label: WORKSPACE_KIND_LABELS[def.kind], items: await def.list(req) });
      }
      return ok(kinds);
    });

    /** The chosen items and, transitively, what they depend on (each read as the caller may read it). */
    const collect = async (refs: readonly WorkspaceRef[], req: FastifyRequest) => {
      const out = new Map<string, WorkspaceItem & { addedFor?: string }>();
      const chosenAs = new Map<string, string>();
      const queue: Array<WorkspaceRef & { addedFor?: string; chosen: boolean }> = refs.map((r) => ({ ...r, chosen: true }));
      while (queue.length) {
        const ref = queue.shift()!;
        const def = app.workspace.kindOf(ref.kind);
        if (!may(req, def.readPerm)) {
          if (ref.chosen) throw new BizError(WORKSPACE_MSG.missing(WORKSPACE_KIND_LABELS[ref.kind], ref.key), 403);
          continue; // a dependency the caller may not read stays behind: the target must have it
        }
        const item = await def.read(ref.key, req);
        if (!item) {
          if (ref.chosen) throw new BizError(WORKSPACE_MSG.missing(WORKSPACE_KIND_LABELS[ref.kind], ref.key));
          continue;
        }
        const id = `${item.kind}:${item.key}`;
        if (out.has(id)) {
          // two chosen screens of one name would be one item of the file
          if (ref.chosen && chosenAs.get(id) !== undefined && chosenAs.get(id) !== ref.key) throw new BizError(`有两个${WORKSPACE_KIND_LABELS[item.kind]}都叫「${item.key}」：请先改名再导出`);
          continue;
        }
        if (ref.chosen) chosenAs.set(id, ref.key);
        if (out.size >= WORKSPACE_LIMITS.items) throw new BizError(`一次最多导出 ${WORKSPACE_LIMITS.items} 项`);
        out.set(id, { ...item, ...(ref.chosen ? {} : { addedFor: ref.addedFor }) });
        for (const d of item.deps ?? []) queue.push({ ...d, chosen: false, addedFor: `${WORKSPACE_KIND_LABELS[item.kind]}「${item.title}」` });
      }
      // dependency order: what others name first
      return [...out.values()].sort((a, b) => WORKSPACE_KINDS.indexOf(a.kind) - WORKSPACE_KINDS.indexOf(b.kind));
    };

    /** The data sources the items name, by name and type (nothing else of them leaves). */
    const fileSources = async (items: readonly WorkspaceItem[]): Promise<FileDataSource[]> => {
      const names = [...new Set(items.flatMap((i) => i.dataSources ?? []))];
      if (!names.length) return [];
      const rows = await db.selectFrom(DATASOURCE_TABLE).select(['ds_name', 'db_type']).where('kind', '=', 'datasource').where('ds_name', 'in', names).execute();
      const types = new Map(rows.map((r) => [r.ds_name, r.db_type ?? '']));
      return names.map((name) => ({ name, type: types.get(name) ?? '' }));
    };

    const buildFile = async (refs: readonly WorkspaceRef[], req: FastifyRequest): Promise<{ file: WorkspaceFile; added: Map<string, string> }> => {
      const items = await collect(refs, req);
      const added = new Map(items.filter((i) => i.addedFor).map((i) => [`${i.kind}:${i.key}`, i.addedFor!]));
      const file: WorkspaceFile = {
        format: WORKSPACE_FORMAT,
        formatVersion: 1,
        // which deployment it came from: an import remembers it, and tells an update from a conflict next time
        origin: await deploymentId(db),
        exportedAt: now(),
        exportedBy: req.user?.username ?? '',
        dataSources: await fileSources(items),
        items: items.map(({ addedFor: _a, ...i }) => i),
      };
      return { file, added };
    };
    app.decorate('workspaceFile', buildFile);

    app.post<{ Body: { items: WorkspaceRef[]; plan?: boolean | null } }>('/export', { config: { perm: EXPORT_PERM }, schema: { body: exportBody } }, async (req, reply) => {
      if (!req.body.items.length) throw new BizError(WORKSPACE_MSG.chooseSome);
      const { file, added } = await buildFile(req.body.items, req);
      if (req.body.plan) {
        return ok({
          items: file.items.map((i) => ({ kind: i.kind, kindLabel: WORKSPACE_KIND_LABELS[i.kind], key: i.key, title: i.title, addedFor: added.get(`${i.kind}:${i.key}`) ?? null })),
          dataSources: file.dataSources,
        });
      }
      const day = now().slice(0, 10).replace(/-/g, '');
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', attachment(`工作区导出-${day}.json`, `workspace-${day}.json`))
        .send(JSON.stringify(file, null, 1));
    });

    /** This deployment's data sources, and the one each of the file's maps to (chosen, else the same name and type). */
    const mapSources = async (file: WorkspaceFile, chosen: Record<string, number>) => {
      const rows = await db.selectFrom(DATASOURCE_TABLE).select(['id', 'ds_name', 'db_type']).where('kind', '=', 'datasource').orderBy('ds_name').execute();
      const targets = rows.map((r) => ({ id: Number(r.id), name: r.ds_name, type: r.db_type ?? '' }));
      const named = new Set((file.items ?? []).flatMap((i) => i.dataSources ?? []));
      const declared = new Map((file.dataSources ?? []).map((d) => [d.name, d.type]));
      const map = new Map<string, { id: number; name: string } | null>();
      for (const name of named) {
        const pick = Object.hasOwn(chosen, name) ? chosen[name] : undefined;
        if (pick !== undefined) {
          const t = targets.find((x) => x.id === pick);
          if (!t) throw new BizError(WORKSPACE_MSG.badMapping(name));
          map.set(name, t);
          continue;
        }
        const same = targets.find((x) => x.name === name && (!declared.get(name) || !x.type || x.type === declared.get(name)));
        map.set(name, same ?? null);
      }
      return { targets, map, declared };
    };

    const contextOf = (req: FastifyRequest, map: Map<string, { id: number; name: string } | null>, file: WorkspaceFile): ImportContext => {
      const written = new Map<string, string>();
      const carried = new Set(file.items.map((i) => `${i.kind}:${i.key}`));
      return {
        req,
        written,
        inFile: (kind, key) => carried.has(`${kind}:${key}`),
        fileItems: (kind) => file.items.filter((i) => i.kind === kind),
        dataSource(name) {
          const t = map.get(name);
          if (!t) throw new BizError(WORKSPACE_MSG.unmapped(name));
          return t;
        },
        keyOf: (kind, key) => written.get(`${kind}:${key}`) ?? key,
      };
    };

    /**
     * What two contents are compared as: the file's data source names as they map here, and what a kind renames on
     * every import (a screen's widget ids) as the kind says.
     */
    /** The content with its data source names as they map here (what the import would write). */
    const mapped = (content: unknown, map?: Map<string, { name: string } | null>) => {
      const walk = (v: unknown, depth: number): unknown => {
        if (depth > 64 || v === null || typeof v !== 'object') return v;
        if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, (k === 'dsName' || k === 'dataSource') && typeof x === 'string' && map?.get(x) ? map.get(x)!.name : walk(x, depth + 1)]));
      };
      return walk(content, 0);
    };
    const comparable = (def: WorkspaceKindDef, content: unknown, map?: Map<string, { name: string } | null>) => {
      const c = mapped(content, map);
      return canonical(def.comparable ? def.comparable(c) : c);
    };

    const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
    /** What an import wrote, and from where (sys_workspace_import): the next import's update or conflict. */
    const remember = async (on: typeof db, kind: string, key: string, origin: string, hash: string) => {
      const values = { origin: origin.slice(0, 64), content_hash: hash, import_time: now() };
      const n = await on.updateTable('sys_workspace_import').set(values).where('kind', '=', kind).where('item_key', '=', key).executeTakeFirst();
      if (!Number(n.numUpdatedRows)) await on.insertInto('sys_workspace_import').values({ ...values, kind, item_key: key }).execute();
    };

    /** Every item of the file against this deployment: its status, and what it would replace. */
    const judge = async (file: WorkspaceFile, req: FastifyRequest, map: Map<string, { id: number; name: string } | null>): Promise<Judged[]> => {
      const out: Judged[] = [];
      const lineage = new Map((await db.selectFrom('sys_workspace_import').select(['kind', 'item_key', 'origin', 'content_hash']).execute()).map((r) => [`${r.kind}:${r.item_key}`, `${r.origin}:${r.content_hash}`]));
      // in dependency order whatever the file's (a hand-merged file may list a screen before its dataset)
      // and within a kind, an item after those of its kind it depends on (a menu entry after its parent)
      const byId = new Map(file.items.map((i) => [`${i.kind}:${i.key}`, i]));
      const depth = (i: WorkspaceItem, seen = 0): number => {
        const up = (i.deps ?? []).map((d) => byId.get(`${d.kind}:${d.key}`)).filter((d): d is WorkspaceItem => !!d && d.kind === i.kind);
        return seen > 32 || !up.length ? 0 : 1 + Math.max(...up.map((d) => depth(d, seen + 1)));
      };
      const items = [...file.items].sort((a, b) => WORKSPACE_KINDS.indexOf(a.kind) - WORKSPACE_KINDS.indexOf(b.kind) || depth(a) - depth(b));
      for (const item of items) {
        const def = app.workspace.kindOf(item.kind);
        if (!may(req, def.writePerm)) {
          out.push({ item, def, status: 'invalid', reason: `没有导入${WORKSPACE_KIND_LABELS[item.kind]}的权限`, code: 403 });
          continue;
        }
        const before = await def.existing(item.key, req);
        if (!before) out.push({ item, def, status: 'new' });
        else {
          const here = comparable(def, before.content);
          let status: ItemStatus = here === comparable(def, item.content, map) && before.title === item.title ? 'same' : 'conflict';
          // an update: the last import of it came from the file's deployment, and nobody changed it here since
          if (status === 'conflict' && file.origin && lineage.get(`${item.kind}:${item.key}`) === `${file.origin}:${hashOf(here)}`) status = 'changed';
          out.push({ item, def, status, before: before.content, beforeTitle: before.title });
        }
      }
      return out;
    };

    const modeOf = (j: Judged, decisions: Record<string, Decision>): ImportMode | null => {
      if (j.status === 'new') return 'new';
      if (j.status === 'same') return null;
      const id = `${j.item.kind}:${j.item.key}`;
      // an update replaces unless told otherwise; a conflict is settled by the importer
      const d = Object.hasOwn(decisions, id) ? decisions[id] : j.status === 'changed' ? 'replace' : undefined;
      if (!d) throw new BizError(WORKSPACE_MSG.decide(WORKSPACE_KIND_LABELS[j.item.kind], j.item.key));
      return d === 'keep' ? null : d;
    };

    /** Checks every item as its save would (with the data sources mapped); answers the reason per item. */
    const check = async (judged: Judged[], ctx: ImportContext, decisions: Record<string, Decision> | null, req: FastifyRequest) => {
      const plans: Array<{ j: Judged; mode: ImportMode; prepared: unknown }> = [];
      for (const j of judged) {
        if (j.status === 'invalid') continue;
        let mode: ImportMode | null;
        try {
          mode = decisions ? modeOf(j, decisions) : j.status === 'new' ? 'new' : j.status === 'changed' || j.status === 'conflict' ? 'replace' : null;
        } catch (e) {
          if (decisions) throw e;
          mode = null;
        }
        if (!mode) continue;
        try {
          // a copy's free key is chosen now (a clash meanwhile fails the whole import in its transaction)
          const key = mode === 'copy' ? await j.def.copyKey(j.item.key) : j.item.key;
          plans.push({ j, mode, prepared: await j.def.prepare(j.item, ctx, mode, key) });
        } catch (e) {
          j.status = 'invalid';
          if (e instanceof BizError) {
            j.reason = e.message;
            j.code = e.httpStatus;
          } else {
            // a file's content the kind's checks did not expect (a crafted item): refused, the fault logged
            req.log.warn({ err: (e as Error).message, kind: j.item.kind, key: j.item.key }, 'workspace item not importable');
            j.reason = '内容不合法';
          }
        }
      }
      return plans;
    };

    app.post<{ Body: { file: unknown; dataSources?: Record<string, number> | null } }>('/preview', { config: { perm: IMPORT_PERM }, bodyLimit: WORKSPACE_LIMITS.bytes, schema: { body: previewBody } }, async (req) => {
      const file = readWorkspaceFile(app, req.body.file);
      const { targets, map, declared } = await mapSources(file, req.body.dataSources ?? {});
      const judged = await judge(file, req, map);
      await check(judged, contextOf(req, map, file), null, req);
      return ok({
        items: judged.map((j) => ({
          kind: j.item.kind,
          kindLabel: WORKSPACE_KIND_LABELS[j.item.kind],
          key: j.item.key,
          title: j.item.title,
          status: j.status,
          reason: j.reason ?? null,
          before: j.status === 'changed' || j.status === 'conflict' ? j.before : null,
          beforeTitle: j.beforeTitle ?? null,
          after: j.status === 'changed' || j.status === 'conflict' ? mapped(j.item.content, map) : null,
        })),
        dataSources: [...map.entries()].map(([name, t]) => ({ name, type: declared.get(name) ?? '', target: t?.id ?? null })),
        targets,
      });
    });

    app.post<{ Body: { file: unknown; dataSources?: Record<string, number> | null; decisions?: Record<string, Decision> | null; dryRun?: boolean | null } }>(
      '/import',
      { config: { perm: IMPORT_PERM }, bodyLimit: WORKSPACE_LIMITS.bytes, schema: { body: importBody } },
      async (req) => {
        const file = readWorkspaceFile(app, req.body.file);
        const { map } = await mapSources(file, req.body.dataSources ?? {});
        const judged = await judge(file, req, map);
        const decisions = req.body.decisions ?? {};
        const bad = judged.find((j) => j.status === 'invalid' && decisions[`${j.item.kind}:${j.item.key}`] !== 'keep');
        if (bad) throw new BizError(WORKSPACE_MSG.refused(WORKSPACE_KIND_LABELS[bad.item.kind], bad.item.key, bad.reason!), bad.code);
        const ctx = contextOf(req, map, file);
        const plans = await check(judged, ctx, decisions, req);
        const refused = judged.find((j) => j.status === 'invalid' && decisions[`${j.item.kind}:${j.item.key}`] !== 'keep');
        if (refused) throw new BizError(WORKSPACE_MSG.refused(WORKSPACE_KIND_LABELS[refused.item.kind], refused.item.key, refused.reason!), refused.code);
        const counts = { created: 0, replaced: 0, copied: 0, kept: judged.length - plans.length };
        for (const p of plans) counts[p.mode === 'new' ? 'created' : p.mode === 'replace' ? 'replaced' : 'copied']++;
        if (req.body.dryRun) return ok({ ...counts, dryRun: true }, plans.length ? `检查通过：将新建 ${counts.created} 项，覆盖 ${counts.replaced} 项，导入副本 ${counts.copied} 项` : WORKSPACE_MSG.nothing);
        await db.transaction().execute(async (trx) => {
          for (const p of plans) {
            const key = await p.j.def.write(p.prepared, trx, ctx);
            ctx.written.set(`${p.j.item.kind}:${p.j.item.key}`, key);
            // a copy is a new item of this deployment's: no lineage of the file's item
            if (file.origin && p.mode !== 'copy') await remember(trx, p.j.item.kind, key, file.origin, hashOf(comparable(p.j.def, p.j.item.content, map)));
          }
          // an update kept as it is here: remembered as seen, so the next file from there asks instead of replacing
          if (file.origin)
            for (const j of judged)
              if ((j.status === 'changed' || j.status === 'conflict') && decisions[`${j.item.kind}:${j.item.key}`] === 'keep') await remember(trx, j.item.kind, j.item.key, file.origin, hashOf(comparable(j.def, j.item.content, map)));
        });
        // a deployment already holding the file is no failure (a pipeline runs the same import again)
        if (!plans.length) return ok({ ...counts, dryRun: false }, WORKSPACE_MSG.nothing);
        // what each kind keeps in memory or in the cache learns of the new content (dictionaries, menus, pages)
        for (const def of new Set(plans.map((p) => p.j.def))) await def.afterImport?.();
        const apis = plans.filter((p) => p.j.item.kind === 'api').length;
        return ok(counts, `导入完成：新建 ${counts.created} 项，覆盖 ${counts.replaced} 项，导入副本 ${counts.copied} 项，保留 ${counts.kept} 项${apis ? `；${apis} 个接口为草稿，提交审批通过后才能上线` : ''}`);
      },
    );
  },
};

declare module 'fastify' {
  interface FastifyInstance {
    /** the workspace file of the chosen items (the headless export's way in) */
    workspaceFile?: (refs: readonly WorkspaceRef[], req: FastifyRequest) => Promise<{ file: WorkspaceFile; added: Map<string, string> }>;
  }
}

export type { WorkspaceKind };
