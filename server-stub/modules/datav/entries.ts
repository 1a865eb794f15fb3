// A form's entries (issue 11): its columns, the list, delete and the CSV export.
//   GET  /api/jimu/form/entry/columns?formId   the form's fields now (layer order), then those only old entries have
//   POST /api/jimu/form/entry/search           { formId, pageNum, pageSize, search?, beginTime?, endTime? }
//   GET  /api/jimu/form/entry/delete?id
//   GET  /api/jimu/form/entry/export?formId&search&beginTime&endTime   text/csv (UTF-8 with BOM)
// Every call sees only the entries of the caller's data scope (issue 34 item 2): an entry's owner is its submitter,
// its department the submitter's; an anonymous entry of a public form is seen by a 全部 scope only.
// Each entry keeps its fields' labels, kinds and texts as they were at submit time, so an entry of a field
// the form has since lost stays readable (its column is marked removed).
import { CSV_BOM, attachment, csvLine } from '../../core/csv.js';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery, likePattern } from '../../core/declarations.js';
import { listQuerySchema, pageOf } from '../../core/list.js';
import type { DataScope } from '../../core/org.js';
import type { Database } from '../../store/schema.js';
import { intIn } from './pages.js';
import { FIELD_NAME, fieldsOf, isReservedField, type FormWidget } from './fields.js';
import { subTableColumnsOf } from '../../../common/fields.js';
import type { KindConfig, KindMessages } from './kinds.js';
import { findPage, pageWidgets, parseJson, presentWidgets } from './store.js';

const MSG_NO_ENTRY = '填写记录不存在';
const MSG_TIME = (what: string) => `${what}格式不正确（YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss）`;
/** Rows read per query while an export streams. */
export const EXPORT_CHUNK = 500;
const MAX_SEARCH = 100;

export interface EntryColumn {
  field: string;
  title: string;
  /** the widget kind (formInput, formSelect…) */
  kind: string;
  /** choice fields of the current form: their options, so a list can show labels for values */
  options?: Array<{ label: string; value: string | number }>;
  /** a field only older entries have */
  removed?: true;
  /** a sub-table's columns (the list shows its rows as a small table) */
  columns?: Array<{ field: string; title: string; options?: Array<{ label: string; value: string | number }> }>;
}

const formIdProp = { type: ['integer', 'string'], minimum: 1, maximum: 2147483647, pattern: '^[1-9][0-9]{0,9}$', title: '表单编号' } as const;
const timeProp = (title: string) => ({ type: ['string', 'null'], maxLength: 40, title }) as const;
const searchProp = { type: ['string', 'null'], maxLength: MAX_SEARCH, title: '搜索' } as const;
const formIdQuery = { type: 'object', required: ['formId'], properties: { formId: { ...idQuery.properties.id, title: '表单编号' } } } as const;
const exportQuery = {
  type: 'object',
  required: ['formId'],
  properties: { formId: formIdQuery.properties.formId, search: searchProp, beginTime: timeProp('开始时间'), endTime: timeProp('结束时间') },
} as const;
// the list query, with a longer search (values run longer than names) and the form and time filter
const searchBody = {
  ...listQuerySchema({ formId: formIdProp, search: searchProp, beginTime: timeProp('开始时间'), endTime: timeProp('结束时间') }),
  required: ['formId'],
} as const;

interface EntryFilter {
  search?: string | null;
  beginTime?: string | null;
  endTime?: string | null;
}

/**
 * A bound of the time filter as a stored time ('YYYY-MM-DD HH:mm:ss'): a bare date is the start of that
 * day for the beginning and its end for the end. undefined when absent; BizError when malformed.
 */
export function timeBound(v: string | null | undefined, end: boolean, what: string): string | undefined {
  const text = (v ?? '').trim();
  if (!text) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
  if (!m) throw new BizError(MSG_TIME(what));
  const [y, mo, d, h = '00', mi = '00', s = '00'] = m.slice(1);
  const t = new Date(Date.UTC(+y, +mo - 1, +d));
  if (t.getUTCMonth() !== +mo - 1 || t.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) throw new BizError(MSG_TIME(what));
  return m[4] ? text : `${text} ${end ? '23:59:59' : '00:00:00'}`;
}

