// API 监控 (issue 25 §5): calls, errors, p50 / p95 latency and cache hit rate of the published APIs over the last
// hour, day or week, per API and per key, as ECharts charts from the server's per-minute counters
// (POST /gemini/api/monitor/overview); the slowest calls with their parameters, secrets masked by the server
// (monitor/slow); and each API's alert rule (alert/get|save|delete): an API whose rule fires is red here and on
// the API list. The hour view refreshes itself every 30 seconds.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Card, Col, Empty, Form, InputNumber, Modal, Popconfirm, Row, Segmented, Select, Space, Spin, Statistic, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { BellOutlined, ReloadOutlined } from '@ant-design/icons';
import { get, post } from '../../core/request';
import { hasPermission } from '../../core/permission';
import { useNarrow } from '../../ui/narrow';
import { useEChart } from '../../../widgets/charts/useEChart';
import { ScreenThemeContext, screenTheme } from '../../../widgets/charts/themes';
import type { EChartsOption } from '../../../widgets/charts/echarts';
import { lineOption } from './lineOption';
import type { AlertRule, CallFigures, MonitorOverview as Overview, MonitorRange, SlowCall } from '../../../common/apiMonitor';

type Range = MonitorRange;

const RANGES: Array<{ label: string; value: Range }> = [
  { label: '最近 1 小时', value: 'hour' },
  { label: '最近 1 天', value: 'day' },
  { label: '最近 1 周', value: 'week' },
];
const METRICS = [
  { label: '错误率（%）', value: 'errorRate' },
  { label: 'P95 耗时（毫秒）', value: 'p95' },
];
const LIGHT = screenTheme('bright');
/** The three charts: what each draws from the series' points. */
const CHARTS: Array<{ title: string; unit: string; series: Array<{ name: string; field: 'calls' | 'errors' | 'p50' | 'p95' | 'cacheHitRate' | 'errorRate'; type?: 'bar' }> }> = [
  { title: '调用与错误', unit: '次', series: [{ name: '调用次数', field: 'calls', type: 'bar' }, { name: '错误次数', field: 'errors', type: 'bar' }] },
  { title: '耗时（P50 / P95）', unit: '毫秒', series: [{ name: 'P50', field: 'p50' }, { name: 'P95', field: 'p95' }] },
  { title: '缓存命中率与错误率', unit: '%', series: [{ name: '缓存命中率', field: 'cacheHitRate' }, { name: '错误率', field: 'errorRate' }] },
];
const ms = (v: number | null) => (v === null ? '—' : `${v} ms`);
const rate = (v: number | null) => (v === null ? '—' : `${v}%`);
const ruleText = (r: AlertRule) => `${r.metric === 'errorRate' ? '错误率' : 'P95'} > ${r.threshold}${r.metric === 'errorRate' ? '%' : ' ms'}（最近 ${r.minutes} 分钟）`;

/** What the per-API and per-key tables share: small, ten a page. */
const FIGURE_TABLE = { size: 'small' as const, pagination: { pageSize: 10, hideOnSinglePage: true } };

/** The figures' columns of the per-API and per-key tables. */
function figureColumns<T extends CallFigures>(): TableColumnsType<T> {
  return [
    { title: '调用', dataIndex: 'calls', width: 90 },
    { title: '错误', dataIndex: 'errors', width: 110, render: (v: number, r) => `${v}（${rate(r.errorRate)}）` },
    { title: 'P50', dataIndex: 'p50', width: 100, render: ms },
    { title: 'P95', dataIndex: 'p95', width: 100, render: ms },
    { title: '缓存命中', dataIndex: 'cacheHitRate', width: 100, render: rate },
  ];
}

/** One chart, as wide as its card. */
function MonitorChart({ option, height = 240 }: { option: EChartsOption; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    ro.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => ro.disconnect();
  }, []);
  return (
    <div ref={box} style={{ width: '100%', height }}>
      {width > 0 && <ChartBody option={option} width={width} height={height} />}
    </div>
  );
}
function ChartBody({ option, width, height }: { option: EChartsOption; width: number; height: number }) {
  const { ref } = useEChart(option, width, height);
  return <div ref={ref} style={{ width, height }} />;
}

