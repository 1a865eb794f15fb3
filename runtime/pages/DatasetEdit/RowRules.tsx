// 行权限: rules per role or user; a rule's field equals one of fixed values, the signed-in user's account, their
// department's id, or one of the ids of their department and those below it (部门管理). The
// server applies them to every chart answer, preview, value list and cached answer (issue 35 §4).
import { Button, Select, Input, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import type { DatasetField } from '../../../common/dataset';
import type { RowRule } from './model';

const SUBJECTS = [
  { value: 'role', label: '角色' },
  { value: 'user', label: '用户' },
];
const MODES = [
  { value: 'values', label: '等于固定取值' },
  { value: 'username', label: '等于当前账号' },
  { value: 'department', label: '等于当前用户的部门' },
  { value: 'departmentTree', label: '属于当前用户的部门及以下' },
];
const ATTRIBUTE_TEXT: Record<string, string> = { username: '当前登录账号', department: '当前用户所在部门的编号', departmentTree: '当前用户所在部门及其下级部门的编号' };

export function RowRules({ rules, fields, onChange, readOnly }: { rules: RowRule[]; fields: DatasetField[]; onChange: (r: RowRule[]) => void; readOnly?: boolean }) {
  const patch = (i: number, p: Partial<RowRule>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...p } : r)));
  const fieldOptions = fields.map((f) => ({ value: f.name, label: `${f.label}（${f.name}）` }));
  const columns: ColumnsType<RowRule & { k: number }> = [
    { title: '对象', width: 100, render: (_v, r, i) => <Select aria-label={`规则对象${i + 1}`} style={{ width: '100%' }} value={r.subject} options={SUBJECTS} disabled={readOnly} onChange={(subject) => patch(i, { subject })} /> },
    {
      title: '角色标识 / 账号',
      width: 160,
      render: (_v, r, i) => <Input aria-label={`规则键${i + 1}`} value={r.key} maxLength={100} placeholder={r.subject === 'role' ? '如 default' : '如 developer'} disabled={readOnly} onChange={(e) => patch(i, { key: e.target.value })} />,
    },
    { title: '字段', width: 180, render: (_v, r, i) => <Select aria-label={`规则字段${i + 1}`} style={{ width: '100%' }} value={r.field || undefined} placeholder="选择字段" options={fieldOptions} disabled={readOnly} onChange={(field) => patch(i, { field })} /> },
    { title: '条件', width: 150, render: (_v, r, i) => <Select aria-label={`规则条件${i + 1}`} style={{ width: '100%' }} value={r.mode} options={MODES} disabled={readOnly} onChange={(mode) => patch(i, { mode })} /> },
    {
      title: '允许的取值',
      render: (_v, r, i) =>
        r.mode !== 'values' ? (
          <Typography.Text type="secondary">{ATTRIBUTE_TEXT[r.mode]}</Typography.Text>
        ) : (
          <Select aria-label={`规则取值${i + 1}`} mode="tags" style={{ width: '100%', minWidth: 160 }} value={r.values} placeholder="输入后回车" tokenSeparators={[',', '，']} open={false} disabled={readOnly} onChange={(values: string[]) => patch(i, { values })} />
        ),
    },
    {
      title: '操作',
      width: 70,
      render: (_v, _r, i) =>
        readOnly ? null : (
          <Button type="link" size="small" danger onClick={() => onChange(rules.filter((_, j) => j !== i))}>
            删除
          </Button>
        ),
    },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">
        没有规则时所有人看到全部行；有规则时，命中某条规则（所属角色或账号）的用户只看到满足其规则的行，图表、预览、下钻、导出与缓存都按此过滤。
      </Typography.Paragraph>
      <Table<RowRule & { k: number }> size="small" rowKey="k" columns={columns} dataSource={rules.map((r, k) => ({ ...r, k }))} pagination={false} scroll={{ x: 820 }} locale={{ emptyText: '暂无行权限规则' }} />
      {!readOnly && (
        <Button style={{ marginTop: 8 }} icon={<PlusOutlined />} onClick={() => onChange([...rules, { subject: 'role', key: '', field: '', mode: 'values', values: [] }])}>
          添加规则
        </Button>
      )}
    </>
  );
}
