// API 文档 (issue 25 §7): the online APIs as the OpenAPI document describes them (GET /open/api-docs), each with
// its request parameters, answer and a 试一试 panel: the caller pastes an API key of their own (keys are kept
// hashed, so the platform cannot fill it in), edits the parameters as JSON and sends the real call
// (POST /open/api/{name} with X-API-Key, no session), seeing status, time, the headers that matter (cache,
// truncation, Retry-After) and the body. The key stays in this page's memory only.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Descriptions, Empty, Input, List, Row, Space, Spin, Table, Tag, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { request } from '../../core/request';

interface SchemaProp {
  type?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
}
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  'x-api-version'?: string;
  security?: unknown[];
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, SchemaProp>; required?: string[] } } } };
  responses: Record<string, { description?: string; content?: { 'application/json': { schema: { properties?: { data?: unknown } } } } }>;
}
interface OpenApiDoc {
  paths: Record<string, { post: Operation }>;
}

interface TryResult {
  http: number;
  ms: number;
  headers: Array<[string, string]>;
  body: string;
}

const SHOWN_HEADERS = ['x-cache', 'x-result-truncated', 'retry-after', 'x-request-id'];

/** The parameters' defaults as the JSON a caller would send. */
function sampleBody(props: Record<string, SchemaProp>): string {
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props)) out[k] = p.default ?? (p.type === 'integer' || p.type === 'number' ? 0 : p.type === 'boolean' ? false : '');
  return JSON.stringify(out, null, 2);
}