/** A value as a cell reads it, where the entry kept no text of its own. */
export function textOf(value: unknown, kind?: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (Array.isArray(value)) return kind === 'formDateRange' && value.length === 2 ? `${value[0]} ~ ${value[1]}` : value.map((x) => textOf(x)).join('、');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export function entryRoutes(app: FastifyInstance, cfg: KindConfig, msg: KindMessages) {
  const { db, dialect, schemas } = app.ctx;
  const { perm } = cfg;

  const loadForm = async (id: number) => {
    const page = await findPage(db, dialect, cfg.kind, id);
    if (!page) throw new BizError(msg.notFound);
    return page;
  };

  /** The form's current fields, then the fields only its stored entries name (newest snapshot first). */
  const columnsOf = async (formId: number): Promise<EntryColumn[]> => {
    const widgets = presentWidgets(await pageWidgets(db, formId)).map((w): FormWidget => ({ widgetName: w.widgetName, widgetTitle: w.widgetTitle, viewProps: w.widgetProps.viewProps }));
    const cols: EntryColumn[] = fieldsOf(widgets, { messages: schemas.messages, dicts: await app.dicts.current() }).map((f) => ({
      field: f.field,
      title: f.label,
      kind: f.widgetName,
      ...(f.options ? { options: f.options.map((o) => ({ label: o.label, value: o.value })) } : {}),
      ...(f.kind === 'subTable'
        ? { columns: subTableColumnsOf(f.props).map((c) => ({ field: c.name, title: c.label, ...(c.def.options ? { options: c.def.options.map((o) => ({ label: o.label, value: o.value })) } : {}) })) }
        : {}),
    }));
    const have = new Set(cols.map((c) => c.field));
    // a snapshot changes only when the form does: its distinct versions are few, however many entries
    const snapshots = await db
      .selectFrom('jimu_form_entry')
      .select(['labels', 'kinds', (eb) => eb.fn.max('id').as('last')])
      .where('form_id', '=', formId)
      .groupBy(['labels', 'kinds'])
      .orderBy('last', 'desc')
      .execute();
    for (const snap of snapshots) {
      const labels = asRecord(parseJson(snap.labels, {}));
      const kinds = asRecord(parseJson(snap.kinds, {}));
      for (const [field, label] of Object.entries(labels)) {
        if (have.has(field) || !FIELD_NAME.test(field) || isReservedField(field)) continue;
        have.add(field);
        cols.push({ field, title: typeof label === 'string' && label ? label : field, kind: typeof kinds[field] === 'string' ? (kinds[field] as string) : '', removed: true });
      }
    }
    return cols;
  };

  /** The entries a data scope sees: submitted by a user of its departments, or (仅本人) by the caller. */
  const inScope = <O>(q: SelectQueryBuilder<Database, 'jimu_form_entry', O>, scope: DataScope, username: string) => {
    if (scope.all) return q;
    return q.where((eb) => {
      const ors = [];
      if (scope.deptIds.length) ors.push(eb('create_user', 'in', db.selectFrom('sys_user').select('username').where('dept_id', 'in', scope.deptIds)));
      if (scope.self) ors.push(eb('create_user', '=', username));
      return ors.length ? eb.or(ors) : sql<boolean>`1 = 0`;
    });
  };
  /** The entries of a form matching the filter (search over the values' texts; LIKE wildcards escaped), within the scope. */
  const filtered = <O>(qb: SelectQueryBuilder<Database, 'jimu_form_entry', O>, formId: number, f: EntryFilter, scope: DataScope, username: string) => {
    let q = inScope(qb.where('form_id', '=', formId), scope, username);
    const begin = timeBound(f.beginTime, false, '开始时间');
    const end = timeBound(f.endTime, true, '结束时间');
    if (begin) q = q.where('create_time', '>=', begin);
    if (end) q = q.where('create_time', '<=', end);
    const text = typeof f.search === 'string' ? f.search.trim().toLowerCase() : '';
    // search_text is stored lower-cased by the same JavaScript rules, so any script matches case-insensitively
    if (text) q = q.where(sql<boolean>`search_text like ${likePattern(text)} escape '\\'`);
    return q;
  };

  /** A stored entry as the list answers it: who, when, from where, then the values by field name. */
  const recordOf = (r: { id: number; data: string; create_user: string | null; create_time: string; create_ip: string }) => {
    const out: Record<string, unknown> = { id: r.id, createUser: r.create_user, createTime: r.create_time, createIp: r.create_ip };
    for (const [k, v] of Object.entries(asRecord(parseJson(r.data, {})))) if (FIELD_NAME.test(k) && !isReservedField(k)) out[k] = v;
    return out;
  };

  app.get<{ Querystring: { formId: number } }>('/entry/columns', { config: { perm: perm.list }, schema: { querystring: formIdQuery } }, async (req) => {
    const form = await loadForm(req.query.formId);
    // each answer is also a list column declaration (the entries page declares its columns by this call)
    return ok(
      (await columnsOf(form.id)).map((c) => ({
        ...c,
        ...(c.removed ? { title: `${c.title}（已删除）` } : {}),
        ...(c.kind === 'formImage' ? { type: 'image' } : {}),
        // a sub-table's rows: “n 行”, opened as a small table of its columns
        ...(c.kind === 'formSubTable' ? { type: 'rows' } : {}),
      })),
    );
  });

  app.post<{ Body: EntryFilter & { formId: number | string; pageNum?: number; pageSize?: number; orderByColumn?: string | null; isAsc?: string | null } }>(
    '/entry/search',
    { config: { perm: perm.list }, schema: { body: searchBody } },
    async (req) => {
      const b = req.body;
      const formId = intIn(b.formId, 1, 2147483647);
      if (formId === undefined) throw new BizError('缺少表单编号（formId）');
      await loadForm(formId);
      const win = pageOf(b, { createTime: 'id' });
      const scope = await app.org.scopeOf(req.user);
      const me = req.user!.username;
      const total = await filtered(db.selectFrom('jimu_form_entry').select((eb) => eb.fn.countAll().as('n')), formId, b, scope, me).executeTakeFirst();
      const rows = await filtered(db.selectFrom('jimu_form_entry').select(['id', 'data', 'create_user', 'create_time', 'create_ip']), formId, b, scope, me)
        .orderBy('id', win.order?.dir ?? 'desc')
        .limit(win.limit)
        .offset(win.offset)
        .execute();
      return ok({ records: rows.map(recordOf), total: Number(total?.n ?? 0) });
    },
  );

  app.get<{ Querystring: { id: number } }>('/entry/delete', { config: { perm: perm.remove }, schema: { querystring: idQuery } }, async (req) => {
    // an entry outside the caller's scope is not there for them
    const scope = await app.org.scopeOf(req.user);
    const found = await inScope(db.selectFrom('jimu_form_entry').select(['id', 'form_id']).where('id', '=', req.query.id), scope, req.user!.username).executeTakeFirst();
    // nor is an entry of a form waiting in the recycle bin (issue 37): it goes back with its form
    if (!found || !(await findPage(db, dialect, cfg.kind, Number(found.form_id)))) throw new BizError(MSG_NO_ENTRY);
    const r = await db.transaction().execute(async (trx) => {
      // its images are left to the sweep (formImages.ts) unless another entry names them
      await trx.deleteFrom('jimu_form_entry_image').where('entry_id', '=', req.query.id).execute();
      return trx.deleteFrom('jimu_form_entry').where('id', '=', req.query.id).executeTakeFirst();
    });
    if (Number(r.numDeletedRows) === 0) throw new BizError(MSG_NO_ENTRY);
    return ok(null, '删除成功');
  });

  app.get<{ Querystring: EntryFilter & { formId: number } }>('/entry/export', { config: { perm: perm.list }, schema: { querystring: exportQuery } }, async (req, reply) => {
    const q = req.query;
    const form = await loadForm(q.formId);
    const cols = await columnsOf(form.id);
    const scope = await app.org.scopeOf(req.user);
    const me = req.user!.username;
    filtered(db.selectFrom('jimu_form_entry').select('id'), form.id, q, scope, me); // the filter's faults, before anything is sent
    const header = ['编号', '提交人', '提交时间', '提交IP', ...cols.map((c) => (c.removed ? `${c.title}（已删除）` : c.title))];
    const line = csvLine;
    const store: Kysely<Database> = db;
    let rows = 0;
    async function* csv() {
      yield `${CSV_BOM}${line(header)}`;
      // newest first, a chunk at a time (keyed on the id, so entries arriving meanwhile shift nothing)
      let before: number | undefined;
      for (;;) {
        let page = filtered(store.selectFrom('jimu_form_entry').select(['id', 'data', 'kinds', 'texts', 'create_user', 'create_time', 'create_ip']), form.id, q, scope, me);
        if (before !== undefined) page = page.where('id', '<', before);
        const chunk = await page.orderBy('id', 'desc').limit(EXPORT_CHUNK).execute();
        if (!chunk.length) break;
        let out = '';
        for (const r of chunk) {
          const data = asRecord(parseJson(r.data, {}));
          const texts = asRecord(parseJson(r.texts, {}));
          const kinds = asRecord(parseJson(r.kinds, {}));
          const cells = cols.map((c) => (typeof texts[c.field] === 'string' && Object.hasOwn(texts, c.field) ? (texts[c.field] as string) : textOf(Object.hasOwn(data, c.field) ? data[c.field] : undefined, (kinds[c.field] as string) ?? c.kind)));
          out += line([String(r.id), r.create_user ?? '', r.create_time, r.create_ip, ...cells]);
        }
        rows += chunk.length;
        yield out;
        before = Number(chunk[chunk.length - 1].id);
      }
      req.log.info({ formId: form.id, rows }, 'form entries exported');
    }
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachment(`${form.page_name}-填写记录.csv`, `form-${form.id}-entries.csv`))
      .header('cache-control', 'no-store');
    return reply.send(Readable.from(csv()));
  });
}
