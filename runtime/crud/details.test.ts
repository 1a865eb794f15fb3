// A dialog's details (master–detail, issue 34 item 4) as the form renders them: an editable table per detail whose
// cells carry the declared rules, the lines with their keys in edit and without them in a copy, none in a new record;
// a related record's select gets the page's options call.
import { describe, expect, it } from 'vitest';
import { formSchemaFor, initialValuesFor } from './dialog-schema';
import type { DialogDecl } from './types';

const dialog = {
  schema: { type: 'object', properties: { title: { type: 'string', title: '标题' }, supplier_id: { type: 'integer', title: '供应商', 'x-component': 'RelationSelect', 'x-component-props': { field: 'supplier_id' } } } },
  details: [
    {
      name: 'lines',
      title: '订单明细',
      table: 'order_line',
      key: 'id',
      foreignKey: 'order_id',
      onDelete: 'refuse',
      schema: { type: 'object', properties: { product: { type: 'string', title: '产品', 'x-validator': [{ required: true, message: '请输入产品' }] }, qty: { type: 'integer', title: '数量' } } },
    },
  ],
} as unknown as DialogDecl;

describe('dialog details', () => {
  it('renders each detail as an editable table with the declared rules in its cells', () => {
    const s = formSchemaFor(dialog, 'new', undefined, { options: 'POST /x/options' }) as any;
    const lines = s.properties.lines;
    expect(lines).toMatchObject({ type: 'array', title: '订单明细', 'x-component': 'ArrayTable' });
    expect(Object.keys(lines.items.properties)).toEqual(['column_product', 'column_qty', 'column_ops']);
    const product = lines.items.properties.column_product;
    expect(product['x-component-props'].title).toBe('* 产品');
    expect(product.properties.product['x-validator'][0]).toMatchObject({ required: true, message: '请输入产品' });
    expect(product.properties.product.title).toBeUndefined();
    expect(lines.items.properties.column_qty.properties.qty['x-component']).toBe('NumberPicker');
    expect(s.properties.supplier_id['x-component-props']).toMatchObject({ field: 'supplier_id', call: 'POST /x/options', placeholder: '请选择供应商' });
  });

  it('starts a new record with no lines, edits the lines with their keys, copies them without', () => {
    expect(initialValuesFor(dialog, 'new', undefined, 'id')).toEqual({ lines: [] });
    const row = { id: 7, title: '单', lines: [{ id: 1, product: 'a', qty: 1 }] };
    expect(initialValuesFor(dialog, 'edit', row, 'id')).toEqual({ id: 7, title: '单', lines: [{ id: 1, product: 'a', qty: 1 }] });
    expect(initialValuesFor(dialog, 'copy', row, 'id')).toEqual({ title: '单', lines: [{ product: 'a', qty: 1 }] });
  });
});
