// 系统管理 › 工作区迁移 (issue 37 item 3): moving finished work from one deployment to another.
//   导出  choose pages, screens, forms, datasets, API designs, dictionaries, roles and variables; 查看清单 shows
//         what the file will hold, each dependency with the item it came along for; 导出文件 downloads it
//   导入  a file's preview before anything is written: each item new / unchanged / changed (with the diff against
//         what this deployment holds: keep, replace or import as a copy) / refused with the reason, each data
//         source mapped to one of this deployment's (by name, or chosen); 检查 runs every check without writing,
//         确认导入 writes it all in one transaction (API designs arrive as drafts awaiting approval here)
// Calls: GET /workspace/items, POST /workspace/export, /workspace/preview, /workspace/import.
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Empty, Modal, Select, Space, Spin, Table, Tabs, Tag, Tree, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { download, get, post } from '../../core/request';
import { hasPermission } from '../../core/permission';
import { ContentDiff } from '../../ui/history/ContentDiff';

interface KindItems {
  kind: string;
  label: string;
  items: Array<{ key: string; title: string }>;
}
interface PlanItem {
  kind: string;
  kindLabel: string;
  key: string;
  title: string;
  addedFor: string | null;
}
interface PreviewItem {
  kind: string;
  kindLabel: string;
  key: string;
  title: string;
  status: 'new' | 'same' | 'changed' | 'conflict' | 'invalid';
  reason: string | null;
  before: unknown;
  beforeTitle: string | null;
  after: unknown;
}
interface Preview {
  items: PreviewItem[];
  dataSources: Array<{ name: string; type: string; target: number | null }>;
  targets: Array<{ id: number; name: string; type: string }>;
}
type Decision = 'keep' | 'replace' | 'copy';

const STATUS: Record<PreviewItem['status'], { label: string; color: string }> = {
  new: { label: '新建', color: 'success' },
  same: { label: '无变化', color: 'default' },
  changed: { label: '有更新', color: 'processing' },
  conflict: { label: '冲突', color: 'warning' },
  invalid: { label: '不能导入', color: 'error' },
};
const MAX_FILE_MB = 64;

function ExportTab() {
  const [kinds, setKinds] = useState<KindItems[] | null>(null);
  const [checked, setChecked] = useState<string[]>([]);
  const [plan, setPlan] = useState<{
    items: PlanItem[];
    dataSources: Array<{ name: string; type: string }>;
  } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    get<KindItems[]>('/workspace/items').then(setKinds, () => setKinds([]));
  }, []);
  const chosen = useMemo(
    () =>
      checked
        .filter((k) => k.includes(':'))
        .map((k) => {
          const at = k.indexOf(':');
          return { kind: k.slice(0, at), key: k.slice(at + 1) };
        }),
    [checked],
  );
  useEffect(() => setPlan(null), [checked]);
  const tree = useMemo(
    () =>
      (kinds ?? [])
        .filter((k) => k.items.length)
        .map((k) => ({
          key: k.kind,
          title: `${k.label}（${k.items.length}）`,
          children: k.items.map((i) => ({
            key: `${k.kind}:${i.key}`,
            title: i.title,
          })),
        })),
    [kinds],
  );
  const showPlan = async () => {
    setBusy(true);
    try {
      setPlan(await post('/workspace/export', { items: chosen, plan: true }));
    } finally {
      setBusy(false);
    }
  };
  if (!kinds) return <Spin />;
  if (!tree.length) return <Empty description="没有可以导出的内容" />;
  return (
    <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
      <Card size="small" title="选择内容" style={{ flex: '1 1 320px', minWidth: 0 }} styles={{ body: { maxHeight: '60vh', overflow: 'auto' } }}>
        <Tree checkable selectable={false} treeData={tree} checkedKeys={checked} onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))} data-testid="workspace-tree" />
      </Card>
      <Card
        size="small"
        title={`导出清单${plan ? `（${plan.items.length} 项）` : ''}`}
        style={{ flex: '2 1 420px', minWidth: 0 }}
        extra={
          <Space wrap>
            <Button onClick={showPlan} disabled={!chosen.length} loading={busy}>
              查看清单
            </Button>
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              disabled={!chosen.length}
              onClick={() =>
                download('/workspace/export', undefined, undefined, {
                  method: 'POST',
                  body: { items: chosen },
                })
              }
            >
              导出文件
            </Button>
          </Space>
        }
      >
        {!chosen.length && <Typography.Paragraph type="secondary">勾选要导出的内容；它们依赖的数据集、接口、字典会一并导出。</Typography.Paragraph>}
        {chosen.length > 0 && !plan && <Typography.Paragraph type="secondary">已选择 {chosen.length} 项。点「查看清单」看将导出的全部内容（含依赖）。</Typography.Paragraph>}
        {plan && (
          <>
            <Table<PlanItem>
              size="small"
              rowKey={(r) => `${r.kind}:${r.key}`}
              pagination={false}
              dataSource={plan.items}
              scroll={{ x: 480 }}
              data-testid="workspace-plan"
              columns={[
                { title: '类型', dataIndex: 'kindLabel', width: 80 },
                { title: '名称', dataIndex: 'title', ellipsis: true },
                {
                  title: '说明',
                  dataIndex: 'addedFor',
                  render: (v: string | null) => (v ? <Tag color="blue">随{v}附带</Tag> : <Tag>已选择</Tag>),
                },
              ]}
            />
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              数据源只按名称和类型导出（
              {plan.dataSources.map((d) => `${d.name}（${d.type}）`).join('、') || '无'}
              ），不含地址、账号和密码；导入时对应到目标环境的数据源。
            </Typography.Paragraph>
          </>
        )}
      </Card>
    </div>
  );
}

