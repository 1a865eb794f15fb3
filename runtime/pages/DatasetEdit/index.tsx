// 数据集编辑 (ViewDatasetEdit, /datav/dataset/edit?id=; issue 35 §1): name, group, data source and cache; the source
// (表 / 关联 / SQL — SQL only for holders of datav:dataset:sql); 读取字段 proposes the fields, edited in place, plus
// calculated fields checked by the server; 预览 shows the draft's first 100 rows and its row count; 行权限; 保存 with
// the leave guard over unsaved edits. The pure edits live in model.ts.
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Spin, Table, Tabs, TreeSelect, Typography } from 'antd';
import { EyeOutlined, FunctionOutlined, HistoryOutlined, SyncOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { useBusy } from '../../core/busy';
import { usePermission } from '../../core/permission';
import { idParam, useDraft, useLeave } from '../../ui/leave';
import { buildTree, treeOptions } from '../../ui/tree';
import type { DatasetField } from '../../../common/dataset';
import { datasetCalls, type GroupRow, type PreviewAnswer, type SourceOption } from './api';
import { CalcFieldDialog } from './CalcFieldDialog';
import { FieldsTable } from './FieldsTable';
import { draftOf, emptyDraft, exprFault, faultedField, KIND_LABELS, mergeFields, missing, previewBody, saveBody, sourceMissing, type DatasetKind, type Draft } from './model';
import { FileCreate, FileData } from './FileSource';
import { RowRules } from './RowRules';
import { HistoryDrawer } from '../../ui/history/HistoryDrawer';
import { JoinEditor, SqlSource, TablePicker, useTables } from './SourceEditor';

const LIST = '/datav/dataset';
const PERM = { add: 'datav:dataset:add', edit: 'datav:dataset:edit', sql: 'datav:dataset:sql' } as const;

/** The draft with another source: its column fields go (they belong to the old source), calculated ones stay. */
const resetSource = (d: Draft, p: Partial<Draft>): Draft => ({ ...d, ...p, fields: d.fields.filter((f) => f.expr), table: p.table ?? (p.dsId !== undefined ? null : d.table), ...(p.dsId !== undefined ? { tables: [null, null], steps: emptyDraft().steps } : {}) });

export default function DatasetEdit() {
  const { search } = useLocation();
  const id = idParam(search);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const can = usePermission();
  const canSql = can([PERM.sql]);
  const { draft, setDraft, dirty, mark, load } = useDraft<Draft>(emptyDraft());
  const [loading, setLoading] = useState(Boolean(id));
  const [busy, whileBusy] = useBusy<'save' | 'fields' | 'preview'>();
  const [sources, setSources] = useState<SourceOption[]>([]);
  const [groups, setGroups] = useState<GroupRow[]>([]);
  const [tab, setTab] = useState('fields');
  const [preview, setPreview] = useState<{ answer: PreviewAnswer | null; error: string | null }>({ answer: null, error: null });
  /** the server's refusal per calculated field, with the expression it refused */
  const [faults, setFaults] = useState<Record<string, { expr: string; msg: string }>>({});
  const [calc, setCalc] = useState<{ open: boolean; editing: DatasetField | null }>({ open: false, editing: null });
  const { tables, loading: tablesLoading } = useTables(draft.dsId);
  const storedSql = id !== null && draft.kind === 'sql';
  const readOnly = !can([id ? PERM.edit : PERM.add]) || (storedSql && !canSql);

  useEffect(() => {
    datasetCalls.sources().then((s) => setSources(s ?? []), () => undefined);
    datasetCalls.groups().then((g) => setGroups(g ?? []), () => undefined);
  }, []);

  useEffect(() => {
    if (!id) {
      const fresh = emptyDraft();
      // a new dataset starts in the group chosen in the list's tree when the address names one
      const g = Number(new URLSearchParams(search).get('groupId'));
      if (g > 0) fresh.groupId = g;
      load(fresh);
      return;
    }
    let live = true;
    setLoading(true);
    datasetCalls
      .info(id)
      .then((info) => live && load(draftOf(info)))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // loading runs per id only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  /** The stored dataset read again (after an upload changed its rows or fields). */
  const reload = () => {
    if (!id) return;
    datasetCalls.info(id).then((info) => load(draftOf(info)), () => undefined);
    setPreview({ answer: null, error: null });
  };
  const patch = (p: Partial<Draft>) => setDraft((d) => ({ ...d, ...p }));
  // 历史版本 (issue 37): a restore reads the dataset again
  const [historyOpen, setHistoryOpen] = useState(false);
  const groupOptions = useMemo(() => treeOptions(buildTree(groups as unknown as Record<string, unknown>[])), [groups]);
  const sourceOptions = useMemo(() => sources.map((s) => ({ value: s.id, label: `${s.label}（${s.dbType}）` })), [sources]);
  // a stored dataset keeps its kind between the source kinds; a file dataset stays one (its rows are the upload's)
  const kinds = (Object.keys(KIND_LABELS) as DatasetKind[]).filter((k) => (k !== 'sql' || canSql || draft.kind === 'sql') && (!id || (k === 'file') === (draft.kind === 'file')));
  const isFile = draft.kind === 'file';
  const newFile = isFile && !id;
  const shownFaults = useMemo(() => Object.fromEntries(draft.fields.filter((f) => f.expr && faults[f.name]?.expr === f.expr).map((f) => [f.name, faults[f.name].msg])), [draft.fields, faults]);

  /** A refusal that names a calculated field is kept at that field (and the fields tab shown). */
  const placeFault = (msg: string, fields: DatasetField[]) => {
    const f = faultedField(msg, fields);
    if (!f) return false;
    setFaults((m) => ({ ...m, [f.name]: { expr: f.expr ?? '', msg } }));
    setTab('fields');
    return true;
  };

  const readFields = async () => {
    const why = sourceMissing(draft);
    if (why) return void message.warning(why);
    try {
      const proposed = await whileBusy('fields', () => datasetCalls.fields({ kind: draft.kind, dsId: draft.dsId, definition: previewBody(draft).definition }));
      setDraft((d) => ({ ...d, fields: mergeFields(d.fields, proposed ?? []) }));
      setTab('fields');
      message.success(`已读取 ${proposed?.length ?? 0} 个字段`);
    } catch {
      /* the request layer showed why */
    }
  };

  const runPreview = async () => {
    const why = missing(draft, true);
    if (why) return void message.warning(why);
    setTab('preview');
    try {
      const answer = await whileBusy('preview', () => datasetCalls.preview(previewBody(draft, id)));
      setPreview({ answer, error: null });
    } catch (err) {
      const msg = (err as Error).message;
      setPreview({ answer: null, error: msg });
      if (placeFault(msg, draft.fields)) message.error(msg);
    }
  };

  const save = async (): Promise<number | null> => {
    const why = missing(draft);
    if (why) {
      message.warning(why);
      return null;
    }
    try {
      const saved = await whileBusy('save', () => datasetCalls.save(saveBody(draft, id)));
      mark(draft);
      setFaults({});
      message.success('保存成功');
      if (!id) navigate(`${LIST}/edit?id=${saved}`, { replace: true });
      return saved;
    } catch (err) {
      const msg = (err as Error).message;
      placeFault(msg, draft.fields);
      message.error(msg);
      return null;
    }
  };

  const leave = useLeave(LIST, dirty, { save: async () => (await save()) !== null });

  /** The server's word on a calculated field: the draft previewed with it (when the source is complete). */
  const checkCalc = async (f: DatasetField): Promise<string | null> => {
    const fields = calc.editing ? draft.fields.map((x) => (x.name === calc.editing!.name ? f : x)) : [...draft.fields, f];
    const local = exprFault(f, fields);
    if (sourceMissing(draft) || !draft.fields.some((x) => !x.expr)) return local;
    try {
      await datasetCalls.preview(previewBody({ ...draft, fields }, id));
      return null;
    } catch (err) {
      const msg = (err as Error).message;
      const named = faultedField(msg, fields);
      return named?.name === f.name ? msg : local;
    }
  };
  const putCalc = (f: DatasetField) => {
    const editing = calc.editing;
    setDraft((d) => ({ ...d, fields: editing ? d.fields.map((x) => (x.name === editing.name ? f : x)) : [...d.fields, f] }));
    setCalc({ open: false, editing: null });
    setTab('fields');
  };

  const previewColumns = (preview.answer?.fields ?? []).map((f) => ({ title: f.label, dataIndex: f.name, key: f.name, ellipsis: true, width: 140, render: (v: unknown) => (v === null || v === undefined ? <Typography.Text type="secondary">空</Typography.Text> : typeof v === 'object' ? JSON.stringify(v) : String(v)) }));

  return (
    <Spin spinning={loading}>
      <Card
        title={
          <Space wrap>
            <span>{id ? '编辑数据集' : '新增数据集'}</span>
            {dirty && <Typography.Text type="warning">（未保存）</Typography.Text>}
          </Space>
        }
        extra={
          <Space>
            <Button type="primary" loading={busy === 'save'} disabled={readOnly || newFile} onClick={() => void save()}>
              保存
            </Button>
            {id && !readOnly && (
              <Button icon={<HistoryOutlined />} onClick={() => setHistoryOpen(true)} data-testid="dataset-history">
                历史版本
              </Button>
            )}
            <Button onClick={() => leave()}>返回</Button>
          </Space>
        }
      >
        {id && <HistoryDrawer kind="dataset" itemKey={String(id)} open={historyOpen} onClose={() => setHistoryOpen(false)} onRestored={reload} />}
        {storedSql && !canSql && <Alert style={{ marginBottom: 16 }} type="info" showIcon message="SQL 数据集只有开发人员可以查看和修改" />}
        <Form layout="vertical" component="div" disabled={readOnly}>
          <Row gutter={16}>
            <Col xs={24} md={12} xl={6}>
              <Form.Item label="名称" required>
                <Input aria-label="数据集名称" placeholder="请输入数据集名称" maxLength={100} value={draft.name} onChange={(e) => patch({ name: e.target.value })} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={6}>
              <Form.Item label="分组">
                <TreeSelect
                  aria-label="分组"
                  placeholder="未分组"
                  allowClear
                  value={draft.groupId ? String(draft.groupId) : undefined}
                  treeData={groupOptions}
                  treeDefaultExpandAll
                  showSearch
                  treeNodeFilterProp="title"
                  fieldNames={{ label: 'title', value: 'value', children: 'children' }}
                  notFoundContent="暂无分组，可在数据集列表左侧添加"
                  onChange={(v) => patch({ groupId: v ? Number(v) : null })}
                />
              </Form.Item>
            </Col>
            {!isFile && (
              <Col xs={24} md={12} xl={6}>
                <Form.Item label="数据源" required>
                  <Select aria-label="数据源" placeholder="请选择数据源" showSearch optionFilterProp="label" value={draft.dsId ?? undefined} options={sourceOptions} onChange={(dsId: number) => setDraft((d) => (d.dsId === dsId ? d : resetSource(d, { dsId })))} />
                </Form.Item>
              </Col>
            )}
            <Col xs={24} md={12} xl={6}>
              <Form.Item label="缓存秒数" extra="0 表示实时（不缓存）；保存后旧的缓存立即失效">
                <InputNumber aria-label="缓存秒数" min={0} max={86400} precision={0} style={{ width: '100%' }} value={draft.cacheTtl} onChange={(v) => patch({ cacheTtl: v ?? 0 })} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label="类型">
            <Radio.Group
              aria-label="数据集类型"
              optionType="button"
              buttonStyle="solid"
              value={draft.kind}
              disabled={readOnly || (id !== null && draft.kind === 'sql' && !canSql)}
              options={kinds.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
              onChange={(e) => setDraft((d) => (d.kind === e.target.value ? d : resetSource(d, { kind: e.target.value as DatasetKind })))}
            />
          </Form.Item>
          {draft.kind === 'table' && (
            <Form.Item label="数据表" required>
              <TablePicker label="数据表" value={draft.table} tables={tables} loading={tablesLoading} disabled={readOnly || !draft.dsId} onChange={(table) => setDraft((d) => (d.table?.name === table.name ? d : resetSource(d, { table })))} />
            </Form.Item>
          )}
          {draft.kind === 'join' && (
            <Form.Item label="关联的表" required extra="每张关联表选择连接方式，并从下拉中选出前面表的列与本表的列">
              <JoinEditor draft={draft} onChange={(d) => setDraft(d)} tables={tables} loading={tablesLoading} disabled={readOnly || !draft.dsId} />
            </Form.Item>
          )}
          {draft.kind === 'sql' && <SqlSource draft={draft} onChange={(d) => setDraft(d)} disabled={readOnly} />}
          {newFile && (
            <Form.Item label="文件" required>
              <FileCreate
                name={draft.name}
                groupId={draft.groupId}
                disabled={readOnly}
                onCreated={(made) => {
                  mark(draft);
                  navigate(made.length === 1 ? `${LIST}/edit?id=${made[0].id}` : LIST, { replace: true });
                }}
              />
            </Form.Item>
          )}
          {isFile && id !== null && draft.file && (
            <Form.Item label="文件数据">
              <FileData id={id} info={draft.file} columns={draft.fields.filter((f) => !f.expr).map((f) => f.column ?? f.name)} disabled={readOnly || dirty} disabledWhy={readOnly ? '没有修改数据集的权限' : '请先保存或放弃字段的修改'} onChanged={reload} />
            </Form.Item>
          )}
        </Form>
        {!newFile && (
          <Space wrap style={{ marginBottom: 8 }}>
            {!isFile && (
              <Button icon={<SyncOutlined />} loading={busy === 'fields'} disabled={readOnly} onClick={() => void readFields()}>
                读取字段
              </Button>
            )}
            <Button icon={<FunctionOutlined />} disabled={readOnly} onClick={() => setCalc({ open: true, editing: null })}>
              新增计算字段
            </Button>
            <Button icon={<EyeOutlined />} loading={busy === 'preview'} onClick={() => void runPreview()}>
              预览
            </Button>
          </Space>
        )}
        <Tabs
          style={newFile ? { display: 'none' } : undefined}
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'fields',
              label: `字段（${draft.fields.length}）`,
              children: <FieldsTable fields={draft.fields} onChange={(fields) => patch({ fields })} serverFaults={shownFaults} readOnly={readOnly} onEditCalc={(f) => setCalc({ open: true, editing: f })} />,
            },
            {
              key: 'preview',
              label: '预览',
              children: (
                <div data-testid="dataset-preview">
                  {preview.error && <Alert style={{ marginBottom: 8 }} type="error" showIcon message={preview.error} />}
                  {preview.answer ? (
                    <>
                      <Typography.Paragraph data-testid="preview-total">
                        共 {preview.answer.total} 行{preview.answer.total > preview.answer.rows.length ? `，显示前 ${preview.answer.rows.length} 行` : ''}
                      </Typography.Paragraph>
                      <Table size="small" rowKey="#" columns={previewColumns} dataSource={preview.answer.rows.map((r, i) => ({ ...r, '#': i }))} pagination={{ pageSize: 20, showSizeChanger: false }} scroll={{ x: Math.max(600, previewColumns.length * 140) }} />
                    </>
                  ) : (
                    !preview.error && <Typography.Text type="secondary">点「预览」查看当前设置下的前 100 行和总行数（不必先保存）</Typography.Text>
                  )}
                </div>
              ),
            },
            {
              key: 'rules',
              label: `行权限（${draft.rules.length}）`,
              children: <RowRules rules={draft.rules} fields={draft.fields} onChange={(rules) => patch({ rules })} readOnly={readOnly} />,
            },
          ]}
        />
      </Card>
      <CalcFieldDialog open={calc.open} editing={calc.editing} fields={draft.fields} check={checkCalc} onOk={putCalc} onCancel={() => setCalc({ open: false, editing: null })} />
    </Spin>
  );
}
