// POST /api/dataset/file/upload (issue 35 §1): an Excel or CSV file made into datasets, or appended to, upserted into,
// or replacing the rows of a file dataset. Multipart: `file`, `mode` (preview | commit), `action` (create | append |
// upsert | replace), `id` (the dataset, but for create), `key` (upsert's key column), `sheet` (which sheet, when the
// file has several), `sheets` (create: the sheets to make datasets of, JSON list; all by default), `name`, `groupId`,
// `confirm` (replace: 1 once the charts losing fields were shown). A preview runs every check and writes nothing.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertPermission } from '../../core/auth.js';
import { BizError, ok } from '../../core/envelope.js';
import { isUniqueViolation } from '../../core/declarations.js';
import { acceptSheets, receiveSheet } from '../../core/sheets.js';
import { now } from '../../store/columns.js';
import type { DatasetField } from '../../../common/dataset.js';
import type { DuckFiles } from './duck.js';
import { appendData, createData, dataColumns, fieldsForColumns, inferTypes, sample, stageUpload, upsertData, type ColumnInfo, type FileLimits, type StagedSheet } from './files.js';

export interface FileRouteContext {
  duck: DuckFiles;
  perm: { list: string; add: string; edit: string };
  loadRow: (id: number) => Promise<{ id: number; kind: string; name: string; definition: string; fields: string; version: number }>;
  fileOf: (row: { definition: string }) => { name: string; sheet: string; fileName: string; rows: number };
  msg: { notFound: string; groupMissing: string; stale: string };
}

const ACTIONS = ['create', 'append', 'upsert', 'replace'] as const;
type Action = (typeof ACTIONS)[number];

/** The charts (screen widgets) reading a dataset, and which of its fields each uses. */
export async function chartsOf(app: FastifyInstance, datasetId: number): Promise<Array<{ pageId: number; pageName: string; widget: string; fields: string[] }>> {
  const rows = await app.ctx.db
    .selectFrom('datav_widget')
    .innerJoin('datav_page', 'datav_page.id', 'datav_widget.page_id')
    .select(['datav_widget.page_id', 'datav_page.page_name', 'datav_widget.widget_title', 'datav_widget.widget_props'])
    .where('datav_widget.widget_props', 'like', '%datasetId%')
    .execute();
  const out: Array<{ pageId: number; pageName: string; widget: string; fields: string[] }> = [];
  for (const r of rows) {
    let props: any;
    try {
      props = JSON.parse(r.widget_props);
    } catch {
      continue;
    }
    const ds = props?.datasourceProps;
    if (ds?.dataConfig?.dataset?.datasetId !== datasetId) continue;
    const fields = new Set<string>();
    for (const m of ds.dataMapping ?? []) if (typeof m?.datasetField === 'string' && m.datasetField) fields.add(m.datasetField);
    for (const f of [...(ds.dataConfig.dataset.filters ?? []), ...(ds.dataConfig.dataset.sort ?? [])]) if (typeof f?.field === 'string') fields.add(f.field);
    out.push({ pageId: Number(r.page_id), pageName: r.page_name, widget: r.widget_title, fields: [...fields] });
  }
  return out;
}

