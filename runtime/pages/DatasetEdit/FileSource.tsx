// Excel / CSV datasets (issue 35 §1; server: modules/dataset/fileRoutes.ts). A new one: a file chosen, read by the
// server (mode=preview: every sheet with its columns, the types found and the first rows), the sheets ticked, then
// 创建数据集 sends the same file (mode=commit) and one dataset is made per sheet. An existing one: its file, sheet and
// rows, and 追加数据 / 按键更新 / 替换数据, each a dialog that checks the file first (nothing is written by a
// preview) and, for a replace, lists the fields that would go and the charts that use them before confirming.
import { useState } from 'react';
import { Alert, App, Button, Card, Checkbox, Descriptions, Empty, List, Modal, Select, Space, Table, Tag, Tooltip, Typography, Upload } from 'antd';
import { CloudUploadOutlined, InboxOutlined, SwapOutlined, SyncOutlined } from '@ant-design/icons';
import { upload } from '../../core/request';
import type { FieldType } from '../../../common/dataset';
import { TYPE_LABELS } from './model';

const CALL = '/dataset/file/upload';
const ACCEPT = '.csv,.xlsx';

export interface SheetPreview {
  sheet: string;
  rows: number;
  columns: Array<{ name: string; type: FieldType }>;
  sample: Array<Record<string, unknown>>;
}
interface UpdateReport extends SheetPreview {
  added?: number;
  updated?: number;
  removed?: Array<{ name: string; label: string }>;
  charts?: Array<{
    pageId: number;
    pageName: string;
    widget: string;
    fields: string[];
  }>;
}
export interface FileInfo {
  fileName: string;
  sheet: string;
  rows: number;
}

function send<T>(file: File, fields: Record<string, string>): Promise<T> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, file.name);
  return upload<T>(CALL, form);
}

const wrongType = (f: File) => (ACCEPT.split(',').includes(f.name.toLowerCase().slice(f.name.lastIndexOf('.'))) ? null : '只支持 CSV（.csv）或 Excel（.xlsx）文件');

function Dropper({ file, busy, onFile, hint }: { file: File | null; busy: boolean; onFile: (f: File) => void; hint: string }) {
  return (
    <Upload.Dragger
      accept={ACCEPT}
      multiple={false}
      showUploadList={false}
      disabled={busy}
      beforeUpload={(f) => {
        onFile(f);
        return Upload.LIST_IGNORE;
      }}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{file ? `已选择：${file.name}（点击或拖入以更换）` : '点击或拖入 Excel（.xlsx）或 CSV 文件'}</p>
      <p className="ant-upload-hint">{hint}</p>
    </Upload.Dragger>
  );
}

/** A sheet as read: its columns with the types found, and its first rows. */
function SheetCard({ s, extra }: { s: SheetPreview; extra?: React.ReactNode }) {
  const columns = s.columns.map((c) => ({
    title: (
      <span>
        {c.name} <Tag style={{ marginInlineStart: 4 }}>{TYPE_LABELS[c.type]}</Tag>
      </span>
    ),
    dataIndex: c.name,
    key: c.name,
    ellipsis: true,
    width: 140,
    render: (v: unknown) => (v === null || v === undefined ? <Typography.Text type="secondary">空</Typography.Text> : String(v)),
  }));
  return (
    <Card size="small" title={`工作表「${s.sheet}」：${s.rows} 行，${s.columns.length} 列`} extra={extra} data-testid={`sheet-${s.sheet}`}>
      <Table size="small" rowKey="#" pagination={false} columns={columns} dataSource={s.sample.map((r, i) => ({ ...r, '#': i }))} scroll={{ x: 'max-content' }} />
    </Card>
  );
}

