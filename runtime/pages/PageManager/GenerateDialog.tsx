// 从数据表生成 (issue 24 item 1): pick a registered data source, one of its tables or views, tick the short text
// columns to show as a select, and 生成 hands the server's generated declaration to the page manager as a new,
// unsaved page. The server introspects and generates (POST /lowcode/source/tables, /lowcode/source/generate);
// every refusal (a table without a primary key…) is shown as the server words it. Foreign keys become related
// records by themselves; the tables that reference the chosen one are offered as 明细 (sub-lists of the dialog).
import { useEffect, useMemo, useState } from 'react';
import { Alert, Checkbox, Form, Modal, Select, Space, Spin, Tag, Typography } from 'antd';
import { post } from '../../core/request';
import type { PageDeclaration } from '../../crud';
import { MAX_SELECT_OPTIONS, valueKindOf, type CatalogueColumn } from '../../../common/tablePage';

interface Source {
  id: number;
  dsName: string;
  dbType: string;
}
interface TableItem {
  name: string;
  schema: string | null;
  table: string;
  kind: 'table' | 'view';
}
/** A table whose column references the chosen one: offered as a detail (its lines edited with the record). */
interface Child {
  table: string;
  schema: string | null;
  foreignKey: string;
}
interface Generated {
  declaration: PageDeclaration;
  notes: string[];
  columns: CatalogueColumn[];
  children?: Child[];
}
const childKey = (c: Child) => `${c.schema ?? ''}.${c.table}.${c.foreignKey}`;

const QUIET = { silent: true };
const reasonOf = (e: unknown, fallback: string) => (e instanceof Error && e.message ? e.message : fallback);

