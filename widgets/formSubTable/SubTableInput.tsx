// A sub-table's control: rows of cells (text, number, select, date) edited in place, rows added and removed
// within the declared bounds. The value is the row list ([{ column: value }]); the field's one validator
// (common/fields.ts, the server's rules) checks every cell and names the row in its message.
import { Button, DatePicker, Input, InputNumber, Select } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { SubColumn } from '../../common/fields';

type Row = Record<string, unknown>;

export interface SubTableInputProps {
  value?: Row[];
  onChange?: (rows: Row[]) => void;
  columns: SubColumn[];
  maxRows?: number;
  addText?: string;
  disabled?: boolean;
  color?: string;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

function Cell({ col, value, onChange, disabled, row }: { col: SubColumn; value: unknown; onChange: (v: unknown) => void; disabled?: boolean; row: number }) {
  const label = `第${row + 1}行${col.label}`;
  switch (col.kind) {
    case 'number':
      return <InputNumber aria-label={label} size="small" style={{ width: '100%' }} disabled={disabled} value={typeof value === 'number' ? value : null} onChange={(v) => onChange(v ?? undefined)} />;
    case 'select':
      return (
        <Select
          aria-label={label}
          size="small"
          style={{ width: '100%' }}
          allowClear
          disabled={disabled}
          value={blank(value) ? undefined : String(value)}
          options={(col.def.options ?? []).map((o) => ({ label: o.label, value: String(o.value) }))}
          onChange={(v) => onChange(v ?? undefined)}
        />
      );
    case 'date':
      return (
        <DatePicker
          aria-label={label}
          size="small"
          style={{ width: '100%' }}
          disabled={disabled}
          value={typeof value === 'string' && dayjs(value, 'YYYY-MM-DD', true).isValid() ? dayjs(value, 'YYYY-MM-DD') : null}
          onChange={(d) => onChange(d ? d.format('YYYY-MM-DD') : undefined)}
        />
      );
    default:
      return <Input aria-label={label} size="small" disabled={disabled} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} />;
  }
}

export function SubTableInput({ value, onChange, columns, maxRows, addText, disabled, color }: SubTableInputProps) {
  const rows = Array.isArray(value) ? value : [];
  const set = (next: Row[]) => onChange?.(next);
  const setCell = (i: number, name: string, v: unknown) =>
    set(
      rows.map((r, j) => {
        if (j !== i) return r;
        const out = { ...r };
        if (blank(v)) delete out[name];
        else out[name] = v;
        return out;
      }),
    );
  const full = maxRows !== undefined && rows.length >= maxRows;
  return (
    <div className="form-sub-table" data-rows={rows.length}>
      <table style={{ width: '100%', borderCollapse: 'collapse', tableLayout: 'fixed' }}>
        <thead>
          <tr>
            <th style={{ width: 36, color, fontWeight: 'normal', textAlign: 'left' }}>#</th>
            {columns.map((c) => (
              <th key={c.name} style={{ color, fontWeight: 'normal', textAlign: 'left', padding: '0 4px' }}>
                {c.def.props.required === true && <span style={{ color: '#ff7875', marginRight: 2 }}>*</span>}
                {c.label}
              </th>
            ))}
            <th style={{ width: 36 }} />
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} data-row={i + 1}>
              <td style={{ color }}>{i + 1}</td>
              {columns.map((c) => (
                <td key={c.name} style={{ padding: '2px 4px' }}>
                  <Cell col={c} row={i} value={r[c.name]} disabled={disabled} onChange={(v) => setCell(i, c.name, v)} />
                </td>
              ))}
              <td>
                <Button size="small" type="text" danger aria-label={`删除第${i + 1}行`} icon={<DeleteOutlined />} disabled={disabled} onClick={() => set(rows.filter((_, j) => j !== i))} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!rows.length && <div style={{ color, opacity: 0.85, padding: '4px 0' }}>暂无数据</div>}
      <Button size="small" type="dashed" icon={<PlusOutlined />} disabled={disabled || full} onClick={() => set([...rows, {}])} style={{ marginTop: 4 }}>
        {addText || '添加一行'}
        {maxRows !== undefined ? `（${rows.length}/${maxRows}）` : ''}
      </Button>
    </div>
  );
}
