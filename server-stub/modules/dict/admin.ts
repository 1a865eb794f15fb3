// 系统管理 › 字典管理 (issue 21 item 4): the dictionary types and their entries as the store holds them (the `dicts`
// platform service, core/dicts.ts), edited through the declared pages dictType and dictData (schemas/pages).
// Every write ends with app.dicts.changed(), so every instance answers the edit on its next read. A type shipped
// in schemas/dicts cannot be deleted (重置 writes its file back) and keeps its value type.
import type { FastifyInstance } from 'fastify';
import { assertPermission } from '../../core/auth.js';
import { deleteEntryTree, dictEntries, dictTypes, DICT_TYPE_PATTERN, writeDict } from '../../core/dicts.js';
import { checkBody, idQuery, optionalId, requirePage, bodySchemaOf } from '../../core/declarations.js';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema } from '../../core/list.js';
import type { ListQuery } from '../../core/tables.js';

const NUMBER_TEXT = /^-?(0|[1-9]\d{0,14})(\.\d{1,6})?$/;
const TYPE_RE = new RegExp(DICT_TYPE_PATTERN);

export function dictAdminRoutes(app: FastifyInstance): void {
  const { db } = app.ctx;
  const typePage = requirePage(app.ctx.schemas.pages, 'dictType');
  const dataPage = requirePage(app.ctx.schemas.pages, 'dictData');
  const types = dictTypes.on(db, { page: typePage });
  const entries = dictEntries.on(db, { page: dataPage, filters: ['dictType'] });
  const isShipped = (type: string) => Object.hasOwn(app.dicts.shipped, type);
  const typeAnswer = (row: Record<string, any>, count: number) => ({ ...dictTypes.answer(row), shipped: isShipped(row.dict_type) ? 1 : 0, entryCount: count });
  const countsOf = async (list: string[]) => {
    if (!list.length) return new Map<string, number>();
    const rows = await db.selectFrom('sys_dict_data').select(['dict_type', (eb) => eb.fn.countAll<number>().as('n')]).where('dict_type', 'in', list).groupBy('dict_type').execute();
    return new Map(rows.map((r) => [r.dict_type, Number(r.n)]));
  };
  const typeById = async (id: number) => {
    const row = await types.get(id);
    if (!row) throw new BizError('字典类型不存在');
    return row;
  };
  const typeByKey = async (type: unknown) => {
    const row = typeof type === 'string' ? await types.findBy('dictType', type) : undefined;
    if (!row) throw new BizError('字典类型不存在');
    return row;
  };

  /* ---------------------------------------------------------------- types */

  app.post<{ Body: ListQuery }>('/admin/type/list', { config: { perm: 'system:dict:list' }, schema: { body: listQuerySchema() } }, async (req) => {
    const { records, total } = await types.list(req.body ?? {});
    const counts = await countsOf(records.map((r) => r.dictType));
    return ok({ records: records.map((r) => ({ ...r, shipped: isShipped(r.dictType) ? 1 : 0, entryCount: counts.get(r.dictType) ?? 0 })), total });
  });

  app.get<{ Querystring: { id: number } }>('/admin/type/get', { config: { perm: 'system:dict:list' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await typeById(req.query.id);
    return ok(typeAnswer(row, (await countsOf([row.dict_type])).get(row.dict_type) ?? 0));
  });

  app.post<{ Body: Record<string, any> }>(
    '/admin/type/save',
    { config: { perm: 'system:dict:list' }, schema: { body: bodySchemaOf(typePage, { id: optionalId('编号') }) } },
    async (req) => {
      const body = req.body;
      const id: number | undefined = body.id ?? undefined;
      assertPermission(req, id ? 'system:dict:edit' : 'system:dict:add');
      const stored = id ? await typeById(id) : undefined;
      const rec = checkBody(typePage, body, { dicts: await app.dicts.current(), applyDefaults: !stored }) as Record<string, any>;
      // the two kinds of value the store answers, whatever DICT_VALUE_TYPE has been edited to hold
      if (rec.valueType !== 'string' && rec.valueType !== 'number') throw new BizError('值类型只能是文本或数字');
      if (stored) rec.dictType = stored.dict_type; // the key pages name: fixed once made
      else if (typeof rec.dictType !== 'string' || !TYPE_RE.test(rec.dictType)) throw new BizError('字典类型以大写字母开头，只能包含大写字母、数字和下划线，2–64 个字符');
      if (stored && rec.valueType !== stored.value_type) {
        if (isShipped(stored.dict_type)) throw new BizError(`内置字典【${stored.dict_type}】的值类型不能修改`);
        if (rec.valueType === 'number') {
          const texts = await db.selectFrom('sys_dict_data').select('dict_value').where('dict_type', '=', stored.dict_type).execute();
          const bad = texts.find((t) => !NUMBER_TEXT.test(t.dict_value));
          if (bad) throw new BizError(`字典值【${bad.dict_value}】不是数字，不能改为数字类型`);
        }
      }
      const saved = await types.save(stored, rec);
      await app.dicts.changed();
      return ok(saved, '保存成功');
    },
  );

  app.post<{ Querystring: { id: number } }>('/admin/type/delete', { config: { perm: 'system:dict:remove' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await typeById(req.query.id);
    if (isShipped(row.dict_type)) throw new BizError(`内置字典【${row.dict_type}】不能删除，可以重置为内置取值`);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_dict_data').where('dict_type', '=', row.dict_type).execute();
      await trx.deleteFrom('sys_dict_type').where('id', '=', row.id).execute();
    });
    await app.dicts.changed();
    return ok(null, '删除成功');
  });

  // 重置: the shipped file's name, value type and entries, the type's others deleted
  app.post<{ Querystring: { id: number } }>('/admin/type/reset', { config: { perm: 'system:dict:edit' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await typeById(req.query.id);
    const shipped = app.dicts.shipped[row.dict_type];
    if (!Object.hasOwn(app.dicts.shipped, row.dict_type) || !shipped) throw new BizError(`字典【${row.dict_type}】不是内置字典，无法重置`);
    await db.transaction().execute((trx) => writeDict(trx, shipped));
    await app.dicts.changed();
    return ok(null, '重置成功');
  });

  // 全部重置: every shipped type as its file says (types the admins added stay as they are)
  app.post('/admin/type/resetAll', { config: { perm: 'system:dict:edit' } }, async () => {
    await db.transaction().execute(async (trx) => {
      for (const d of Object.values(app.dicts.shipped)) await writeDict(trx, d);
    });
    await app.dicts.changed();
    return ok(null, '重置成功');
  });

  /* ---------------------------------------------------------------- entries */

  const typeKey = { type: 'string', maxLength: 64, pattern: DICT_TYPE_PATTERN, title: '字典类型' } as const;

  // one type's entries as flat rows (parentId: the parent entry's id, null at the top); the page nests them
  app.post<{ Body: ListQuery & { dictType: string } }>(
    '/admin/data/list',
    { config: { perm: 'system:dict:list' }, schema: { body: { ...listQuerySchema({ dictType: typeKey }), required: ['dictType'] } } },
    async (req) => ok(await entries.list(req.body)),
  );

  app.get<{ Querystring: { id: number } }>('/admin/data/get', { config: { perm: 'system:dict:list' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await entries.get(req.query.id);
    if (!row) throw new BizError('字典项不存在');
    return ok(dictEntries.answer(row));
  });

  app.post<{ Body: Record<string, any> }>(
    '/admin/data/save',
    { config: { perm: 'system:dict:list' }, schema: { body: bodySchemaOf(dataPage, { id: optionalId('编号'), parentId: optionalId('上级字典项', 0), dictType: { ...typeKey, type: ['string', 'null'] } }) } },
    async (req) => {
      const body = req.body;
      const id: number | undefined = body.id ?? undefined;
      assertPermission(req, id ? 'system:dict:edit' : 'system:dict:add');
      const stored = id ? await entries.get(id) : undefined;
      if (id && !stored) throw new BizError('字典项不存在');
      const type = await typeByKey(stored ? stored.dict_type : body.dictType);
      const rec = checkBody(dataPage, body, { dicts: await app.dicts.current(), applyDefaults: !stored }) as Record<string, any>;
      rec.dictType = type.dict_type; // an entry stays in its type
      const text = String(rec.dictValue).trim();
      if (type.value_type === 'number') {
        if (!NUMBER_TEXT.test(text)) throw new BizError('字典值必须是数字');
        rec.dictValue = String(Number(text));
      } else rec.dictValue = text;
      const parentId: number | null = body.parentId || null;
      if (parentId) {
        const parent = await entries.get(parentId);
        if (!parent || parent.dict_type !== type.dict_type) throw new BizError('上级字典项不存在');
        // not itself, nor below itself
        for (let at: Record<string, any> | undefined = parent, depth = 0; at && depth < 64; depth++) {
          if (stored && at.id === stored.id) throw new BizError('上级字典项不能是它自己或它的下级');
          at = at.parent_id ? await entries.get(at.parent_id) : undefined;
        }
      }
      rec.parentId = parentId;
      if (!stored && (rec.orderNum === undefined || rec.orderNum === null)) {
        // no order given: after its siblings
        const last = await db.selectFrom('sys_dict_data').select((eb) => eb.fn.max('order_num').as('n')).where('dict_type', '=', type.dict_type).where((eb) => (parentId ? eb('parent_id', '=', parentId) : eb('parent_id', 'is', null))).executeTakeFirst();
        rec.orderNum = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
      }
      const saved = await entries.save(stored, rec);
      await app.dicts.changed();
      return ok(saved, '保存成功');
    },
  );

  // an entry and every entry below it
  app.post<{ Querystring: { id: number } }>('/admin/data/delete', { config: { perm: 'system:dict:remove' }, schema: { querystring: idQuery } }, async (req) => {
    const row = await entries.get(req.query.id);
    if (!row) throw new BizError('字典项不存在');
    await db.transaction().execute((trx) => deleteEntryTree(trx, row.id));
    await app.dicts.changed();
    return ok(null, '删除成功');
  });
}
