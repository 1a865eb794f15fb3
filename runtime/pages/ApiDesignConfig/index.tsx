// API配置 (ViewApiDesignConfig, spec part 2 "API configuration"): data source, test, cache switch and
// duration, the SQL script, request parameters as a table or JSON (kept in sync); on the right the
// read-only 响应结果 and 执行SQL of the last test and the response parameter list. Save / Back with
// unsaved-change tracking; a released version can be viewed read-only through the version selector.
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Col, FloatButton, Form, Input, Row, Select, Space, Spin, Switch, Tabs, Typography } from 'antd';
import { NodeIndexOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router-dom';
import { useBusy } from '../../core/busy';
import { usePermission } from '../../core/permission';
import { ParamTable, ResultPane, SqlEditor, valuesOf, type ParamRow } from '../../editors';
import { apiCalls, idParam, PlanView, useDraft, useLeave, versionLabel, type ApiConfig, type ApiPlan, type VersionOption } from '../../apimgr';

const LIST = '/apimgr/design';

interface Draft {
  dsName: string;
  cacheable: boolean;
  cacheTime: string;
  pageable: boolean;
  pageSizeMax: string;
  maxRows: string;
  script: string;
  reqParamList: ParamRow[];
  respParamList: ParamRow[];
}

const draftOf = (c: ApiConfig): Draft => ({
  dsName: c.dsName ?? '',
  cacheable: Boolean(c.cacheable),
  cacheTime: c.cacheTime == null ? '' : String(c.cacheTime),
  pageable: Boolean(c.pageable),
  pageSizeMax: c.pageSizeMax == null ? '' : String(c.pageSizeMax),
  maxRows: c.maxRows == null ? '' : String(c.maxRows),
  script: c.script ?? '',
  reqParamList: c.reqParamList,
  respParamList: c.respParamList,
});

function missing(d: Draft): string | null {
  if (!d.dsName) return '请选择数据源';
  if (!d.script.trim()) return '请配置脚本';
  if (d.cacheable && (!/^\d{1,5}$/.test(d.cacheTime) || Number(d.cacheTime) < 1)) return '缓存时长只能是1到99999之间的整数（秒）';
  if (d.pageSizeMax && (Number(d.pageSizeMax) < 1 || Number(d.pageSizeMax) > 1000)) return '每页最大条数只能是 1 到 1000 之间的整数';
  if (d.maxRows && (Number(d.maxRows) < 1 || Number(d.maxRows) > 10000)) return '最大返回行数只能是 1 到 10000 之间的整数';
  const bad = [...d.reqParamList, ...d.respParamList].find((p) => !p.paramName || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.paramName));
  if (bad) return bad.paramName ? `参数名不合法：${bad.paramName}` : '参数名不能为空';
  return null;
}

/** A number box that takes digits only (spec §4), at most `max` of them. */
function DigitsItem(p: { label: string; aria?: string; tooltip?: string; max: number; placeholder: string; disabled?: boolean; value: string; onChange: (v: string) => void }) {
  return (
    <Form.Item label={p.label} tooltip={p.tooltip} style={{ marginBottom: 12 }}>
      <Input
        aria-label={p.aria ?? p.label}
        style={{ width: 120 }}
        maxLength={p.max}
        placeholder={p.placeholder}
        disabled={p.disabled}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value.replace(/\D/g, '').slice(0, p.max))}
      />
    </Form.Item>
  );
}

/** Response parameters guessed from the test's rows: one per column, typed by its first value. */
function respFromRows(rows: unknown[], keep: ParamRow[]): ParamRow[] {
  const first = rows.find((r) => r && typeof r === 'object') as Record<string, unknown> | undefined;
  if (!first) return keep;
  return Object.entries(first).map(([name, v]) => {
    const old = keep.find((p) => p.paramName === name);
    const type = typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v === 'boolean' ? 'boolean' : 'string';
    return { paramName: name, paramType: old?.paramType ?? type, paramValue: '', paramComment: old?.paramComment ?? '' };
  });
}