export function fileRoutes(app: FastifyInstance, c: FileRouteContext): void {
  const { db } = app.ctx;
  const limits: FileLimits = { maxBytes: app.ctx.config.datasetFileMaxBytes, maxRows: app.ctx.config.datasetFileMaxRows };
  acceptSheets(app, limits.maxBytes);

  /** The staged sheet an append / upsert / replace takes: the one named, the dataset's own, or the only one. */
  const pickSheet = (staged: StagedSheet[], wanted: string | undefined, own: string): StagedSheet => {
    if (wanted) {
      const s = staged.find((x) => x.sheet === wanted);
      if (!s) throw new BizError(`文件中没有工作表「${wanted.slice(0, 50)}」`);
      return s;
    }
    if (staged.length === 1) return staged[0];
    const s = staged.find((x) => x.sheet === own);
    if (!s) throw new BizError(`文件有 ${staged.length} 个工作表，请选择要使用的工作表`);
    return s;
  };

  const describe = async (conn: DuckDBConnection, s: StagedSheet) => ({ sheet: s.sheet, rows: s.rows, columns: await inferTypes(conn, s), sample: await sample(conn, s) });

  app.post('/file/upload', { config: { perm: c.perm.list } }, async (req: FastifyRequest) => {
    const { buffer, filename, fields } = await receiveSheet(req, limits.maxBytes);
    const mode = fields.mode ?? 'preview';
    if (mode !== 'preview' && mode !== 'commit') throw new BizError('mode 只能是 preview（预览）或 commit（确认）');
    const action = (fields.action ?? 'create') as Action;
    if (!ACTIONS.includes(action)) throw new BizError('action 只能是 create、append、upsert 或 replace');
    const commit = mode === 'commit';
    assertPermission(req, action === 'create' ? c.perm.add : c.perm.edit);
    const id = action === 'create' ? null : Number(fields.id);
    if (id !== null && !(Number.isInteger(id) && id > 0 && id <= 2147483647)) throw new BizError('请选择数据集');
    const stored = id ? await c.loadRow(id) : null;
    if (stored && stored.kind !== 'file') throw new BizError('只有 Excel / CSV 数据集可以追加、更新或替换数据');

    return c.duck.scratch(async (conn, scratch) => {
      const staged = await stageUpload(conn, scratch, { buffer, filename }, limits);

      if (action === 'create') {
        let wanted: string[] = staged.map((s) => s.sheet);
        if (fields.sheets) {
          try {
            const list = JSON.parse(fields.sheets) as unknown;
            if (!Array.isArray(list) || !list.length || !list.every((x) => typeof x === 'string')) throw new Error();
            wanted = list as string[];
          } catch {
            throw new BizError('请选择至少一个工作表');
          }
          for (const w of wanted) if (!staged.some((s) => s.sheet === w)) throw new BizError(`文件中没有工作表「${w.slice(0, 50)}」`);
        }
        const chosen = staged.filter((s) => wanted.includes(s.sheet));
        const described = [];
        for (const s of chosen) described.push(await describe(conn, s));
        if (!commit) return ok({ sheets: described });
        const base = String(fields.name ?? '').trim().slice(0, 80) || filename.replace(/\.[^.]*$/, '').slice(0, 80);
        const groupId = Number(fields.groupId ?? 0) || 0;
        if (groupId && !(await db.selectFrom('dataset_group').select('id').where('id', '=', groupId).executeTakeFirst())) throw new BizError(c.msg.groupMissing);
        const made: Array<{ id: number; name: string }> = [];
        for (const [i, s] of chosen.entries()) {
          const columns = described[i].columns;
          const name = chosen.length > 1 ? `${base}-${s.sheet}`.slice(0, 100) : base;
          if (await db.selectFrom('dataset').select('id').where('name', '=', name).executeTakeFirst()) throw new BizError(`数据集【${name}】已存在`);
          const file = await c.duck.publish(conn, null, () => createData(conn, s, columns));
          const definition = { file: { name: file, sheet: s.sheet, fileName: filename.slice(0, 100), rows: s.rows } };
          try {
            const r = await db
              .insertInto('dataset')
              .values({ group_id: groupId, name, kind: 'file', ds_id: null, definition: JSON.stringify(definition), fields: JSON.stringify(fieldsForColumns(columns)), row_rules: '[]', cache_ttl: 60, version: 1, create_user: req.user?.username ?? null, create_time: now(), update_time: now() })
              .returning('id')
              .executeTakeFirstOrThrow();
            made.push({ id: Number(r.id), name });
          } catch (err) {
            c.duck.retire(file, 0);
            if (isUniqueViolation(err)) throw new BizError(`数据集【${name}】已存在`);
            throw err;
          }
        }
        return ok(made, `已创建 ${made.length} 个数据集`);
      }

      // append, upsert, replace: one sheet into an existing file dataset
      const row = stored!;
      const own = c.fileOf(row);
      const s = pickSheet(staged, fields.sheet, own.sheet);
      const described = await describe(conn, s);
      const storedFields = JSON.parse(row.fields) as DatasetField[];
      let report: Record<string, unknown> = { ...described };
      let next: { fields: DatasetField[]; rows: number } | undefined;

      if (action === 'replace') {
        const kept = new Set(described.columns.map((x: ColumnInfo) => x.name));
        const removed = storedFields.filter((f) => !f.expr && !kept.has(f.column ?? f.name));
        const gone = new Set(removed.map((f) => f.name));
        const charts = gone.size ? (await chartsOf(app, row.id)).filter((ch) => ch.fields.some((f) => gone.has(f))).map((ch) => ({ ...ch, fields: ch.fields.filter((f) => gone.has(f)) })) : [];
        report = { ...report, removed: removed.map((f) => ({ name: f.name, label: f.label })), charts };
        if (commit && removed.length && fields.confirm !== '1') throw new BizError(`替换后将失去 ${removed.length} 个字段（${removed.slice(0, 5).map((f) => f.label).join('、')}），${charts.length} 个图表用到它们；请确认后再替换`);
        next = { fields: fieldsForColumns(described.columns, storedFields), rows: s.rows };
      }

      const apply = async () => {
        if (action === 'replace') return createData(conn, s, described.columns);
        const key = String(fields.key ?? '').trim();
        if (action === 'upsert' && !key) throw new BizError('请选择键列');
        const r = action === 'append' ? await appendData(conn, s, limits, !commit) : await upsertData(conn, s, key, limits, !commit);
        report = { ...report, ...r };
        const total = Number((await conn.runAndReadAll('select count(*) as n from out.data')).getRowObjectsJson()[0]?.n ?? 0);
        next = { fields: storedFields, rows: total + (commit ? 0 : r.added) };
      };

      if (!commit) {
        // every check against the stored rows, read-only
        if (action !== 'replace') await c.duck.attachReadOnly(conn, own.name, apply);
        return ok(report);
      }
      const file = await c.duck.publish(conn, action === 'replace' ? null : own.name, apply);
      // the file named is the one the rows came from: a replace's; an append or upsert keeps the first upload's
      const definition = { file: { ...own, name: file, fileName: action === 'replace' ? filename.slice(0, 100) : own.fileName, rows: next!.rows } };
      const done = await db
        .updateTable('dataset')
        .set({ definition: JSON.stringify(definition), fields: JSON.stringify(next!.fields), version: row.version + 1, update_time: now() })
        .where('id', '=', row.id)
        .where('version', '=', row.version)
        .executeTakeFirst();
      if (!Number(done.numUpdatedRows)) {
        c.duck.retire(file, 0);
        throw new BizError(c.msg.stale);
      }
      // the old version's file goes once other instances can no longer be reading it
      c.duck.retire(own.name);
      const msg = action === 'append' ? `已追加 ${s.rows} 行` : action === 'upsert' ? `已更新 ${Number(report.updated ?? 0)} 行，新增 ${Number(report.added ?? 0)} 行` : `已替换为 ${s.rows} 行`;
      return ok({ ...report, rows: next!.rows }, msg);
    });
  });

  // the stored columns of a file dataset (the upsert dialog's key choices)
  app.get<{ Querystring: { id: number } }>('/file/columns', { config: { perm: c.perm.list }, schema: { querystring: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '编号' } } } } }, async (req) => {
    const row = await c.loadRow(req.query.id);
    if (row.kind !== 'file') throw new BizError('只有 Excel / CSV 数据集有文件列');
    return ok(await dataColumns((q) => c.duck.run(c.fileOf(row).name, q), null));
  });
}
