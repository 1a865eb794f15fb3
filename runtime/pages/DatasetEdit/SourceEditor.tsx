// Where a dataset's rows come from: a table picked from the data source's catalogue (表), two or more tables each
// picked there with the join type and both columns picked from selects (关联, never typed), or a SQL statement with
// its parameters (SQL, shown only to holders of datav:dataset:sql).
import { useEffect, useMemo, useState } from 'react';
import { Button, Card, Form, Select, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ParamTable, SqlEditor } from '../../editors';
import { datasetCalls, type TableOption } from './api';
import { addJoinTable, JOIN_LABELS, pickJoinTable, removeJoinTable, type Draft, type JoinTable, type TablePick } from './model';

/** The data source's tables and views, read once per data source. */
export function useTables(dsId: number | null): { tables: TableOption[]; loading: boolean } {
  const [state, setState] = useState<{ dsId: number | null; tables: TableOption[]; loading: boolean }>({ dsId: null, tables: [], loading: false });
  useEffect(() => {
    if (!dsId) return setState({ dsId: null, tables: [], loading: false });
    let live = true;
    setState({ dsId, tables: [], loading: true });
    datasetCalls.tables(dsId).then(
      (tables) => live && setState({ dsId, tables: tables ?? [], loading: false }),
      () => live && setState({ dsId, tables: [], loading: false }),
    );
    return () => {
      live = false;
    };
  }, [dsId]);
  return state;
}

const tableOptions = (tables: TableOption[]) =>
  tables.map((t) => ({
    value: t.name,
    label: (
      <span>
        {t.name}
        {t.kind === 'view' && (
          <Tag style={{ marginInlineStart: 6 }} color="blue">
            视图
          </Tag>
        )}
      </span>
    ),
    search: t.name,
  }));

export function TablePicker({ value, tables, loading, onChange, label, disabled }: { value: TablePick | null; tables: TableOption[]; loading: boolean; onChange: (t: TablePick) => void; label: string; disabled?: boolean }) {
  const options = useMemo(() => tableOptions(tables), [tables]);
  return (
    <Select
      aria-label={label}
      showSearch
      placeholder="搜索并选择数据表"
      style={{ width: '100%', maxWidth: 360 }}
      loading={loading}
      disabled={disabled}
      value={value?.name}
      options={options}
      optionFilterProp="search"
      notFoundContent={loading ? '加载中…' : '没有找到数据表'}
      onChange={(name) => {
        const t = tables.find((x) => x.name === name);
        if (t) onChange({ name: t.name, schema: t.schema, table: t.table });
      }}
    />
  );
}

/** Columns of the join's tables, read from the catalogue per table. */
function useColumns(dsId: number | null, tables: Array<JoinTable | null>): Record<string, string[]> {
  const [cols, setCols] = useState<Record<string, string[]>>({});
  const keys = tables.filter((t): t is JoinTable => !!t).map((t) => `${t.schema ?? ''}.${t.table}`);
  const wanted = JSON.stringify([dsId, keys]);
  useEffect(() => {
    if (!dsId) return;
    let live = true;
    for (const t of tables) {
      if (!t) continue;
      const k = `${t.schema ?? ''}.${t.table}`;
      if (cols[k]) continue;
      datasetCalls.columns(dsId, t).then(
        (c) => live && setCols((m) => ({ ...m, [k]: (c ?? []).map((x) => x.name) })),
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
    // once per data source and set of tables
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted]);
  return cols;
}

export function JoinEditor({ draft, onChange, tables, loading, disabled }: { draft: Draft; onChange: (d: Draft) => void; tables: TableOption[]; loading: boolean; disabled?: boolean }) {
  const cols = useColumns(draft.dsId, draft.tables);
  const colsOf = (t: JoinTable | null) => (t ? (cols[`${t.schema ?? ''}.${t.table}`] ?? []) : []);
  const setStep = (i: number, p: Partial<Draft['steps'][number]>) => onChange({ ...draft, steps: draft.steps.map((s, j) => (j === i ? { ...s, ...p } : s)) });
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="join-editor">
      {draft.tables.map((t, i) => {
        const step = i > 0 ? draft.steps[i - 1] : null;
        const earlier = draft.tables.slice(0, i).filter((x): x is JoinTable => !!x);
        const leftOptions = earlier.map((e) => ({ label: `${e.alias} · ${e.name}`, options: colsOf(e).map((c) => ({ value: `${e.alias}.${c}`, label: `${e.alias}.${c}` })) }));
        return (
          <Card key={i} size="small" title={`${i === 0 ? '主表' : `关联表 ${i}`}${t ? `（${t.alias}）` : ''}`} extra={i >= 2 && !disabled ? <Button size="small" type="text" danger aria-label={`移除第${i + 1}张表`} icon={<DeleteOutlined />} onClick={() => onChange(removeJoinTable(draft, i))} /> : null}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <TablePicker label={`第${i + 1}张表`} value={t} tables={tables} loading={loading} disabled={disabled} onChange={(pick) => onChange(pickJoinTable(draft, i, pick))} />
              {step && (
                <Space wrap align="center">
                  <Select aria-label={`连接方式${i}`} style={{ width: 110 }} value={step.type} disabled={disabled} options={Object.entries(JOIN_LABELS).map(([value, label]) => ({ value, label }))} onChange={(type) => setStep(i - 1, { type })} />
                  <Typography.Text type="secondary">条件</Typography.Text>
                  <Select
                    aria-label={`左列${i}`}
                    showSearch
                    style={{ width: 200 }}
                    placeholder="前面表的列"
                    disabled={disabled || !earlier.length}
                    value={step.left ? `${step.left.alias}.${step.left.column}` : undefined}
                    options={leftOptions}
                    onChange={(v: string) => {
                      const [alias, ...rest] = v.split('.');
                      setStep(i - 1, { left: { alias, column: rest.join('.') } });
                    }}
                  />
                  <Typography.Text>=</Typography.Text>
                  <Select
                    aria-label={`右列${i}`}
                    showSearch
                    style={{ width: 200 }}
                    placeholder="本表的列"
                    disabled={disabled || !t}
                    value={step.right && t ? `${t.alias}.${step.right.column}` : undefined}
                    options={colsOf(t).map((c) => ({ value: `${t!.alias}.${c}`, label: `${t!.alias}.${c}` }))}
                    onChange={(v: string) => setStep(i - 1, { right: { alias: t!.alias, column: v.slice(t!.alias.length + 1) } })}
                  />
                </Space>
              )}
            </Space>
          </Card>
        );
      })}
      {!disabled && (
        <Button icon={<PlusOutlined />} disabled={draft.tables.length >= 8} onClick={() => onChange(addJoinTable(draft))}>
          添加关联表
        </Button>
      )}
    </Space>
  );
}

export function SqlSource({ draft, onChange, disabled }: { draft: Draft; onChange: (d: Draft) => void; disabled?: boolean }) {
  return (
    <>
      <Form.Item label="SQL" required extra="只读的一条查询语句；参数以 :name 引用，按参数绑定，从不拼接进 SQL">
        <div data-testid="dataset-sql">
          <SqlEditor value={draft.sql} onChange={(sql) => onChange({ ...draft, sql })} readOnly={disabled} height={220} />
        </div>
      </Form.Item>
      <Form.Item label="参数">
        <ParamTable value={draft.params} onChange={(params) => onChange({ ...draft, params })} readOnly={disabled} />
      </Form.Item>
    </>
  );
}