export default function ApiDesignConfig() {
  const { search } = useLocation();
  const id = idParam(search);
  const { message } = App.useApp();
  const can = usePermission();
  const [cfg, setCfg] = useState<ApiConfig | null>(null);
  const [result, setResult] = useState<{ respResult?: unknown; querySql?: string }>({});
  const [tab, setTab] = useState('result');
  const [sources, setSources] = useState<Array<{ value: string; label: string }>>([]);
  const [versions, setVersions] = useState<VersionOption[]>([]);
  const [viewing, setViewing] = useState<{ version: number; draft: Draft; respResult: unknown; querySql: string } | null>(null);
  const [busy, whileBusy] = useBusy<'save' | 'test' | 'plan'>();
  const [plan, setPlan] = useState<{ plan: ApiPlan | null; error: string | null }>({ plan: null, error: null });
  const [waiting, setWaiting] = useState(false);
  const { draft, setDraft, dirty, mark, load } = useDraft<Draft | null>(null);
  const leave = useLeave(LIST, dirty);
  const readOnly = waiting || viewing !== null || !can(['api:design:edit']);

  useEffect(() => {
    if (!id) return;
    let live = true;
    Promise.all([apiCalls.config(id), apiCalls.versions(id), apiCalls.design(id), apiCalls.dataSources()])
      .then(([c, v, a, ds]) => {
        if (!live) return;
        setCfg(c);
        load(draftOf(c));
        setVersions(v ?? []);
        setWaiting(a.apiStatus === 1);
        setSources((ds ?? []).map((x) => ({ value: x.value, label: x.label })));
        setResult({ respResult: c.respResult ?? undefined, querySql: c.querySql ?? undefined });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  const patch = (p: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...p } : d));
  const shown = viewing?.draft ?? draft;
  const shownResult = viewing ? { respResult: viewing.respResult, querySql: viewing.querySql } : result;

  const bodyOf = (d: Draft) => ({
    apiId: id,
    dsName: d.dsName,
    cacheable: d.cacheable ? 1 : 0,
    cacheTime: d.cacheable ? d.cacheTime : null,
    pageable: d.pageable ? 1 : 0,
    pageSizeMax: d.pageable && d.pageSizeMax ? d.pageSizeMax : null,
    maxRows: d.maxRows || null,
    script: d.script,
    reqParamList: d.reqParamList,
    respParamList: d.respParamList,
    reqParams: JSON.stringify(valuesOf(d.reqParamList)),
  });

  const test = async () => {
    if (!draft) return;
    const why = missing(draft);
    if (why) return void message.warning(why);
    try {
      const r = await whileBusy('test', () => apiCalls.execute(bodyOf(draft)));
      setResult({ respResult: r.respResult, querySql: r.querySql });
      setPlan({ plan: r.plan, error: r.planError });
      if (!draft.respParamList.length) patch({ respParamList: respFromRows(r.respResult, []) });
      message.success(r.truncated ? `测试完成（结果超过上限，只显示前 ${r.rowCount} 行）` : '测试完成');
    } catch (err) {
      setResult({ respResult: { 错误: (err as Error).message }, querySql: result.querySql });
    }
  };

  // the plan only: EXPLAIN with the values shown bound, nothing runs
  const explain = async () => {
    if (!draft) return;
    const why = missing(draft);
    if (why) return void message.warning(why);
    setTab('plan');
    try {
      setPlan({ plan: await whileBusy('plan', () => apiCalls.plan(bodyOf(draft))), error: null });
    } catch (err) {
      setPlan({ plan: null, error: (err as Error).message });
    }
  };

  const save = async () => {
    if (!draft) return;
    const why = missing(draft);
    if (why) return void message.warning(why);
    const respResult = result.respResult === undefined ? null : typeof result.respResult === 'string' ? result.respResult : JSON.stringify(result.respResult);
    try {
      await whileBusy('save', () => apiCalls.saveConfig({ ...bodyOf(draft), respResult, querySql: result.querySql ?? null }));
      mark(draft);
      message.success('保存成功');
    } catch {
      /* shown by the request layer */
    }
  };

  const pickVersion = async (v: number) => {
    if (!id) return;
    if (v === 0) return setViewing(null);
    const c = await apiCalls.version(id, v);
    setViewing({ version: v, draft: draftOf(c), respResult: c.respResult ?? undefined, querySql: c.querySql ?? '' });
  };

  const versionOptions = useMemo(() => [{ value: 0, label: '当前设计' }, ...versions.map((v) => ({ value: v.value, label: v.label }))], [versions]);

  if (!id) return <Alert type="error" showIcon message="缺少接口编号" />;
  return (
    <Spin spinning={!shown}>
      <Card
        title={
          <Space wrap>
            <Typography.Text strong>{cfg?.apiName}</Typography.Text>
            <Typography.Text type="secondary">{cfg?.apiComment}</Typography.Text>
            <Select aria-label="版本" size="small" style={{ width: 120 }} value={viewing?.version ?? 0} options={versionOptions} onChange={(v) => void pickVersion(Number(v))} />
            <Typography.Text type="secondary">最新版本 {versionLabel(cfg?.apiVersion)}</Typography.Text>
            {dirty && <Typography.Text type="warning">（未保存）</Typography.Text>}
          </Space>
        }
        extra={
          <Space>
            <Button type="primary" loading={busy === 'save'} disabled={readOnly} onClick={() => void save()}>
              保存
            </Button>
            <Button onClick={() => leave()}>返回</Button>
          </Space>
        }
      >
        {waiting && <Alert style={{ marginBottom: 16 }} type="warning" showIcon message="接口待审批中，不能修改" />}
        {viewing && <Alert style={{ marginBottom: 16 }} type="info" showIcon message={`正在查看已发布版本 V${viewing.version}（只读）；选择“当前设计”继续编辑`} />}
        {shown && (
          <Row gutter={16}>
            <Col xs={24} xl={13}>
              <Form layout="vertical" component="div" disabled={readOnly}>
                <Space align="end" wrap>
                  <Form.Item label="数据源" required style={{ marginBottom: 12 }}>
                    <Select aria-label="数据源" placeholder="请选择数据源" showSearch style={{ width: 240 }} value={shown.dsName || undefined} options={sources} onChange={(dsName) => patch({ dsName })} />
                  </Form.Item>
                  <Form.Item style={{ marginBottom: 12 }}>
                    <Button icon={<PlayCircleOutlined />} loading={busy === 'test'} disabled={!can(['api:design:execute']) || viewing !== null} onClick={() => void test()}>
                      测试
                    </Button>
                  </Form.Item>
                  <Form.Item style={{ marginBottom: 12 }}>
                    <Button icon={<NodeIndexOutlined />} loading={busy === 'plan'} disabled={!can(['api:design:execute']) || viewing !== null} onClick={() => void explain()}>
                      执行计划
                    </Button>
                  </Form.Item>
                  <Form.Item label="缓存" style={{ marginBottom: 12 }}>
                    <Switch aria-label="缓存" checked={shown.cacheable} onChange={(cacheable) => patch({ cacheable })} />
                  </Form.Item>
                  <DigitsItem label="缓存时长（秒）" aria="缓存时长" max={5} placeholder="1-99999" disabled={readOnly || !shown.cacheable} value={shown.cacheTime} onChange={(cacheTime) => patch({ cacheTime })} />
                  <Form.Item label="分页" tooltip="调用方传 pageNum、pageSize，得到 { records, total }；SQL 中不要写 LIMIT" style={{ marginBottom: 12 }}>
                    <Switch aria-label="分页" checked={shown.pageable} onChange={(pageable) => patch({ pageable })} />
                  </Form.Item>
                  <DigitsItem label="每页最大条数" max={4} placeholder="默认 100" disabled={readOnly || !shown.pageable} value={shown.pageSizeMax} onChange={(pageSizeMax) => patch({ pageSizeMax })} />
                  <DigitsItem label="最大返回行数" tooltip="超出时只返回前面的行，并在 msg 与响应头 X-Result-Truncated 中说明" max={5} placeholder="默认 10000" value={shown.maxRows} onChange={(maxRows) => patch({ maxRows })} />
                </Space>
                <Form.Item label="SQL脚本" required extra="参数以 :name 或 #{name} 引用，执行时按参数绑定，从不拼接进 SQL">
                  <div data-testid="script-editor">
                    <SqlEditor value={shown.script} onChange={(script) => patch({ script })} readOnly={readOnly} height={300} />
                  </div>
                </Form.Item>
                <Form.Item label="请求参数">
                  <div data-testid="req-params">
                    <ParamTable value={shown.reqParamList} onChange={(reqParamList) => patch({ reqParamList })} readOnly={readOnly} withComment withJson withRequired withSecret />
                  </div>
                </Form.Item>
              </Form>
            </Col>
            <Col xs={24} xl={11}>
              <Tabs
                activeKey={tab}
                onChange={setTab}
                items={[
                  { key: 'result', label: '响应结果', children: <ResultPane value={shownResult.respResult} loading={busy === 'test'} height={320} /> },
                  { key: 'sql', label: '执行SQL', children: <ResultPane value={shownResult.querySql} loading={busy === 'test'} height={320} language="sql" emptyText="测试后显示发送给数据库的 SQL 与绑定参数" /> },
                  {
                    key: 'plan',
                    label: plan.plan?.warnings.some((w) => w.code !== 'secretHidden') ? `执行计划（${plan.plan.warnings.filter((w) => w.code !== 'secretHidden').length}）` : '执行计划',
                    children: viewing ? <PlanView plan={null} emptyText="查看已发布版本时不显示执行计划" /> : <PlanView plan={plan.plan} error={plan.error} loading={busy === 'test' || busy === 'plan'} />,
                  },
                ]}
              />
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                响应参数
              </Typography.Title>
              <div data-testid="resp-params">
                <ParamTable value={shown.respParamList} onChange={(respParamList) => patch({ respParamList })} readOnly={readOnly} withComment />
              </div>
              {!readOnly && Array.isArray(result.respResult) && (
                <Button size="small" style={{ marginTop: 8 }} onClick={() => patch({ respParamList: respFromRows(result.respResult as unknown[], shown.respParamList) })}>
                  按测试结果生成响应参数
                </Button>
              )}
            </Col>
          </Row>
        )}
      </Card>
      <FloatButton.BackTop visibilityHeight={200} />
    </Spin>
  );
}
