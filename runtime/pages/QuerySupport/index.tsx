// 查询支持 (spec part 1 §2 "Query support"): saved SQL and API queries on the left; the selected one's
// SQL pane (data source, parameters, script) or API pane (address, method, parameters) on the right,
// with Save, Test and the JSON result. The editors are the shared ones of runtime/editors.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { t } from '../../core/messages';
import { App, Button, Card, Empty, Form, Input, List, Modal, Popconfirm, Radio, Select, Space, Spin, Tag, Typography } from 'antd';
import { ApiOutlined, DatabaseOutlined, DeleteOutlined, PlayCircleOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { usePermission } from '../../core/permission';
import { useBusy } from '../../core/busy';
import { settle } from '../../core/settle';
import { useDict } from '../../core/dicts';
import { ParamTable, ResultPane, SqlEditor, type ParamRow } from '../../editors';
import { askDiscard, useLeaveGuard } from '../../ui/leave';
import { SplitPane } from '../../ui/SplitPane';
import { queryApi, rowsOf, storedOf, type SavedQuery } from './api';

interface Draft {
  id: number;
  queryName: string;
  queryType: 'SQL' | 'API';
  dsName: string;
  script: string;
  api: string;
  apiMethod: string;
  params: ParamRow[];
}

const toDraft = (q: SavedQuery): Draft => ({
  id: q.id,
  queryName: q.queryName,
  queryType: q.queryType === 'API' ? 'API' : 'SQL',
  dsName: q.dsName ?? '',
  script: q.script ?? '',
  api: q.api ?? '',
  apiMethod: q.apiMethod ?? 'GET',
  params: rowsOf(q.requestParams),
});

const bodyOf = (d: Draft) => ({
  id: d.id,
  queryName: d.queryName,
  queryType: d.queryType,
  requestParams: storedOf(d.params),
  ...(d.queryType === 'SQL' ? { dsName: d.dsName || null, script: d.script || null } : { api: d.api || null, apiMethod: d.apiMethod }),
});

/** What the form lacks before Save or Test, with the spec's messages; null when complete. */
function missing(d: Draft): string | null {
  if (d.queryType === 'SQL') {
    if (!d.dsName) return '请选择数据源';
    if (!d.script.trim()) return '请输入SQL脚本';
  } else if (!d.api.trim()) return '请输入API接口';
  else if (!/^https?:\/\//i.test(d.api.trim())) return 'API接口须以 http:// 或 https:// 开头';
  const bad = d.params.find((p) => p.paramName && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.paramName));
  if (bad) return `参数名不合法：${bad.paramName}`;
  return null;
}

const LIST_PAGE_SIZE = 20;

export default function QuerySupport() {
  const { message, modal } = App.useApp();
  const can = usePermission();
  const methods = useDict('API_METHOD');
  const queryTypes = useDict('QUERY_TYPE');
  const [list, setList] = useState<SavedQuery[]>([]);
  // the list is paged on the server and searchable by name: no query is out of reach however many there are
  const [paging, setPaging] = useState({ pageNum: 1, search: '' });
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [sources, setSources] = useState<Array<{ value: string; label: string }>>([]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<string>('');
  const [result, setResult] = useState<unknown>(undefined);
  const [busy, whileBusy] = useBusy<'save' | 'test'>();
  const [creating, setCreating] = useState(false);
  const [form] = Form.useForm<{ queryName: string; queryType: string }>();
  const dirty = draft !== null && JSON.stringify(bodyOf(draft)) !== saved;

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const page = await queryApi.list({ pageNum: paging.pageNum, pageSize: LIST_PAGE_SIZE, search: paging.search });
      setList(page.records);
      setTotal(page.total);
    } catch {
      /* the request layer showed why; the list stays as it was */
    } finally {
      setLoading(false);
    }
  }, [paging]);

  useEffect(() => {
    void reload();
    queryApi
      .dataSources()
      .then((s) => setSources((s ?? []).map((x) => ({ value: x.value, label: x.label }))))
      .catch(() => setSources([]));
  }, [reload]);

  const open = async (id: number) => {
    const go = async () => {
      const q = await queryApi.get(id);
      const d = toDraft(q);
      setDraft(d);
      setSaved(JSON.stringify(bodyOf(d)));
      setResult(q.responseBody ?? undefined);
    };
    if (!dirty) return void (await settle(go)());
    // the app's one question (ui/leave.ts); saving here asks its own confirmation, so it offers 取消 and 不保存
    if ((await askDiscard(modal, { canSave: false })) === 'discard') await settle(go)();
  };

  // leaving query support, closing its tab or reloading with unsaved edits asks first
  useLeaveGuard(dirty, { discard: () => setDraft(null) });

  const patch = (p: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...p } : d));

  // the spec's save confirmation: 确定要保存【name】吗？ (a save replaces what is stored)
  const save = () => {
    if (!draft) return;
    const why = missing(draft);
    if (why) return void message.warning(why);
    modal.confirm({ title: '系统提示', content: t('confirmSave', { name: draft.queryName }), okText: '确定', cancelText: '取消', onOk: settle(store) });
  };

  const store = async () => {
    if (!draft) return;
    await whileBusy('save', () => queryApi.save({ ...bodyOf(draft), responseBody: result === undefined ? null : JSON.stringify(result) }));
    setSaved(JSON.stringify(bodyOf(draft)));
    message.success('保存成功');
    void reload();
  };

  const test = async () => {
    if (!draft) return;
    const why = missing(draft);
    if (why) return void message.warning(why);
    try {
      setResult(await whileBusy('test', () => queryApi.execute(bodyOf(draft))));
      message.success('测试完成');
    } catch (err) {
      setResult({ 错误: (err as Error).message });
    }
  };

  const remove = async (q: SavedQuery) => {
    await queryApi.remove(q.id);
    message.success('删除成功');
    if (draft?.id === q.id) {
      setDraft(null);
      setResult(undefined);
    }
    void reload();
  };

  const create = async () => {
    const v = await form.validateFields();
    const id = await queryApi.add({ queryName: v.queryName.trim(), queryType: v.queryType });
    message.success('添加成功');
    setCreating(false);
    form.resetFields();
    await reload();
    if (typeof id === 'number') await open(id);
  };

  const typeOptions = useMemo(() => (queryTypes.length ? queryTypes : [{ value: 'SQL', label: 'SQL' }, { value: 'API', label: 'API' }]).map((t) => ({ value: t.value, label: t.label })), [queryTypes]);

  return (
    // on a phone the list waits in a drawer; opening a query closes it
    <SplitPane
      style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}
      sideTitle="查询列表"
      drawerWidth={320}
      selection={draft?.id}
      side={
        <Card
          title="查询列表"
          size="small"
          style={{ width: 280, flex: 'none' }}
          extra={
            can(['gemini:sqlQuery:add']) && (
              <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
                新建
              </Button>
            )
          }
        >
          <Input.Search
            allowClear
            size="small"
            maxLength={20}
            placeholder="搜索查询名称"
            aria-label="搜索查询名称"
            onSearch={(text) => setPaging({ pageNum: 1, search: text.trim() })}
            style={{ marginBottom: 8 }}
          />
          <List
            loading={loading}
            dataSource={list}
            pagination={total > LIST_PAGE_SIZE ? { current: paging.pageNum, pageSize: LIST_PAGE_SIZE, total, size: 'small', simple: true, align: 'center', onChange: (pageNum) => setPaging((p) => ({ ...p, pageNum })) } : false}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无查询" /> }}
            renderItem={(q) => (
              <List.Item
                style={{ cursor: 'pointer', paddingInline: 8, background: draft?.id === q.id ? 'rgba(22,119,255,0.08)' : undefined }}
                onClick={() => void open(q.id)}
                actions={
                  can(['gemini:sqlQuery:remove'])
                    ? [
                        <Popconfirm key="del" title={`确定要删除【${q.queryName}】吗？`} okText="确定" cancelText="取消" onConfirm={settle(() => remove(q))} onPopupClick={(e) => e.stopPropagation()}>
                          <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`删除${q.queryName}`} onClick={(e) => e.stopPropagation()} />
                        </Popconfirm>,
                      ]
                    : []
                }
              >
                <Space>
                  {q.queryType === 'API' ? <ApiOutlined style={{ color: '#13c2c2' }} aria-label="API" /> : <DatabaseOutlined style={{ color: '#1677ff' }} aria-label="SQL" />}
                  <Typography.Text ellipsis style={{ maxWidth: 150 }}>
                    {q.queryName}
                  </Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        </Card>
      }
    >
      <Card
        size="small"
        style={{ flex: 1, minWidth: 0 }}
        title={
          draft ? (
            <Space>
              <span>{draft.queryName}</span>
              <Tag color={draft.queryType === 'API' ? 'cyan' : 'blue'}>{draft.queryType}</Tag>
              {dirty && <Tag color="orange">未保存</Tag>}
            </Space>
          ) : (
            '查询'
          )
        }
        extra={
          draft && (
            <Space>
              {can(['gemini:sqlQuery:edit']) && (
                <Button icon={<SaveOutlined />} loading={busy === 'save'} onClick={() => void save()}>
                  保存
                </Button>
              )}
              {can(['gemini:sqlQuery:execute']) && (
                <Button type="primary" icon={<PlayCircleOutlined />} loading={busy === 'test'} onClick={() => void test()}>
                  测试
                </Button>
              )}
            </Space>
          )
        }
      >
        {!draft ? (
          <Empty description="请从左侧选择一个查询，或新建查询" />
        ) : (
          <Spin spinning={false}>
            <Form layout="vertical" component="div">
              {draft.queryType === 'SQL' ? (
                <>
                  <Form.Item label="数据源" required>
                    <Select aria-label="数据源" placeholder="请选择数据源" value={draft.dsName || undefined} options={sources} onChange={(v) => patch({ dsName: v })} showSearch style={{ maxWidth: 360 }} />
                  </Form.Item>
                  <Form.Item label="参数">
                    <ParamTable value={draft.params} onChange={(params) => patch({ params })} />
                  </Form.Item>
                  <Form.Item label="SQL脚本" required extra="参数以 :name 或 #{name} 引用，按参数绑定执行，不做字符串拼接">
                    <SqlEditor value={draft.script} onChange={(script) => patch({ script })} />
                  </Form.Item>
                </>
              ) : (
                <>
                  <Form.Item label="API接口" required>
                    <Space.Compact style={{ width: '100%' }}>
                      <Select aria-label="请求方式" value={draft.apiMethod} style={{ width: 100 }} options={(methods.length ? methods : [{ value: 'GET', label: 'GET' }, { value: 'POST', label: 'POST' }]).map((m) => ({ value: m.value, label: m.label }))} onChange={(v) => patch({ apiMethod: String(v) })} />
                      <Input aria-label="API接口" placeholder="请输入API接口，如 http://host/path" maxLength={255} value={draft.api} onChange={(e) => patch({ api: e.target.value })} />
                    </Space.Compact>
                  </Form.Item>
                  <Form.Item label="参数">
                    <ParamTable value={draft.params} onChange={(params) => patch({ params })} />
                  </Form.Item>
                </>
              )}
              <Form.Item label="结果">
                <ResultPane value={result} loading={busy === 'test'} />
              </Form.Item>
            </Form>
          </Spin>
        )}
      </Card>

      <Modal title="新建查询" open={creating} okText="确定" cancelText="取消" onOk={settle(create)} onCancel={() => setCreating(false)} destroyOnHidden>
        <Form form={form} layout="vertical" initialValues={{ queryType: 'SQL' }}>
          <Form.Item name="queryName" label="名称" rules={[{ required: true, whitespace: true, message: '请输入数据源名称' }, { max: 50, message: '名称长度不能超过50个字符' }]} validateTrigger="onBlur">
            <Input maxLength={50} showCount placeholder="请输入名称" />
          </Form.Item>
          <Form.Item name="queryType" label="类型" rules={[{ required: true, message: '请选择类型' }]}>
            <Radio.Group options={typeOptions} />
          </Form.Item>
        </Form>
      </Modal>
    </SplitPane>
  );
}