/** The alert rule of one API: metric, threshold, span, on / off; saved or removed. */
function AlertDialog({ api, onClose }: { api: { apiId: number; apiName: string }; onClose: (changed: boolean) => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<AlertRule>();
  const [loading, setLoading] = useState(true);
  const [exists, setExists] = useState(false);
  const [saving, setSaving] = useState(false);
  const metric = Form.useWatch('metric', form);
  const [channels, setChannels] = useState<Array<{ value: number; label: string }>>([]);
  useEffect(() => {
    let live = true;
    get<Array<{ value: number; label: string }>>('/gemini/api/alert/channels')
      .then((list) => live && setChannels(list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    let live = true;
    get<(AlertRule & { firing: boolean }) | null>('/gemini/api/alert/get', { apiId: api.apiId })
      .then((r) => {
        if (!live) return;
        setExists(Boolean(r));
        form.setFieldsValue(r ?? { apiId: api.apiId, metric: 'errorRate', threshold: 5, minutes: 5, enabled: true, channelIds: [] });
      })
      .catch(() => live && onClose(false))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [api.apiId]); // eslint-disable-line react-hooks/exhaustive-deps
  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await post('/gemini/api/alert/save', { ...v, apiId: api.apiId });
      message.success('告警规则已保存');
      onClose(true);
    } catch {
      /* the request layer said why */
    } finally {
      setSaving(false);
    }
  };
  const remove = async () => {
    setSaving(true);
    try {
      await get('/gemini/api/alert/delete', { apiId: api.apiId });
      message.success('告警规则已删除');
      onClose(true);
    } catch {
      /* the request layer said why */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`告警规则：${api.apiName}`}
      onCancel={() => onClose(false)}
      destroyOnHidden
      footer={
        <Space>
          {exists && (
            <Popconfirm title="确定删除这条告警规则吗？" onConfirm={remove}>
              <Button danger disabled={saving}>
                删除规则
              </Button>
            </Popconfirm>
          )}
          <Button onClick={() => onClose(false)}>取消</Button>
          <Button type="primary" loading={saving} disabled={loading} onClick={save} data-testid="alert-save">
            保存
          </Button>
        </Space>
      }
    >
      <Spin spinning={loading}>
        <Typography.Paragraph type="secondary">在所选时间段内（最近 N 分钟）该 API 的指标超过阈值时，API 在列表与监控中标红，并通知所选渠道；恢复时再通知一次。</Typography.Paragraph>
        <Form form={form} layout="vertical" requiredMark>
          <Form.Item name="metric" label="告警指标" rules={[{ required: true, message: '请选择告警指标' }]}>
            <Select options={METRICS} />
          </Form.Item>
          <Form.Item
            name="threshold"
            label={metric === 'p95' ? '阈值（毫秒）' : '阈值（%）'}
            rules={[{ required: true, message: '请输入阈值' }, { type: 'integer', min: 1, max: metric === 'p95' ? 600000 : 100, message: metric === 'p95' ? '阈值应为 1～600000 的整数（毫秒）' : '阈值应为 1～100 的整数（%）' }]}
          >
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
          <Form.Item name="minutes" label="持续时间（分钟）" rules={[{ required: true, message: '请输入持续时间' }, { type: 'integer', min: 1, max: 1440, message: '持续时间应为 1～1440 的整数（分钟）' }]}>
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
          <Form.Item name="channelIds" label="通知渠道" extra="告警与恢复时发往这些渠道；持续告警时最多每隔 ALERT_REPEAT_MINUTES 分钟（默认 60）再提醒一次">
            <Select mode="multiple" allowClear options={channels} placeholder={channels.length ? '请选择通知渠道' : '暂无可用的通知渠道（系统管理 › 通知渠道）'} optionFilterProp="label" data-testid="alert-channels" />
          </Form.Item>
          <Form.Item name="enabled" label="启用" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}

export default function ApiMonitor() {
  const narrow = useNarrow();
  const [range, setRange] = useState<Range>('hour');
  const [apiId, setApiId] = useState<number | null>(null);
  const [keyId, setKeyId] = useState<number | null>(null);
  const [data, setData] = useState<Overview | null>(null);
  const [slow, setSlow] = useState<SlowCall[]>([]);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [alertFor, setAlertFor] = useState<{ apiId: number; apiName: string } | null>(null);
  // the APIs and keys seen in the widest range, for the filters (kept while a filter narrows the view)
  const [choices, setChoices] = useState<{ apis: Overview['apis']; keys: Overview['keys'] }>({ apis: [], keys: [] });
  const canAlert = hasPermission(['api:monitor:alert']);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    setFailed(null);
    try {
      const body = { range, apiId, keyId };
      const [o, s] = await Promise.all([post<Overview>('/gemini/api/monitor/overview', body, { silent: true }), post<{ records: SlowCall[] }>('/gemini/api/monitor/slow', { ...body, limit: 20 }, { silent: true })]);
      if (mine !== seq.current) return; // a newer load is under way
      setData(o);
      setSlow(s.records);
      if (!apiId && !keyId) setChoices({ apis: o.apis, keys: o.keys });
    } catch (e) {
      if (mine === seq.current) setFailed(e instanceof Error ? e.message : '加载失败');
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [range, apiId, keyId]);

  useEffect(() => {
    void load();
    if (range !== 'hour') return;
    const t = setInterval(() => void load(), 30_000);
    return () => clearInterval(t);
  }, [load, range]);

  const times = useMemo(() => data?.series.map((p) => p.time) ?? [], [data]);
  const options = useMemo(() => CHARTS.map((c) => lineOption(times, c.series.map((x) => ({ name: x.name, type: x.type, data: data?.series.map((p) => p[x.field]) ?? [] })), c.unit)), [data, times]);
  const firing = data?.apis.filter((a) => a.alert?.firing) ?? [];
  const t = data?.totals;

  return (
    <ScreenThemeContext.Provider value={LIGHT}>
      <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="api-monitor">
        <Space wrap>
          <Segmented<Range> options={RANGES} value={range} onChange={setRange} />
          <Select<number>
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="全部 API"
            style={{ width: narrow ? 160 : 220 }}
            value={apiId ?? undefined}
            onChange={(v) => setApiId(v ?? null)}
            options={choices.apis.map((a) => ({ value: a.apiId, label: `${a.apiName}（${a.apiComment}）` }))}
          />
          <Select<number>
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="全部 Key"
            style={{ width: narrow ? 160 : 220 }}
            value={keyId ?? undefined}
            onChange={(v) => setKeyId(v ?? null)}
            options={choices.keys.map((k) => ({ value: k.keyId, label: k.keyName }))}
          />
          <Button icon={<ReloadOutlined />} onClick={() => void load()} loading={loading}>
            刷新
          </Button>
          {data && (
            <Typography.Text type="secondary">
              {data.from} 至 {data.to}，每点 {data.step === 1 ? '1 分钟' : data.step === 60 ? '1 小时' : `${data.step} 分钟`}
            </Typography.Text>
          )}
        </Space>
        {failed && <Alert type="error" showIcon message="监控数据加载失败" description={failed} closable onClose={() => setFailed(null)} />}
        {firing.length > 0 && (
          <Alert
            type="error"
            showIcon
            icon={<BellOutlined />}
            message={`${firing.length} 个 API 正在告警`}
            description={firing.map((a) => `${a.apiName}：${ruleText(a.alert!.rule)}，当前 ${a.alert!.rule.metric === 'p95' ? ms(a.alert!.value) : rate(a.alert!.value)}`).join('；')}
            data-testid="monitor-firing"
          />
        )}
        <Spin spinning={loading && !data}>
          <Row gutter={[12, 12]}>
            {[
              { title: '调用次数', value: t?.calls ?? 0 },
              { title: '错误次数', value: t?.errors ?? 0, suffix: t?.errorRate !== null && t ? `（${rate(t.errorRate)}）` : '' },
              { title: 'P50 耗时', value: t?.p50 ?? '—', suffix: t?.p50 !== null && t ? 'ms' : '' },
              { title: 'P95 耗时', value: t?.p95 ?? '—', suffix: t?.p95 !== null && t ? 'ms' : '' },
              { title: '缓存命中率', value: t?.cacheHitRate ?? '—', suffix: t?.cacheHitRate !== null && t ? '%' : '' },
            ].map((s) => (
              <Col key={s.title} xs={12} sm={8} lg={4}>
                <Card size="small">
                  <Statistic title={s.title} value={s.value} suffix={s.suffix} />
                </Card>
              </Col>
            ))}
          </Row>
        </Spin>
        <Row gutter={[12, 12]}>
          {CHARTS.map((c, i) => (
            <Col key={c.title} xs={24} xl={8}>
              <Card size="small" title={c.title}>
                {data && data.totals.calls === 0 ? <Empty description="此时间段内没有调用" /> : <MonitorChart option={options[i]} />}
              </Card>
            </Col>
          ))}
        </Row>
        <Card size="small" title="按 API" data-testid="monitor-apis">
          <Table
            {...FIGURE_TABLE}
            rowKey="apiId"
            scroll={{ x: 900 }}
            dataSource={data?.apis ?? []}
            rowClassName={(r) => (r.alert?.firing ? 'api-monitor-firing' : '')}
            onRow={(r) => ({ style: r.alert?.firing ? { background: '#fff1f0' } : undefined })}
            columns={[
              { title: 'API', dataIndex: 'apiName', render: (v: string, r) => <Tooltip title={r.apiComment}>{v}</Tooltip> },
              ...figureColumns<Overview['apis'][number]>(),
              {
                title: '告警',
                key: 'alert',
                width: 220,
                render: (_: unknown, r) =>
                  !r.alert ? (
                    <Typography.Text type="secondary">未设置</Typography.Text>
                  ) : (
                    <Tooltip title={ruleText(r.alert.rule)}>
                      <Tag color={r.alert.firing ? 'error' : 'success'} data-testid={`alert-${r.apiName}`}>
                        {r.alert.firing ? '告警' : '正常'}
                      </Tag>
                      <Typography.Text type="secondary">{ruleText(r.alert.rule)}</Typography.Text>
                    </Tooltip>
                  ),
              },
              {
                title: '操作',
                key: 'op',
                width: 170,
                render: (_: unknown, r) => (
                  <Space size={4}>
                    <Button type="link" size="small" onClick={() => setApiId(r.apiId)}>
                      只看此 API
                    </Button>
                    {canAlert && (
                      <Button type="link" size="small" onClick={() => setAlertFor({ apiId: r.apiId, apiName: r.apiName })}>
                        告警规则
                      </Button>
                    )}
                  </Space>
                ),
              },
            ]}
          />
        </Card>
        <Card size="small" title="按 API Key" data-testid="monitor-keys">
          <Table
            {...FIGURE_TABLE}
            rowKey="keyId"
            scroll={{ x: 640 }}
            dataSource={data?.keys ?? []}
            columns={[
              { title: 'API Key', dataIndex: 'keyName' },
              ...figureColumns<Overview['keys'][number]>(),
            ]}
          />
        </Card>
        <Card size="small" title="最慢的调用" data-testid="monitor-slow" extra={<Typography.Text type="secondary">敏感参数以 ****** 显示</Typography.Text>}>
          <Table
            size="small"
            rowKey="id"
            scroll={{ x: 900 }}
            pagination={false}
            dataSource={slow}
            columns={[
              { title: '时间', dataIndex: 'time', width: 170 },
              { title: 'API', dataIndex: 'apiName', width: 160 },
              { title: 'API Key', dataIndex: 'keyName', width: 140 },
              { title: '耗时', dataIndex: 'ms', width: 100, render: (v: number) => `${v} ms` },
              { title: '结果', dataIndex: 'ok', width: 80, render: (v: boolean) => <Tag color={v ? 'success' : 'error'}>{v ? '成功' : '失败'}</Tag> },
              { title: '参数', dataIndex: 'params', ellipsis: true, render: (v: string) => <Typography.Text code>{v || '—'}</Typography.Text> },
            ]}
          />
        </Card>
        {alertFor && (
          <AlertDialog
            api={alertFor}
            onClose={(changed) => {
              setAlertFor(null);
              if (changed) void load();
            }}
          />
        )}
      </Space>
    </ScreenThemeContext.Provider>
  );
}