function TryIt({ path, op }: { path: string; op: Operation }) {
  const props = op.requestBody?.content['application/json'].schema.properties ?? {};
  const [key, setKey] = useState('');
  const [body, setBody] = useState(() => sampleBody(props));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TryResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const isPublic = Array.isArray(op.security) && op.security.length === 0;

  const send = async () => {
    setProblem(null);
    let parsed: unknown;
    try {
      parsed = body.trim() ? JSON.parse(body) : {};
    } catch {
      return setProblem('请求参数不是合法的 JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return setProblem('请求参数必须是 JSON 对象（参数名: 值）');
    if (!key.trim() && !isPublic) return setProblem('请填写您的 API Key（在「API Key」页面创建，创建时只显示一次）');
    setBusy(true);
    const started = performance.now();
    try {
      const res = await fetch(path, {
        method: 'POST',
        credentials: 'omit',
        headers: { 'content-type': 'application/json', ...(key.trim() ? { 'x-api-key': key.trim() } : {}) },
        body: JSON.stringify(parsed),
      });
      const text = await res.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        /* shown as sent */
      }
      setResult({
        http: res.status,
        ms: Math.round(performance.now() - started),
        headers: SHOWN_HEADERS.flatMap((h) => (res.headers.get(h) ? [[h, res.headers.get(h)!] as [string, string]] : [])),
        body: pretty.length > 200_000 ? `${pretty.slice(0, 200_000)}\n…（仅显示前 200,000 个字符）` : pretty,
      });
    } catch (e) {
      setProblem(`请求未能发出：${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title="试一试" data-testid="try-it">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input.Password
          aria-label="API Key"
          placeholder={isPublic ? '公开接口，可不填 API Key' : '粘贴您的 API Key（只在本页使用，不保存）'}
          value={key}
          autoComplete="off"
          maxLength={200}
          onChange={(e) => setKey(e.target.value)}
        />
        <Input.TextArea aria-label="请求参数" rows={Math.min(12, Math.max(4, body.split('\n').length))} value={body} onChange={(e) => setBody(e.target.value)} style={{ fontFamily: 'monospace' }} />
        {problem && <Alert type="warning" showIcon message={problem} />}
        <Button type="primary" icon={<SendOutlined />} loading={busy} onClick={() => void send()}>
          发送请求
        </Button>
        {result && (
          <div data-testid="try-result">
            <Space wrap style={{ marginBottom: 8 }}>
              <Tag color={result.http === 200 ? 'success' : result.http === 429 ? 'warning' : 'error'}>HTTP {result.http}</Tag>
              <Tag>{result.ms} ms</Tag>
              {result.headers.map(([h, v]) => (
                <Tag key={h}>
                  {h}: {v}
                </Tag>
              ))}
            </Space>
            <pre style={{ maxHeight: 360, overflow: 'auto', background: '#f6f8fa', padding: 8, margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{result.body}</pre>
          </div>
        )}
      </Space>
    </Card>
  );
}

function ApiDetail({ path, op }: { path: string; op: Operation }) {
  const schema = op.requestBody?.content['application/json'].schema;
  const required = new Set(schema?.required ?? []);
  const rows = Object.entries(schema?.properties ?? {}).map(([name, p]) => ({
    key: name,
    name,
    type: p.format === 'date-time' ? 'date' : (p.type ?? ''),
    required: required.has(name) ? '是' : '否',
    def: p.default === undefined ? '' : JSON.stringify(p.default),
    description: [p.description, p.maximum !== undefined ? `最大 ${p.maximum}` : ''].filter(Boolean).join('；'),
  }));
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="接口">
          <Typography.Text code copyable>
            POST {path}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="说明">{op.summary}</Descriptions.Item>
        {op.description && <Descriptions.Item label="描述">{op.description}</Descriptions.Item>}
        <Descriptions.Item label="版本">{op['x-api-version']}</Descriptions.Item>
        <Descriptions.Item label="访问">{isPublic ? '公开（无需凭证）' : '请求头 X-API-Key，或登录令牌 Authorization: Bearer'}</Descriptions.Item>
      </Descriptions>
      <Table
        size="small"
        pagination={false}
        scroll={{ x: 560 }}
        dataSource={rows}
        locale={{ emptyText: '无请求参数' }}
        columns={[
          { title: '参数名', dataIndex: 'name', width: 140 },
          { title: '类型', dataIndex: 'type', width: 90 },
          { title: '必填', dataIndex: 'required', width: 60 },
          { title: '默认值', dataIndex: 'def', width: 120, ellipsis: true },
          { title: '说明', dataIndex: 'description', ellipsis: true },
        ]}
      />
      <TryIt key={path} path={path} op={op} />
    </Space>
  );
}

export default function ApiDocs() {
  const [doc, setDoc] = useState<OpenApiDoc | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  useEffect(() => {
    // the OpenAPI document itself, not an envelope: the raw answer of the one request layer (token, errors)
    request.get<OpenApiDoc>('/open/api-docs', { baseURL: '', silent: true }).then(
      (r) => (r.data && typeof r.data === 'object' && 'paths' in r.data ? setDoc(r.data) : setFailed('返回的不是接口文档')),
      (e: unknown) => setFailed(e instanceof Error ? e.message : '加载失败'),
    );
  }, []);
  const entries = useMemo(() => Object.entries(doc?.paths ?? {}).map(([path, v]) => ({ path, op: v.post })), [doc]);
  const shown = entries.filter((e) => !search || e.op.operationId.toLowerCase().includes(search.toLowerCase()) || (e.op.summary ?? '').includes(search));
  const current = entries.find((e) => e.path === chosen) ?? shown[0];

  if (failed) return <Alert type="error" showIcon message={`接口文档加载失败：${failed}`} />;
  if (!doc) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  return (
    <Row gutter={[16, 16]} data-testid="api-docs">
      <Col xs={24} md={8} lg={6}>
        <Card size="small" title={`已上线接口（${entries.length}）`}>
          <Input.Search aria-label="搜索接口" placeholder="按接口名或说明搜索" allowClear maxLength={50} onChange={(e) => setSearch(e.target.value)} style={{ marginBottom: 8 }} />
          <List
            size="small"
            dataSource={shown}
            locale={{ emptyText: <Empty description={entries.length ? '没有匹配的接口' : '还没有已上线的接口'} /> }}
            style={{ maxHeight: '60vh', overflow: 'auto' }}
            renderItem={(e) => (
              <List.Item
                data-testid={`api-doc-${e.op.operationId}`}
                onClick={() => setChosen(e.path)}
                style={{ cursor: 'pointer', background: current?.path === e.path ? '#e6f4ff' : undefined, paddingInline: 8 }}
              >
                <List.Item.Meta title={e.op.operationId} description={e.op.summary} />
              </List.Item>
            )}
          />
        </Card>
      </Col>
      <Col xs={24} md={16} lg={18}>
        {current ? <ApiDetail key={current.path} path={current.path} op={current.op} /> : entries.length > 0 && <Empty description="选择一个接口查看文档" />}
      </Col>
    </Row>
  );
}
