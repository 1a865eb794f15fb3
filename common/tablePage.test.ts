import { columnsNamedBy, generateTablePage, numericRange, pageKeyOf, valueKindOf, type CatalogueColumn, type TableCatalogue } from './tablePage';

const col = (name: string, dataType: string, more: Partial<CatalogueColumn> = {}): CatalogueColumn => ({ name, dataType, nullable: true, maxLength: null, precision: null, scale: null, defaultValue: null, primaryKey: false, autoIncrement: false, ...more });
const supplier: TableCatalogue = {
  dialect: 'postgresql',
  schema: 'public',
  table: 'supplier',
  kind: 'table',
  columns: [
    col('id', 'integer', { nullable: false, primaryKey: true, autoIncrement: true, precision: 32, scale: 0 }),
    col('name', 'character varying', { nullable: false, maxLength: 50 }),
    col('level', 'character varying', { maxLength: 10 }),
    col('price', 'numeric', { precision: 8, scale: 2 }),
    col('active', 'boolean', { nullable: false, defaultValue: 'true' }),
    col('born', 'date'),
    col('seen', 'timestamp without time zone'),
    col('remark', 'text'),
  ],
};
const opts = { pageKey: 't_supplier', dsId: 3, dsName: 'shop' };

describe('page declarations from a table catalogue', () => {
  it('reads kinds from the types of every dialect', () => {
    expect(valueKindOf(col('a', 'tinyint(1)'))).toBe('boolean');
    expect(valueKindOf(col('a', 'int(11) unsigned'))).toBe('integer');
    expect(valueKindOf(col('a', 'bigint'))).toBe('integer');
    expect(valueKindOf(col('a', 'decimal', { precision: 10, scale: 2 }))).toBe('number');
    expect(valueKindOf(col('a', 'numeric', { precision: 10, scale: 0 }))).toBe('integer');
    expect(valueKindOf(col('a', 'double precision'))).toBe('number');
    expect(valueKindOf(col('a', 'datetime'))).toBe('datetime');
    expect(valueKindOf(col('a', 'timestamp with time zone'))).toBe('datetime');
    expect(valueKindOf(col('a', 'date'))).toBe('date');
    expect(valueKindOf(col('a', 'varchar(20)'))).toBe('text');
    expect(valueKindOf(col('a', 'bytea'))).toBe('other');
    expect(numericRange(col('a', 'numeric', { precision: 5, scale: 2 }))).toEqual({ minimum: -999.99, maximum: 999.99 });
    expect(numericRange(col('a', 'tinyint unsigned'))).toEqual({ minimum: 0, maximum: 255 });
    expect(pageKeyOf('Order Items')).toBe('t_order_Items');
  });

  it('answers columns with formats, dialog fields with kinds, rules with Chinese messages, the key and search fields', () => {
    const r = generateTablePage(supplier, opts);
    if (!r.ok) throw new Error(r.reason);
    const d = r.declaration;
    expect(d.rowKey).toBe('id');
    expect(d.source).toEqual({ dsId: 3, dsName: 'shop', table: 'supplier', schema: 'public', kind: 'table', key: 'id' });
    expect(d.api.search).toBe('POST /lowcode/data/t_supplier/search');
    expect(d.api.add).toBe('POST /lowcode/data/t_supplier/add');
    expect(d.perms).toMatchObject({ list: 'lowcode:t_supplier:list', remove: 'lowcode:t_supplier:remove' });
    const byField = Object.fromEntries(d.columns.filter((c: any) => c.field).map((c: any) => [c.field, c]));
    expect(byField.born.format).toBe('date');
    expect(byField.seen.format).toBe('datetime');
    expect(byField.active.format).toBe('yesno');
    const p = d.dialog.schema.properties;
    expect(p.id).toBeUndefined(); // identity: the database fills it
    expect(p.name).toMatchObject({ type: 'string', maxLength: 50, 'x-validator': [{ required: true, message: '请输入name' }, { maxLength: 50, message: 'name不能超过50个字符' }] });
    expect(p.price).toMatchObject({ type: 'number', 'x-component': 'NumberPicker', minimum: -999999.99, maximum: 999999.99 });
    expect(p.price['x-validator']).toContainEqual({ maximum: 999999.99, message: 'price不能大于999999.99' });
    expect(p.active).toMatchObject({ type: 'boolean', 'x-component': 'Switch' });
    expect(p.active['x-validator']).toBeUndefined(); // NOT NULL with a default: not required
    expect(p.born).toMatchObject({ type: 'string', 'x-component': 'DatePicker' });
    expect(p.seen['x-component-props']).toMatchObject({ showTime: true });
    expect(d.search.fields).toEqual(['name', 'level', 'remark']);
    expect(columnsNamedBy(d).sort()).toEqual(['active', 'born', 'id', 'level', 'name', 'price', 'remark', 'seen']);
  });

  it('makes a short text column a select when asked, and refuses what cannot be one', () => {
    const r = generateTablePage(supplier, { ...opts, selects: { level: ['A', 'B'] } });
    if (!r.ok) throw new Error(r.reason);
    expect(r.declaration.dialog.schema.properties.level).toMatchObject({ 'x-component': 'Select', enum: [{ label: 'A', value: 'A' }, { label: 'B', value: 'B' }] });
    expect(r.declaration.search.fields).not.toContain('level');
    const many = generateTablePage(supplier, { ...opts, selects: { level: Array.from({ length: 21 }, (_, i) => `v${i}`) } });
    expect(many).toEqual({ ok: false, reason: '列「level」的不同取值超过20个，不能作为下拉选择' });
    expect(generateTablePage(supplier, { ...opts, selects: { price: [1] } })).toMatchObject({ ok: false, reason: '列「price」不是文本列，不能作为下拉选择' });
    expect(generateTablePage(supplier, { ...opts, selects: { nope: ['x'] } })).toMatchObject({ ok: false });
  });

  it('refuses a table without a primary key, with the reason; a view gives a read-only page', () => {
    const noKey = { ...supplier, table: 'x', schema: null, columns: supplier.columns.map((c) => ({ ...c, primaryKey: false })) };
    expect(generateTablePage(noKey, opts)).toEqual({ ok: false, reason: '表「x」没有主键，无法生成可编辑页面' });
    const two = { ...supplier, columns: supplier.columns.map((c) => ({ ...c, primaryKey: c.name === 'id' || c.name === 'name' })) };
    expect(generateTablePage(two, opts)).toMatchObject({ ok: false, reason: expect.stringContaining('多列') });
    const view = generateTablePage({ ...noKey, kind: 'view' }, opts);
    if (!view.ok) throw new Error(view.reason);
    expect(view.declaration.api.save).toBeUndefined();
    expect(view.declaration.api.delete).toBeUndefined();
    expect(view.declaration.toolbar).toEqual([]);
    expect(view.declaration.rowActions).toEqual([]);
    expect(view.declaration.perms.add).toBeUndefined();
    expect(view.declaration.rowKey).toBe('id');
    expect(view.notes[0]).toContain('视图');
  });

  it('leaves out columns whose names a declaration cannot hold, unless the table needs them', () => {
    const odd = { ...supplier, columns: [...supplier.columns, col('备注 2', 'text')] };
    const r = generateTablePage(odd, opts);
    expect(r.ok && r.notes[0]).toContain('备注 2');
    const needed = { ...supplier, columns: [...supplier.columns, col('a-b', 'text', { nullable: false })] };
    expect(generateTablePage(needed, opts)).toMatchObject({ ok: false, reason: expect.stringContaining('a-b') });
  });
});