export function GenerateDialog({ open, onClose, onGenerated }: { open: boolean; onClose: () => void; onGenerated: (decl: PageDeclaration, notes: string[]) => void }) {
  const [sources, setSources] = useState<Source[]>([]);
  const [dsId, setDsId] = useState<number>();
  const [tables, setTables] = useState<TableItem[]>([]);
  const [table, setTable] = useState<string>();
  const [draft, setDraft] = useState<Generated | null>(null);
  const [selects, setSelects] = useState<string[]>([]);
  const [details, setDetails] = useState<string[]>([]);
  const [busy, setBusy] = useState<'sources' | 'tables' | 'columns' | 'generate' | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setError(null);
    setBusy('sources');
    post<{ records: Source[] }>('/gemini/datasource/search', { pageNum: 1, pageSize: 100 }, QUIET)
      .then((d) => setSources(d?.records ?? []))
      .catch((e) => setError(`数据源列表读取失败：${reasonOf(e, '请稍后重试')}`))
      .finally(() => setBusy(null));
  }, [open]);

  const picked = tables.find((t) => t.name === table);
  const body = (more: object = {}) => ({ dsId, table: picked?.table, schema: picked?.schema ?? null, ...more });

  const pickSource = (id: number) => {
    setDsId(id);
    setTable(undefined);
    setTables([]);
    setDraft(null);
    setSelects([]);
    setDetails([]);
    setError(null);
    setBusy('tables');
    post<{ records: TableItem[] }>('/lowcode/source/tables', { dsId: id }, QUIET)
      .then((d) => setTables(d?.records ?? []))
      .catch((e) => setError(`数据表列表读取失败：${reasonOf(e, '请检查数据源连接')}`))
      .finally(() => setBusy(null));
  };

  const pickTable = (name: string) => {
    setTable(name);
    setDraft(null);
    setSelects([]);
    setDetails([]);
    setError(null);
    const t = tables.find((x) => x.name === name);
    if (!t) return;
    setBusy('columns');
    // a first generation tells the columns (and a refusal, such as a table without a primary key, at once)
    post<Generated>('/lowcode/source/generate', { dsId, table: t.table, schema: t.schema }, QUIET)
      .then((d) => setDraft(d))
      .catch((e) => setError(reasonOf(e, '读取表结构失败')))
      .finally(() => setBusy(null));
  };

  const textColumns = useMemo(() => (draft?.columns ?? []).filter((c) => valueKindOf(c) === 'text' && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(c.name)), [draft]);

  const generate = async () => {
    if (!draft) return;
    setBusy('generate');
    setError(null);
    try {
      const chosen = (draft.children ?? []).filter((c) => details.includes(childKey(c)));
      const d = selects.length || chosen.length ? await post<Generated>('/lowcode/source/generate', body({ selects, details: chosen }), QUIET) : draft;
      onGenerated(d.declaration, d.notes);
      onClose();
    } catch (e) {
      setError(`生成失败：${reasonOf(e, '请稍后重试')}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      title="从数据表生成页面"
      open={open}
      onCancel={onClose}
      onOk={() => void generate()}
      okText="生成"
      cancelText="取消"
      okButtonProps={{ disabled: !draft, loading: busy === 'generate' }}
      width={560}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label="数据源" required>
          <Select
            placeholder="请选择数据源"
            loading={busy === 'sources'}
            value={dsId}
            onChange={pickSource}
            options={sources.map((s) => ({ value: s.id, label: `${s.dsName}（${s.dbType}）` }))}
            notFoundContent={busy === 'sources' ? <Spin size="small" /> : '暂无数据源'}
            data-testid="gen-ds"
          />
        </Form.Item>
        <Form.Item label="数据表" required>
          <Select
            showSearch
            placeholder={dsId ? '请选择数据表或视图' : '请先选择数据源'}
            disabled={!dsId}
            loading={busy === 'tables'}
            value={table}
            onChange={pickTable}
            options={tables.map((t) => ({ value: t.name, label: t.kind === 'view' ? `${t.name}（视图，只读）` : t.name }))}
            notFoundContent={busy === 'tables' ? <Spin size="small" /> : '没有数据表'}
            data-testid="gen-table"
          />
        </Form.Item>
        {busy === 'columns' && <Spin tip="正在读取表结构…"><div style={{ height: 40 }} /></Spin>}
        {draft && (
          <Form.Item label={`作为下拉选择的列（取值不超过${MAX_SELECT_OPTIONS}个的短文本）`}>
            {textColumns.length ? (
              <Checkbox.Group value={selects} onChange={(v) => setSelects(v as string[])}>
                <Space wrap>
                  {textColumns.map((c) => (
                    <Checkbox key={c.name} value={c.name}>
                      {c.name}
                      {c.maxLength ? <Typography.Text type="secondary">（{c.maxLength}）</Typography.Text> : null}
                    </Checkbox>
                  ))}
                </Space>
              </Checkbox.Group>
            ) : (
              <Typography.Text type="secondary">没有文本列</Typography.Text>
            )}
          </Form.Item>
        )}
        {draft && !!draft.children?.length && (
          <Form.Item label="明细子表（引用此表的表：在对话框中与记录一起编辑、一起保存）">
            <Checkbox.Group value={details} onChange={(v) => setDetails(v as string[])} data-testid="gen-details">
              <Space wrap>
                {draft.children.map((c) => (
                  <Checkbox key={childKey(c)} value={childKey(c)}>
                    {c.table}
                    <Typography.Text type="secondary">（{c.foreignKey}）</Typography.Text>
                  </Checkbox>
                ))}
              </Space>
            </Checkbox.Group>
          </Form.Item>
        )}
        {draft && (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            主键：<Tag>{draft.declaration.rowKey}</Tag>共 {draft.columns.length} 列；生成后在编辑器中打开，保存前可修改。
          </Typography.Paragraph>
        )}
        {draft?.notes.map((n) => <Alert key={n} type="info" showIcon message={n} style={{ marginBottom: 8 }} />)}
        {error && <Alert type="error" showIcon message={error} data-testid="gen-error" />}
      </Form>
    </Modal>
  );
}
