// The dataset editor's pure edits: a stored dataset read into the draft and written back unchanged, what is missing
// before a call, proposed fields merged with edited ones, join tables added / picked / removed, calculated fields
// checked with the server's parser and messages, and a server refusal placed at its field.
import { describe, expect, it } from 'vitest';
import type { DatasetField } from '../../../common/dataset';
import { addJoinTable, draftOf, emptyDraft, exprFault, faultedField, fieldFault, freeName, mergeFields, missing, pickJoinTable, previewBody, removeJoinTable, saveBody, sourceMissing, type DatasetInfo, type Draft } from './model';

const col = (name: string, more: Partial<DatasetField> = {}): DatasetField => ({ name, label: name, type: 'text', role: 'dimension', column: name, ...more });

describe('dataset editor model', () => {
  it('reads a stored dataset of each kind into the draft and saves the same definition back', () => {
    const table: DatasetInfo = { id: 1, groupId: 3, name: '销售', kind: 'table', dsId: 2, cacheTtl: 0, definition: { table: { schema: null, table: 'sales' } }, fields: [col('province', { label: '省份' })], rowRules: [{ subject: 'user', key: 'developer', field: 'province', values: ['浙江'] }, { subject: 'role', key: 'default', field: 'province', attribute: 'username' }] };
    const d = draftOf(table);
    expect(d.table).toEqual({ name: 'sales', schema: null, table: 'sales' });
    expect(d.cacheTtl).toBe(0);
    expect(d.rules.map((r) => r.mode)).toEqual(['values', 'username']);
    const body = saveBody(d, 1);
    expect(body).toMatchObject({ id: 1, groupId: 3, name: '销售', kind: 'table', dsId: 2, definition: { table: { schema: null, table: 'sales' } }, cacheTtl: 0 });
    expect(body.fields).toEqual([{ name: 'province', label: '省份', type: 'text', role: 'dimension', format: null, column: 'province' }]);
    expect(body.rowRules).toEqual([
      { subject: 'user', key: 'developer', field: 'province', values: ['浙江'] },
      { subject: 'role', key: 'default', field: 'province', attribute: 'username' },
    ]);

    const joins = { tables: [{ alias: 't0', schema: 'shop', table: 'sales' }, { alias: 't1', schema: 'shop', table: 'regions' }], joins: [{ type: 'left', left: { alias: 't0', column: 'province' }, right: { alias: 't1', column: 'province' } }] };
    const j = draftOf({ ...table, kind: 'join', definition: joins, fields: [col('region', { table: 't1' })], rowRules: [] });
    expect(j.tables.map((t) => t?.name)).toEqual(['shop.sales', 'shop.regions']);
    expect(previewBody(j).definition).toEqual(joins);
    expect(saveBody(j, 1).fields[0]).toMatchObject({ column: 'region', table: 't1' });

    const s = draftOf({ ...table, kind: 'sql', definition: { sql: 'select 1 as x where 1 > :min', params: [{ name: 'min', value: 40 }, { name: 'tag', value: 'a' }] }, fields: [col('x')], rowRules: [] });
    expect(s.params).toEqual([{ paramName: 'min', paramType: 'integer', paramValue: '40' }, { paramName: 'tag', paramType: 'string', paramValue: 'a' }]);
    expect(previewBody(s).definition).toEqual({ sql: 'select 1 as x where 1 > :min', params: [{ name: 'min', value: 40 }, { name: 'tag', value: 'a' }] });
  });

  it('says what is missing, in Chinese, before any call', () => {
    const d: Draft = emptyDraft();
    expect(missing(d)).toBe('请输入数据集名称');
    expect(missing(d, true)).toBe('请选择数据源');
    d.name = '销售';
    d.dsId = 1;
    expect(missing(d)).toBe('请选择数据表');
    d.table = { name: 'sales', schema: null, table: 'sales' };
    expect(missing(d)).toBe('请先读取字段（数据集至少要有一个字段）');
    d.fields = [col('amount', { label: ' ' })];
    expect(missing(d)).toBe('字段「 」：请输入标签');
    d.fields = [col('amount')];
    d.rules = [{ subject: 'role', key: '', field: '', mode: 'values', values: [] }];
    expect(missing(d)).toBe('第 1 条行权限规则：请输入角色标识');
    d.rules = [{ subject: 'user', key: 'dev', field: 'amount', mode: 'values', values: [] }];
    expect(missing(d)).toBe('第 1 条行权限规则：请填写允许的取值');
    d.rules = [{ subject: 'user', key: 'dev', field: 'amount', mode: 'username', values: [] }];
    expect(missing(d)).toBeNull();
    const j: Draft = { ...emptyDraft(), kind: 'join', dsId: 1 };
    expect(sourceMissing(j)).toBe('请选择第 1 张表');
    const picked = pickJoinTable(pickJoinTable(j, 0, { name: 'a', schema: null, table: 'a' }), 1, { name: 'b', schema: null, table: 'b' });
    expect(sourceMissing(picked)).toBe('请选择第 2 张表的连接条件（两边的列）');
    expect(sourceMissing({ ...emptyDraft(), kind: 'sql', dsId: 1, sql: 'select 1', params: [{ paramName: '1x', paramType: 'string' }] })).toBe('参数名不合法：1x');
  });

  it('merges proposed fields: edited labels, types and roles stay, calculated fields stay, gone columns go', () => {
    const current = [col('province', { label: '省份', role: 'dimension' }), col('amount', { label: '销售额', type: 'number', role: 'dimension', format: '0,0' }), col('gone'), { name: 'unit', label: '单价', type: 'number' as const, role: 'measure' as const, expr: 'amount / 2' }];
    const proposed = [col('province'), col('amount', { type: 'number', role: 'measure' }), col('city')];
    const merged = mergeFields(current, proposed);
    expect(merged.map((f) => [f.name, f.label, f.role])).toEqual([
      ['province', '省份', 'dimension'],
      ['amount', '销售额', 'dimension'],
      ['city', 'city', 'dimension'],
      ['unit', '单价', 'measure'],
    ]);
    expect(merged[1].format).toBe('0,0');
    expect(freeName(merged)).toBe('calc_1');
    expect(freeName([...merged, { ...merged[3], name: 'calc_1' }])).toBe('calc_2');
  });

  it('adds, picks and removes join tables: aliases stay unique, steps naming a changed table reopen', () => {
    let d: Draft = { ...emptyDraft(), kind: 'join', dsId: 1 };
    d = pickJoinTable(d, 0, { name: 'sales', schema: null, table: 'sales' });
    d = pickJoinTable(d, 1, { name: 'regions', schema: null, table: 'regions' });
    d = addJoinTable(d);
    d = pickJoinTable(d, 2, { name: 'cities', schema: null, table: 'cities' });
    expect(d.tables.map((t) => t?.alias)).toEqual(['t0', 't1', 't2']);
    d.steps = [
      { type: 'inner', left: { alias: 't0', column: 'province' }, right: { alias: 't1', column: 'province' } },
      { type: 'left', left: { alias: 't1', column: 'region' }, right: { alias: 't2', column: 'region' } },
    ];
    d.fields = [col('region', { table: 't1' }), col('city', { table: 't2' })];
    // another table in slot 1: the conditions on its columns reopen
    const changed = pickJoinTable(d, 1, { name: 'areas', schema: null, table: 'areas' });
    expect(changed.steps[0].right).toBeNull();
    expect(changed.steps[1].left).toBeNull();
    // removing the third table drops its step and its fields
    const removed = removeJoinTable(d, 2);
    expect(removed.tables.length).toBe(2);
    expect(removed.steps.length).toBe(1);
    expect(removed.fields.map((f) => f.name)).toEqual(['region']);
    // a join keeps two tables at least
    expect(removeJoinTable(removed, 1)).toBe(removed);
    // a table removed in the middle leaves its alias free; a new pick never takes one in use
    const again = pickJoinTable(addJoinTable(removeJoinTable(d, 1)), 2, { name: 'x', schema: null, table: 'x' });
    expect(new Set(again.tables.map((t) => t?.alias)).size).toBe(3);
  });

  it('checks calculated fields with the server’s parser and words, and places a server refusal at its field', () => {
    const fields = [col('amount', { label: '销售额', type: 'number', role: 'measure' }), col('qty', { type: 'number' })];
    expect(exprFault({ name: 'unit', label: '单价', expr: 'round([销售额] / qty, 2)' }, fields)).toBeNull();
    expect(exprFault({ name: 'x', label: 'x', expr: "case when amount >= 70 then '大' else '小' end" }, fields)).toBeNull();
    expect(exprFault({ name: 'x', label: 'x', expr: 'amount; drop table sales' }, fields)).toBe('表达式第 7 个字符处：不允许的字符「;」：表达式不是 SQL');
    expect(exprFault({ name: 'x', label: 'x', expr: 'pg_sleep(5)' }, fields)).toMatch(/^表达式第 1 个字符处：未知函数「pg_sleep」/);
    expect(exprFault({ name: 'x', label: 'x', expr: '(select max(amount) from sales)' }, fields)).toMatch(/数据集中没有字段「select」/);
    expect(exprFault({ name: 'x', label: 'x', expr: 'x + 1' }, [...fields, { name: 'x', label: 'x', type: 'number', role: 'measure', expr: 'x + 1' }])).toBe('计算字段「x」引用了自己（循环引用）');
    expect(fieldFault({ name: '1bad', label: 'a', type: 'text', role: 'dimension', expr: 'amount' }, fields)).toMatch(/字段名只能包含/);
    const calc = { name: 'bad', label: '坏', type: 'number' as const, role: 'measure' as const, expr: 'amount -- x' };
    expect(faultedField('计算字段「坏」：表达式第 8 个字符处：不允许 SQL 注释：表达式不是 SQL', [...fields, calc])).toBe(calc);
    expect(faultedField('请选择数据表', [...fields, calc])).toBeUndefined();
  });
});
