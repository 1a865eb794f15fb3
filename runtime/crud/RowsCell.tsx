// A `rows` cell (a form's sub-table): a list of row objects read as “n 行”; a click opens them as a small table
// of the column's `columns` (each value by its option's label), or of the rows' own keys when none are declared.
import { Button, Popover, Table } from 'antd';
import type { ColumnDecl } from './types';

type Row = Record<string, unknown>;

const text = (v: unknown): string => (v === null || v === undefined ? '' : Array.isArray(v) ? v.map(text).join('、') : typeof v === 'object' ? JSON.stringify(v) : typeof v === 'boolean' ? (v ? '是' : '否') : String(v));

export function RowsCell({ col, value }: { col: ColumnDecl; value: unknown }) {
  const rows = (Array.isArray(value) ? value : []).filter((r): r is Row => r !== null && typeof r === 'object' && !Array.isArray(r));
  if (!rows.length) return null;
  const cols = col.columns?.length ? col.columns : [...new Set(rows.flatMap((r) => Object.keys(r)))].map((k) => ({ field: k, title: k, options: undefined }));
  const table = (
    <Table<Row & { key: number }>
      size="small"
      pagination={false}
      bordered
      scroll={{ x: 'max-content', y: 320 }}
      dataSource={rows.map((r, i) => ({ ...r, key: i }))}
      columns={[
        { title: '#', key: '#', width: 40, render: (_: unknown, __: unknown, i: number) => i + 1 },
        ...cols.map((c) => ({
          title: c.title,
          key: c.field,
          // a value by its option's label (a select column), else as text; React escapes every value
          render: (_: unknown, r: Row) => {
            const v = Object.hasOwn(r, c.field) ? r[c.field] : undefined;
            return c.options?.find((o) => String(o.value) === String(v))?.label ?? text(v);
          },
        })),
      ]}
    />
  );
  return (
    <Popover content={<div style={{ maxWidth: 560 }}>{table}</div>} title={col.title} trigger="click">
      <Button type="link" size="small" style={{ padding: 0 }} data-rows-cell={rows.length}>
        {rows.length} 行
      </Button>
    </Popover>
  );
}
