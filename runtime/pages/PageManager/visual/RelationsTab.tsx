// 关联与明细 of the visual page editor (a page on a table, issue 34 items 3 and 4): a field's related table (the
// related row's label shown in the list and picked in a searchable select), and the dialog's details (title, what a
// delete does, how many lines). The tables and a table's columns come from the page's data source
// (POST /lowcode/source/tables, /lowcode/source/columns); the panels are declared in schemas/page-editor/.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Empty, Space, Tag, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import relationPanel from '../../../../schemas/page-editor/relation.panel.json';
import detailPanel from '../../../../schemas/page-editor/detail.panel.json';
import { post } from '../../../core/request';
import { PanelForm, type Option, type PanelDecl } from './PanelForm';
import { detailsOf, fieldsOf, fieldTitle, readRelation, removeDetail, updateDetail, updateRelation, type Decl, type RelationForm } from './model';

const panels = { relation: relationPanel, detail: detailPanel } as unknown as Record<string, PanelDecl>;
const QUIET = { silent: true };
interface TableItem { name: string; schema: string | null; table: string; kind: string }
interface ColumnItem { name: string; primaryKey: boolean; comment: string | null }

const box: React.CSSProperties = { border: '1px solid #f0f0f0', borderRadius: 6, padding: 4, marginBottom: 8, maxHeight: 220, overflow: 'auto' };
const item = (selected: boolean): React.CSSProperties => ({ display: 'flex', gap: 6, alignItems: 'center', padding: '3px 6px', borderRadius: 4, cursor: 'pointer', background: selected ? '#e6f4ff' : undefined });

