// The dataset's fields, edited in place: name (read-only for a column), 标签, 类型, 角色, 格式; a calculated field shows
// its expression with 编辑 (the dialog) and its fault — the local parse's, or the server's refusal — under it.
import { Button, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { DatasetField } from '../../../common/dataset';
import { fieldFault, ROLE_LABELS, TYPE_LABELS } from './model';

const typeOptions = Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }));
const roleOptions = Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label }));

export interface FieldsTableProps {
  fields: DatasetField[];
  onChange: (fields: DatasetField[]) => void;
  /** a fault the server answered, per field name (shown under the field until it is edited) */
  serverFaults: Record<string, string>;
  onEditCalc: (f: DatasetField) => void;
  readOnly?: boolean;
}

export function FieldsTable({ fields, onChange, serverFaults, onEditCalc, readOnly }: FieldsTableProps) {
  const patch = (i: number, p: Partial<DatasetField>) => onChange(fields.map((f, j) => (j === i ? { ...f, ...p } : f)));
  const remove = (i: number) => onChange(fields.filter((_, j) => j !== i));
  const columns: ColumnsType<DatasetField> = [
    {
      title: '字段名',
      dataIndex: 'name',
      width: 170,
      render: (_v, f) => (
        <Space direction="vertical" size={0}>
          <Typography.Text code>{f.name}</Typography.Text>
          {f.expr ? (
            <Tag color="purple">计算字段</Tag>
          ) : (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              列 {f.table ? `${f.table}.` : ''}
              {f.column ?? f.name}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: '标签',
      dataIndex: 'label',
      width: 170,
      render: (_v, f, i) => <Input aria-label={`标签-${f.name}`} value={f.label} maxLength={100} status={f.label.trim() ? undefined : 'error'} disabled={readOnly} onChange={(e) => patch(i, { label: e.target.value })} />,
    },
    {
      title: '类型',
      dataIndex: 'type',
      width: 120,
      render: (_v, f, i) => <Select aria-label={`类型-${f.name}`} style={{ width: '100%' }} value={f.type} options={typeOptions} disabled={readOnly} onChange={(type) => patch(i, { type })} />,
    },
    {
      title: '角色',
      dataIndex: 'role',
      width: 110,
      render: (_v, f, i) => <Select aria-label={`角色-${f.name}`} style={{ width: '100%' }} value={f.role} options={roleOptions} disabled={readOnly} onChange={(role) => patch(i, { role })} />,
    },
    {
      title: '格式',
      dataIndex: 'format',
      width: 140,
      render: (_v, f, i) => (
        <Input aria-label={`格式-${f.name}`} value={f.format ?? ''} maxLength={50} placeholder={f.type === 'date' ? 'YYYY-MM-DD' : f.type === 'number' ? '0,0.00' : ''} disabled={readOnly} onChange={(e) => patch(i, { format: e.target.value })} />
      ),
    },
    {
      title: '表达式',
      dataIndex: 'expr',
      render: (_v, f) => {
        if (!f.expr) return <Typography.Text type="secondary">—</Typography.Text>;
        const fault = serverFaults[f.name] ?? fieldFault(f, fields);
        return (
          <Space direction="vertical" size={2} style={{ width: '100%' }}>
            <Typography.Text code style={{ wordBreak: 'break-all' }}>
              {f.expr}
            </Typography.Text>
            {fault && (
              <Typography.Text type="danger" data-testid={`fault-${f.name}`} style={{ wordBreak: 'break-all' }}>
                {fault}
              </Typography.Text>
            )}
          </Space>
        );
      },
    },
    {
      title: '操作',
      key: 'op',
      width: 110,
      render: (_v, f, i) =>
        readOnly ? null : (
          <Space size={0}>
            {f.expr && (
              <Button type="link" size="small" onClick={() => onEditCalc(f)}>
                编辑
              </Button>
            )}
            <Button type="link" size="small" danger aria-label={`删除字段-${f.name}`} onClick={() => remove(i)}>
              删除
            </Button>
          </Space>
        ),
    },
  ];
  return (
    <Table<DatasetField>
      data-testid="dataset-fields"
      size="small"
      rowKey="name"
      columns={columns}
      dataSource={fields}
      pagination={false}
      scroll={{ x: 960 }}
      locale={{ emptyText: '还没有字段：选择数据来源后点「读取字段」' }}
    />
  );
}