function ImportTab() {
  const { modal, message } = App.useApp();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [mapping, setMapping] = useState<Record<string, number>>({});
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [diff, setDiff] = useState<PreviewItem | null>(null);

  const load = async (text: string, map: Record<string, number>) => {
    setLoading(true);
    setError(null);
    try {
      const p = await post<Preview>('/workspace/preview', { file: text, dataSources: map }, { silent: true } as never);
      setPreview(p);
      // what was mapped by name is shown as chosen
      setMapping((m) => ({
        ...Object.fromEntries(p.dataSources.filter((d) => d.target).map((d) => [d.name, d.target!])),
        ...m,
      }));
    } catch (e) {
      setPreview(null);
      setError((e as Error).message);
    } finally {
      setLoading(false);
    }
  };
  const choose = async (f: File) => {
    if (f.size > MAX_FILE_MB * 1024 * 1024) {
      message.error(`文件超过 ${MAX_FILE_MB} MB`);
      return false;
    }
    const text = await f.text();
    setFile({ name: f.name, text });
    setMapping({});
    setDecisions({});
    await load(text, {});
    return false;
  };
  const keyOf = (i: PreviewItem) => `${i.kind}:${i.key}`;
  const undecided = (preview?.items ?? []).filter((i) => i.status === 'conflict' && !decisions[keyOf(i)]);
  // an update at the source replaces unless told otherwise; a conflict waits for a choice
  const decisionOf = (i: PreviewItem) => decisions[keyOf(i)] ?? (i.status === 'changed' ? 'replace' : undefined);
  const unmapped = (preview?.dataSources ?? []).filter((d) => !mapping[d.name]);
  const run = async (dryRun: boolean) => {
    if (!file) return;
    const body = {
      file: file.text,
      dataSources: mapping,
      decisions: {
        ...decisions,
        ...Object.fromEntries((preview?.items ?? []).filter((i) => i.status === 'invalid').map((i) => [keyOf(i), 'keep'])),
      },
      dryRun,
    };
    const r = await post<{ created: number }>('/workspace/import', body, {
      silent: false,
    } as never).then(
      () => true,
      () => false,
    );
    if (!r) return;
    if (dryRun) message.success('检查通过：可以导入');
    else {
      message.success('导入完成');
      await load(file.text, mapping);
    }
  };
  const confirm = () =>
    modal.confirm({
      title: '确认导入？',
      content: `将在一个事务中写入：新建 ${(preview?.items ?? []).filter((i) => i.status === 'new').length} 项，更新或按选择处理 ${(preview?.items ?? []).filter((i) => i.status === 'changed' || i.status === 'conflict').length} 项；不能导入的项将跳过。导入的接口为草稿，须在本环境审批后才能上线。`,
      okText: '导入',
      cancelText: '取消',
      onOk: () => run(false),
    });

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <div data-testid="workspace-upload">
        <Upload.Dragger accept=".json,application/json" maxCount={1} showUploadList={false} beforeUpload={choose}>
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{file ? `已选择：${file.name}（点击或拖入以更换）` : '点击或拖入由「导出」得到的工作区文件（.json）'}</p>
          <p className="ant-upload-hint">导入前先预览：不会写入任何内容，直到您确认。</p>
        </Upload.Dragger>
      </div>
      {error && <Alert type="error" showIcon message={error} data-testid="workspace-error" />}
      <Spin spinning={loading}>
        {preview && (
          <Space direction="vertical" style={{ width: '100%' }} size="middle">
            {preview.dataSources.length > 0 && (
              <Card size="small" title="数据源对应">
                <Table
                  size="small"
                  rowKey="name"
                  pagination={false}
                  dataSource={preview.dataSources}
                  data-testid="workspace-sources"
                  columns={[
                    {
                      title: '文件中的数据源',
                      dataIndex: 'name',
                      render: (v: string, d) => `${v}${d.type ? `（${d.type}）` : ''}`,
                    },
                    {
                      title: '本环境的数据源',
                      render: (_: unknown, d) => (
                        <Select
                          style={{ width: '100%', minWidth: 180 }}
                          placeholder="请选择"
                          value={mapping[d.name]}
                          status={mapping[d.name] ? undefined : 'warning'}
                          options={preview.targets.map((t) => ({
                            value: t.id,
                            label: `${t.name}${t.type ? `（${t.type}）` : ''}`,
                          }))}
                          onChange={(v: number) => {
                            const next = { ...mapping, [d.name]: v };
                            setMapping(next);
                            if (file) void load(file.text, next);
                          }}
                          aria-label={`数据源 ${d.name} 对应`}
                        />
                      ),
                    },
                  ]}
                />
              </Card>
            )}
            <Card
              size="small"
              title={`导入预览（${preview.items.length} 项）`}
              extra={
                <Space wrap>
                  <Button onClick={() => run(true)} disabled={!!unmapped.length}>
                    检查
                  </Button>
                  <Button type="primary" onClick={confirm} disabled={!!unmapped.length || !!undecided.length || preview.items.every((i) => i.status === 'same' || i.status === 'invalid')}>
                    确认导入
                  </Button>
                </Space>
              }
            >
              {(unmapped.length > 0 || undecided.length > 0) && (
                <Alert
                  type="warning"
                  showIcon
                  style={{ marginBottom: 8 }}
                  message={[
                    unmapped.length ? `请为数据源 ${unmapped.map((d) => d.name).join('、')} 选择本环境的数据源` : '',
                    undecided.length ? `请为 ${undecided.length} 项冲突的内容选择处理方式（本环境改过，或是另一项同名内容）` : '',
                  ]
                    .filter(Boolean)
                    .join('；')}
                />
              )}
              <Table<PreviewItem>
                size="small"
                rowKey={keyOf}
                pagination={false}
                dataSource={preview.items}
                scroll={{ x: 640 }}
                data-testid="workspace-preview"
                columns={[
                  { title: '类型', dataIndex: 'kindLabel', width: 70 },
                  { title: '名称', dataIndex: 'title', ellipsis: true },
                  {
                    title: '状态',
                    dataIndex: 'status',
                    width: 90,
                    render: (s: PreviewItem['status']) => <Tag color={STATUS[s].color}>{STATUS[s].label}</Tag>,
                  },
                  {
                    title: '处理',
                    width: 240,
                    render: (_: unknown, i) =>
                      i.status === 'changed' || i.status === 'conflict' ? (
                        <Space size={4}>
                          <Select<Decision>
                            size="small"
                            style={{ width: 120 }}
                            placeholder="请选择"
                            value={decisionOf(i)}
                            onChange={(v) => setDecisions((d) => ({ ...d, [keyOf(i)]: v }))}
                            options={[
                              { value: 'keep', label: '保留本环境的' },
                              { value: 'replace', label: '覆盖' },
                              { value: 'copy', label: '导入为副本' },
                            ]}
                            aria-label={`${i.title} 的处理方式`}
                          />
                          <Button size="small" type="link" onClick={() => setDiff(i)}>
                            差异
                          </Button>
                        </Space>
                      ) : i.status === 'invalid' ? (
                        <Typography.Text type="danger">{i.reason}</Typography.Text>
                      ) : i.status === 'new' ? (
                        '新建'
                      ) : (
                        '跳过'
                      ),
                  },
                ]}
              />
            </Card>
          </Space>
        )}
      </Spin>
      <Modal open={!!diff} title={diff ? `差异：${diff.kindLabel}「${diff.title}」` : ''} onCancel={() => setDiff(null)} footer={null} width="min(900px, 100vw)" destroyOnHidden>
        {diff && <ContentDiff kind={diff.kind} left={diff.before} right={diff.after} leftName="本环境现有" rightName="文件中" />}
      </Modal>
    </Space>
  );
}

export default function Workspace() {
  const mayImport = hasPermission(['system:workspace:import']);
  return (
    <Card title="工作区迁移" size="small">
      <Typography.Paragraph type="secondary">
        把设计好的页面、大屏、表单、数据集、接口、菜单、字典、角色和变量从一个环境（如测试）搬到另一个环境（如生产）。文件中不含密码和密钥；导入的接口须在目标环境重新审批。
      </Typography.Paragraph>
      <Tabs items={[{ key: 'export', label: '导出', children: <ExportTab /> }, ...(mayImport ? [{ key: 'import', label: '导入', children: <ImportTab /> }] : [])]} />
    </Card>
  );
}
