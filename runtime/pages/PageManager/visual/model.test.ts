import supplier from '../../../../schemas/examples/supplier.page.json';
import { checkDeclaration } from '../validate';
import {
  addAction, addField, columnRows, hideColumn, kindOf, moveColumn, moveField, readField, removeField, renameField, showColumn, updateColumn, updateScope, updateSearch, writeField, updateRelation, updateDetail, removeDetail, type Decl,
} from './model';

const decl = () => structuredClone(supplier) as unknown as Decl;
const ok = (d: Decl) => {
  const r = checkDeclaration(JSON.stringify(d), ['ftp'], ['YES_OR_NO']);
  expect(r.ok ? [] : r.faults).toEqual([]);
};

describe('visual page editor model', () => {
  it('reads a field as the panel shows it, and writing it back unchanged changes nothing', () => {
    const d = decl();
    const phone = readField(d, 'phone');
    expect(phone).toMatchObject({ name: 'phone', kind: 'text', title: '手机号', maxLength: 11, pattern: '^1[3-9]\\d{9}$', patternMessage: '请输入正确的手机号码', required: false });
    expect(readField(d, 'name')).toMatchObject({ required: true, requiredMessage: '请输入名称', maxLength: 50, maxLengthMessage: '名称不能超过50个字符' });
    expect(readField(d, 'status')).toMatchObject({ kind: 'radio', dict: 'YES_OR_NO', default: '1' });
    for (const n of ['name', 'phone', 'status', 'remark']) expect(writeField(d, n, readField(d, n))).toEqual(d);
  });

  it('writes rules with their Chinese messages, defaults and read-only in edit', () => {
    let d = decl();
    d = writeField(d, 'remark', { ...readField(d, 'remark'), required: true, requiredMessage: '请填写备注', maxLength: 200, maxLengthMessage: '备注最多200字', pattern: '^\\S', patternMessage: '不能以空格开头', default: '无', lockedInEdit: true });
    const p = d.dialog!.schema.properties.remark;
    expect(p.maxLength).toBe(200);
    expect(p['x-validator']).toEqual([{ required: true, message: '请填写备注' }, { maxLength: 200, message: '备注最多200字' }, { pattern: '^\\S', message: '不能以空格开头' }]);
    expect(d.dialog!.defaults).toEqual({ status: 1, remark: '无' });
    expect(d.dialog!.lockedInEdit).toEqual(['remark']);
    expect(readField(d, 'remark')).toMatchObject({ required: true, requiredMessage: '请填写备注', maxLength: 200, pattern: '^\\S', default: '无', lockedInEdit: true });
    // and off again
    d = writeField(d, 'remark', { ...readField(d, 'remark'), required: false, pattern: undefined, patternMessage: undefined, maxLengthMessage: undefined, default: undefined, lockedInEdit: false });
    expect(d.dialog!.schema.properties.remark['x-validator']).toBeUndefined();
    expect(d.dialog!.lockedInEdit).toBeUndefined();
    ok(d);
  });

  it('changes a field kind: numbers get ranges, a dictionary select takes its value type, date-time shows time', () => {
    let d = decl();
    d = writeField(d, 'phone', { ...readField(d, 'phone'), kind: 'integer', minimum: 1, minimumMessage: '至少为1', maximum: 99 });
    const p = d.dialog!.schema.properties.phone;
    expect(p).toMatchObject({ type: 'integer', minimum: 1, maximum: 99, 'x-validator': [{ minimum: 1, message: '至少为1' }] });
    expect(p.maxLength).toBeUndefined();
    expect(kindOf(p)).toBe('integer');
    d = writeField(d, 'phone', { ...readField(d, 'phone'), kind: 'select', dict: 'YES_OR_NO' }, { YES_OR_NO: [{ value: 0 }, { value: 1 }] });
    expect(d.dialog!.schema.properties.phone).toMatchObject({ type: 'integer', 'x-component': 'Select', 'x-dict': 'YES_OR_NO' });
    d = writeField(d, 'phone', { ...readField(d, 'phone'), kind: 'datetime' });
    expect(d.dialog!.schema.properties.phone).toMatchObject({ type: 'string', 'x-component': 'DatePicker', 'x-component-props': { showTime: true } });
    expect(d.dialog!.schema.properties.phone['x-dict']).toBeUndefined();
    expect(kindOf(d.dialog!.schema.properties.phone)).toBe('datetime');
    ok(d);
  });

  it('renames a field everywhere the page names it; adds, moves and removes fields', () => {
    let d = renameField(decl(), 'name', 'supplierName');
    expect(Object.keys(d.dialog!.schema.properties)).toEqual(['supplierName', 'phone', 'status', 'remark']);
    expect(d.columns[1].field).toBe('supplierName');
    expect(d.search!.fields).toEqual(['supplierName']);
    expect(d.nameField).toBe('supplierName');
    const added = addField(d);
    d = moveField(added.decl, 4, 0);
    expect(Object.keys(d.dialog!.schema.properties)[0]).toBe(added.name);
    d = removeField(d, 'phone');
    expect(d.columns.some((c) => c.field === 'phone')).toBe(false);
    ok(d);
  });

  it('shows, hides, moves and edits columns', () => {
    let d = decl();
    d = hideColumn(d, 2); // 手机号
    const hidden = columnRows(d).find((r) => r.field === 'phone')!;
    expect(hidden.index).toBeNull();
    d = showColumn(d, hidden);
    expect(d.columns.map((c) => c.title)).toEqual(['序号', '名称', '状态', '备注', '手机号', '操作']);
    d = moveColumn(d, 4, 2);
    d = updateColumn(d, 2, { title: '电话', width: 120, fixed: 'left', sortable: true, format: undefined });
    expect(d.columns[2]).toEqual({ title: '电话', field: 'phone', width: 120, fixed: 'left', sortable: true });
    d = updateColumn(d, 2, { sortable: false });
    expect(d.columns[2].sortable).toBeUndefined();
    d = updateSearch(d, { fields: ['name', 'phone'], placeholder: '名称或电话' });
    expect(d.search).toMatchObject({ fields: ['name', 'phone'], placeholder: '名称或电话', maxLength: 20 });
    d = addAction(d, 'toolbar');
    expect(d.toolbar!.map((a) => a.action)).toEqual(['add', 'import']);
    ok(d);
  });

  it('picks the data scope’s owner and department columns of a page on a table, and clears them', () => {
    const onTable = { ...decl(), source: { dsId: 1, table: 'supplier', kind: 'table', key: 'id' } } as unknown as Decl;
    let d = updateScope(onTable, { ownerColumn: 'name', deptColumn: 'phone' });
    expect(d.source).toMatchObject({ ownerColumn: 'name', deptColumn: 'phone' });
    ok(d);
    d = updateScope(d, { ownerColumn: undefined });
    expect(d.source).toEqual({ dsId: 1, table: 'supplier', kind: 'table', key: 'id', deptColumn: 'phone' });
    // a page without a table has no such columns
    expect(updateScope(decl(), { ownerColumn: 'name' }).source).toBeUndefined();
  });

  it('declares a field’s related table (shown by its label, picked in the related select) and removes it', () => {
    const onTable = { ...decl(), source: { dsId: 1, table: 'supplier', kind: 'table', key: 'id' } } as unknown as Decl;
    // incomplete: nothing written until table, key and label are all chosen
    expect((updateRelation(onTable, 'phone', { table: 'area' }).source as any).relations).toBeUndefined();
    let d = updateRelation(onTable, 'phone', { table: 'area', key: 'id', label: 'name' });
    expect((d.source as any).relations).toEqual({ phone: { table: 'area', key: 'id', label: 'name' } });
    expect(d.columns.find((c) => c.field === 'phone')).toMatchObject({ textField: 'phone__label' });
    expect((d.dialog!.schema.properties as any).phone).toMatchObject({ 'x-component': 'RelationSelect', 'x-component-props': { field: 'phone' } });
    ok(d);
    d = updateRelation(d, 'phone', {});
    expect((d.source as any).relations).toBeUndefined();
    expect(d.columns.find((c) => c.field === 'phone')!.textField).toBeUndefined();
    expect((d.dialog!.schema.properties as any).phone['x-component']).toBeUndefined();
  });

  it('edits and removes a detail of the dialog', () => {
    const withDetail = { ...decl(), dialog: { ...decl().dialog, details: [{ name: 'lines', title: 'lines', table: 'line', key: 'id', foreignKey: 'order_id', onDelete: 'refuse', schema: { type: 'object', properties: {} } }] } } as unknown as Decl;
    let d = updateDetail(withDetail, 0, { title: '订单明细', onDelete: 'cascade', maxRows: 50 });
    expect((d.dialog as any).details[0]).toMatchObject({ title: '订单明细', onDelete: 'cascade', maxRows: 50 });
    d = removeDetail(d, 0);
    expect((d.dialog as any).details).toBeUndefined();
  });
});