export function RelationsTab({ decl, onChange, readOnly }: { decl: Decl; onChange(next: Decl): void; readOnly?: boolean }) {
  const dsId = Number((decl as { source?: { dsId?: number } }).source?.dsId);
  const [tables, setTables] = useState<TableItem[]>([]);
  const [loading, setLoading] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [draft, setDraft] = useState<RelationForm>({});
  const [columns, setColumns] = useState<ColumnItem[]>([]);

  useEffect(() => {
    if (!dsId) return;
    setLoading(['tables']);
    post<{ records: TableItem[] }>('/lowcode/source/tables', { dsId }, QUIET)
      .then((d) => setTables((d?.records ?? []).filter((t) => t.kind === 'table')))
      .catch((e: unknown) => setError(`数据表列表读取失败：${e instanceof Error ? e.message : '请检查数据源连接'}`))
      .finally(() => setLoading([]));
  }, [dsId]);

  // the chosen field's relation as declared (a draft until its table, key and label are all chosen)
  useEffect(() => {
    setDraft(field ? readRelation(decl, field) : {});
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read again only when another field is chosen
  }, [field]);
  useEffect(() => {
    if (!draft.table) return setColumns([]);
    setLoading(['relatedColumns']);
    post<{ columns: ColumnItem[] }>('/lowcode/source/columns', { dsId, table: draft.table, schema: draft.schema ?? null }, QUIET)
      .then((d) => setColumns(d?.columns ?? []))
      .catch((e: unknown) => setError(`读取表「${draft.table}」的列失败：${e instanceof Error ? e.message : ''}`))
      .finally(() => setLoading([]));
  }, [dsId, draft.table, draft.schema]);

  const sources: Record<string, Option[]> = useMemo(
    () => ({
      tables: tables.map((t) => ({ value: t.name, label: t.name })),
      relatedColumns: columns.map((c) => ({ value: c.name, label: `${c.comment ? `${c.comment}（${c.name}）` : c.name}${c.primaryKey ? ' · 主键' : ''}` })),
    }),
    [tables, columns],
  );
  const relations = ((decl as { source?: { relations?: Record<string, unknown> } }).source?.relations ?? {}) as Record<string, RelationForm>;
  const names = Object.keys(fieldsOf(decl));
  const details = detailsOf(decl);

  const change = (c: Partial<RelationForm> & { table?: string }) => {
    if (!field) return;
    let next: RelationForm = { ...draft, ...c };
    if ('table' in c) {
      // a table picked by its listed name (schema.table outside PostgreSQL's public): its key proposed
      const t = tables.find((x) => x.name === c.table);
      next = t ? { table: t.table, ...(t.schema && t.schema !== 'public' ? { schema: t.schema } : {}) } : {};
    }
    setDraft(next);
    onChange(updateRelation(decl, field, next));
  };
  // once a table's columns are read: its key (the single primary key) and a name-like column proposed
  useEffect(() => {
    if (!field || !draft.table || !columns.length || (draft.key && draft.label)) return;
    const key = draft.key ?? columns.find((c) => c.primaryKey)?.name;
    const label = draft.label ?? (columns.find((c) => /^(name|title|label)$/i.test(c.name)) ?? columns.find((c) => /name$/i.test(c.name)) ?? columns.find((c) => !c.primaryKey))?.name;
    if (key || label) change({ ...(key ? { key } : {}), ...(label ? { label } : {}) });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- proposed once per table read
  }, [columns]);

  const tableName = (r: RelationForm) => (r.schema ? `${r.schema}.${r.table}` : r.table);
  return (
    <div data-testid="ve-relations">
      <Alert type="info" showIcon style={{ marginBottom: 8 }} message="字段的值是另一张表的主键时选择关联表：列表显示那一行的名称并可按名称搜索，编辑时从下拉列表中搜索选择。从数据表生成时，外键会自动设为关联。" />
      {error && <Alert type="error" showIcon closable onClose={() => setError(null)} message={error} style={{ marginBottom: 8 }} />}
      <Typography.Text strong>关联记录</Typography.Text>
      <div style={box} data-testid="ve-relation-fields">
        {names.map((n) => (
          <div key={n} style={item(n === field)} onClick={() => setField(n)} data-testid={`ve-rel-${n}`} role="button" tabIndex={0} onKeyDown={(e) => e.key === 'Enter' && setField(n)}>
            <Typography.Text ellipsis>{fieldTitle(decl, n)}</Typography.Text>
            <Tag bordered={false}>{n}</Tag>
            {relations[n] && <Tag bordered={false} color="green">→ {tableName(relations[n])}.{relations[n].label}</Tag>}
          </div>
        ))}
      </div>
      {field ? (
        <PanelForm panel={panels.relation} value={{ ...draft, table: draft.table ? tableName(draft) : undefined } as Record<string, unknown>} ctx={{ sources, loading, readOnly, testId: 've-relation-form' }} onChange={(c) => change(c as RelationForm)} />
      ) : (
        <Typography.Text type="secondary">点击一个字段设置它的关联表</Typography.Text>
      )}
      <div style={{ marginTop: 16 }}>
        <Typography.Text strong>明细（主子表）</Typography.Text>
        {!details.length && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有明细：从数据表生成时可勾选引用此表的子表作为明细" />}
        {details.map((d, i) => (
          <div key={`${d.name}-${i}`} style={{ ...box, maxHeight: undefined, padding: 8 }} data-testid={`ve-detail-${d.name}`}>
            <Space style={{ justifyContent: 'space-between', width: '100%', marginBottom: 4 }}>
              <span>
                <Tag bordered={false}>{d.tableSchema ? `${d.tableSchema}.${d.table}` : d.table}</Tag>
                <Typography.Text type="secondary">按「{d.foreignKey}」关联，{Object.keys(d.schema?.properties ?? {}).length} 个字段</Typography.Text>
              </span>
              {!readOnly && <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`移除明细「${d.title}」`} onClick={() => onChange(removeDetail(decl, i))} />}
            </Space>
            <PanelForm panel={panels.detail} value={d} ctx={{ readOnly, testId: `ve-detail-form-${d.name}` }} onChange={(c) => onChange(updateDetail(decl, i, c))} />
          </div>
        ))}
      </div>
    </div>
  );
}