/** A new file dataset: the file read, the sheets ticked, one dataset made per sheet. */
export function FileCreate({ name, groupId, disabled, onCreated }: { name: string; groupId: number | null; disabled?: boolean; onCreated: (made: Array<{ id: number; name: string }>) => void }) {
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [sheets, setSheets] = useState<SheetPreview[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState<'preview' | 'commit' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const read = async (f: File) => {
    setFile(f);
    setSheets(null);
    setProblem(wrongType(f));
    if (wrongType(f)) return;
    setBusy('preview');
    try {
      const r = await send<{ sheets: SheetPreview[] }>(f, {
        mode: 'preview',
        action: 'create',
      });
      setSheets(r.sheets);
      setChosen(r.sheets.map((s) => s.sheet));
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const create = async () => {
    if (!file || !chosen.length) return;
    setBusy('commit');
    setProblem(null);
    try {
      const made = await send<Array<{ id: number; name: string }>>(file, {
        mode: 'commit',
        action: 'create',
        name: name.trim(),
        groupId: String(groupId ?? 0),
        sheets: JSON.stringify(chosen),
      });
      message.success(`已创建 ${made.length} 个数据集：${made.map((m) => m.name).join('、')}`);
      onCreated(made);
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="file-create">
      <Dropper file={file} busy={busy !== null || !!disabled} onFile={(f) => void read(f)} hint="每个工作表成为一个数据集；第 1 行为列名，列的类型（数字、日期、是/否、文本）由数据判断" />
      {busy === 'preview' && <Alert type="info" showIcon message="正在读取文件…" />}
      {problem && <Alert type="error" showIcon message={problem} data-testid="file-problem" />}
      {sheets && (
        <>
          {sheets.length > 1 && (
            <Checkbox.Group
              value={chosen}
              onChange={(v) => setChosen(v as string[])}
              options={sheets.map((s) => ({
                value: s.sheet,
                label: `${s.sheet}（${s.rows} 行）`,
              }))}
            />
          )}
          {sheets
            .filter((s) => chosen.includes(s.sheet))
            .map((s) => (
              <SheetCard key={s.sheet} s={s} />
            ))}
          <Space>
            <Button type="primary" icon={<CloudUploadOutlined />} loading={busy === 'commit'} disabled={!chosen.length || disabled} onClick={() => void create()}>
              创建数据集{chosen.length > 1 ? `（${chosen.length} 个）` : ''}
            </Button>
            <Typography.Text type="secondary">{chosen.length > 1 ? `名称为「${name.trim() || file?.name.replace(/\.[^.]*$/, '')}-工作表名」` : `名称为「${name.trim() || file?.name.replace(/\.[^.]*$/, '')}」`}</Typography.Text>
          </Space>
        </>
      )}
    </Space>
  );
}

type Action = 'append' | 'upsert' | 'replace';
const ACTION_LABELS: Record<Action, string> = {
  append: '追加数据',
  upsert: '按键更新',
  replace: '替换数据',
};
const CONFIRM_LABELS: Record<Action, string> = { append: '确认追加', upsert: '确认更新', replace: '确认替换' };
const ACTION_HINTS: Record<Action, string> = {
  append: '文件的列按列名对应（顺序不限）；文件中缺少的列为空，多出的列不能追加',
  upsert: '文件中键列取值已存在的行被替换，其余的行追加；文件中同一个键不能出现两次',
  replace: '数据集的全部数据换成文件中的数据，列可以改变；失去的字段会先列出',
};

/** An existing file dataset: what it holds, and the dialogs that change its rows. */
export function FileData({ id, info, columns, disabled, disabledWhy, onChanged }: { id: number; info: FileInfo; columns: string[]; disabled?: boolean; disabledWhy?: string; onChanged: () => void }) {
  const [action, setAction] = useState<Action | null>(null);
  const button = (a: Action, icon: React.ReactNode) => (
    <Tooltip title={disabled ? disabledWhy : ACTION_HINTS[a]}>
      <Button icon={icon} disabled={disabled} onClick={() => setAction(a)}>
        {ACTION_LABELS[a]}
      </Button>
    </Tooltip>
  );
  return (
    <>
      <Descriptions size="small" column={{ xs: 1, md: 3 }} bordered style={{ marginBottom: 8 }} data-testid="file-info">
        <Descriptions.Item label="文件">{info.fileName}</Descriptions.Item>
        <Descriptions.Item label="工作表">{info.sheet}</Descriptions.Item>
        <Descriptions.Item label="行数">{info.rows}</Descriptions.Item>
      </Descriptions>
      <Space wrap>
        {button('append', <CloudUploadOutlined />)}
        {button('upsert', <SyncOutlined />)}
        {button('replace', <SwapOutlined />)}
      </Space>
      {action && (
        <FileUpdateDialog
          id={id}
          action={action}
          columns={columns}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null);
            onChanged();
          }}
        />
      )}
    </>
  );
}

function FileUpdateDialog({ id, action, columns, onClose, onDone }: { id: number; action: Action; columns: string[]; onClose: () => void; onDone: () => void }) {
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [key, setKey] = useState<string | undefined>(undefined);
  const [report, setReport] = useState<UpdateReport | null>(null);
  const [busy, setBusy] = useState<'preview' | 'commit' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fields = (mode: string) => ({
    mode,
    action,
    id: String(id),
    ...(key ? { key } : {}),
    ...(mode === 'commit' && action === 'replace' ? { confirm: '1' } : {}),
  });

  const check = async (f: File | null, k = key) => {
    setReport(null);
    setProblem(null);
    if (!f) return;
    if (wrongType(f)) return setProblem(wrongType(f));
    if (action === 'upsert' && !k) return;
    setBusy('preview');
    try {
      setReport(
        await send<UpdateReport>(f, {
          ...fields('preview'),
          ...(k ? { key: k } : {}),
        }),
      );
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const commit = async () => {
    if (!file || !report) return;
    setBusy('commit');
    setProblem(null);
    try {
      await send(file, fields('commit'));
      message.success(action === 'append' ? `已追加 ${report.rows} 行` : action === 'upsert' ? `已更新 ${report.updated ?? 0} 行，新增 ${report.added ?? 0} 行` : `已替换为 ${report.rows} 行`);
      onDone();
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const removed = report?.removed ?? [];
  const summary = report && (action === 'append' ? `校验通过：将追加 ${report.rows} 行` : action === 'upsert' ? `校验通过：将更新 ${report.updated ?? 0} 行，新增 ${report.added ?? 0} 行` : `将替换为 ${report.rows} 行，${report.columns.length} 列`);
  return (
    <Modal
      open
      title={ACTION_LABELS[action]}
      width={900}
      maskClosable={false}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" danger={action === 'replace' && removed.length > 0} loading={busy === 'commit'} disabled={!report || busy !== null} onClick={() => void commit()} data-testid="file-commit">
          {action === 'replace' && removed.length ? '确认替换（失去上列字段）' : CONFIRM_LABELS[action]}
        </Button>,
      ]}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert type="info" showIcon message={ACTION_HINTS[action]} />
        {action === 'upsert' && (
          <Space>
            <span>键列</span>
            <Select
              aria-label="键列"
              placeholder="请选择键列"
              style={{ minWidth: 200 }}
              value={key}
              options={columns.map((c) => ({ value: c, label: c }))}
              onChange={(k: string) => {
                setKey(k);
                void check(file, k);
              }}
            />
          </Space>
        )}
        <Dropper
          file={file}
          busy={busy !== null}
          onFile={(f) => {
            setFile(f);
            void check(f);
          }}
          hint="有多个工作表时，使用与数据集同名的工作表"
        />
        {busy === 'preview' && <Alert type="info" showIcon message="正在读取并校验文件…" />}
        {problem && <Alert type="error" showIcon message={problem} data-testid="file-problem" />}
        {report && (
          <>
            <Alert type={removed.length ? 'warning' : 'success'} showIcon message={summary} data-testid="file-summary" />
            {action === 'replace' && removed.length > 0 && (
              <Alert
                type="warning"
                showIcon
                data-testid="file-removed"
                message={`替换后将失去 ${removed.length} 个字段：${removed.map((f) => f.label).join('、')}`}
                description={report.charts?.length ? <List size="small" header="用到这些字段的图表" dataSource={report.charts} renderItem={(c) => <List.Item>{`大屏「${c.pageName}」的「${c.widget}」`}</List.Item>} /> : '没有图表用到这些字段'}
              />
            )}
            <SheetCard s={report} />
          </>
        )}
        {!report && !problem && busy === null && file && action === 'upsert' && !key && <Empty description="请先选择键列" />}
      </Space>
    </Modal>
  );
}
