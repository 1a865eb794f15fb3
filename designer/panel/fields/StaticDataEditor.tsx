import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Segmented, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { DataRow } from '../../../widgets';
import { JsonEditor } from '../editor/JsonEditor';
import { useJsonText } from './useJsonText';

export interface StaticDataEditorProps {
  value: DataRow[];
  onChange: (rows: DataRow[]) => void;
  /** Spec: the static data editor is 300 px high. */
  height?: number;
}

type Mode = 'json' | 'table';

/** STATIC rows, editable as JSON (monaco) or as a table; the toggle keeps one value. */
export function StaticDataEditor({ value, onChange, height = 300 }: StaticDataEditorProps) {
  const [mode, setMode] = useState<Mode>('json');
  return (
    <div>
      <Segmented<Mode>
        size="small"
        value={mode}
        onChange={setMode}
        options={[
          { value: 'json', label: '代码' },
          { value: 'table', label: '表格' },
        ]}
        style={{ marginBottom: 8 }}
      />
      {mode === 'json' ? <RowsJson value={value} onChange={onChange} height={height} /> : <RowsTable value={value} onChange={onChange} height={height} />}
    </div>
  );
}

function RowsJson({ value, onChange, height }: Required<StaticDataEditorProps>) {
  const { text, error, onText } = useJsonText(value, onChange, (v) =>
    Array.isArray(v) && v.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) ? null : '数据必须是对象数组，如 [{"name": "东城区", "value": 1}]',
  );
  return (
    <>
      <JsonEditor value={text} onChange={onText} height={height} ariaLabel="静态数据" />
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </>
  );
}

function RowsTable({ value, onChange, height }: Required<StaticDataEditorProps>) {
  const [newColumn, setNewColumn] = useState('');
  const columns = useMemo(() => [...new Set(value.flatMap((r) => Object.keys(r)))], [value]);
  const setCell = (rowIndex: number, key: string, text: string) => {
    onChange(value.map((r, i) => (i === rowIndex ? { ...r, [key]: coerce(text, r[key]) } : r)));
  };
  const addColumn = () => {
    const key = newColumn.trim();
    if (!key || columns.includes(key)) return;
    onChange(value.length ? value.map((r) => ({ ...r, [key]: '' })) : [{ [key]: '' }]);
    setNewColumn('');
  };
  return (
    <div>
      <Table<DataRow & { __i: number }>
        size="small"
        bordered
        pagination={false}
        scroll={{ x: 'max-content', y: height - 80 }}
        style={{ minHeight: height - 40 }}
        rowKey="__i"
        dataSource={value.map((r, i) => ({ ...r, __i: i }))}
        locale={{ emptyText: '暂无数据' }}
        columns={[
          ...columns.map((key) => ({
            key,
            title: key,
            dataIndex: key,
            render: (cell: unknown, _row: DataRow, i: number) => (
              <Input size="small" aria-label={`${key} 第 ${i + 1} 行`} value={cell == null ? '' : String(cell)} onChange={(e) => setCell(i, key, e.target.value)} style={{ minWidth: 72 }} />
            ),
          })),
          {
            key: '__op',
            title: '操作',
            width: 56,
            fixed: 'right' as const,
            render: (_: unknown, _row: DataRow, i: number) => (
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`删除第 ${i + 1} 行`} onClick={() => onChange(value.filter((_r, j) => j !== i))} />
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 8 }} wrap>
        <Button size="small" icon={<PlusOutlined />} onClick={() => onChange([...value, Object.fromEntries(columns.map((c) => [c, '']))])} disabled={columns.length === 0}>
          新增行
        </Button>
        <Space.Compact size="small">
          <Input placeholder="字段名" value={newColumn} onChange={(e) => setNewColumn(e.target.value)} maxLength={64} style={{ width: 120 }} onPressEnter={addColumn} />
          <Button onClick={addColumn}>新增列</Button>
        </Space.Compact>
      </Space>
    </div>
  );
}

/** Keeps numbers numbers: a numeric cell (or a new one) typed as a number stays a number. */
function coerce(text: string, previous: unknown): unknown {
  const n = Number(text);
  if (text.trim() !== '' && Number.isFinite(n) && (typeof previous === 'number' || previous === undefined || previous === '')) return n;
  return text;
}
