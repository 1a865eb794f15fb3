// action=import without an `import` declaration: the sheet import of a list page (server: core/sheets.ts). A CSV
// or Excel file is chosen and sent with mode=preview: the dialog shows the first rows as the server read them and
// the report of every faulty row (行号, 字段, 原因). 确认导入 sends the same file with mode=commit, which writes
// every row in one transaction or none; it stays disabled while the report holds a fault.
import { useMemo, useState } from 'react';
import { Alert, App, Button, Modal, Space, Table, Tabs, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import type { ActionDecl } from './types';
import { useCrudServices } from './services';
import { parseCall } from './template';
import { actionLabel } from './actions';

export interface SheetFault {
  row: number;
  field: string;
  reason: string;
}

export interface SheetReport {
  header: string[];
  preview: Array<{ row: number; cells: string[] }>;
  total: number;
  faults: SheetFault[];
  imported?: number;
}

interface Props {
  action: ActionDecl;
  /** the import call: the action's api, else the page's api.import */
  call: string;
  onDone: () => void;
  onClose: () => void;
}

const MAX_MB = 10;
const ACCEPT = '.csv,.xlsx';

export function SheetImportDialog({ action, call, onDone, onClose }: Props) {
  const services = useCrudServices();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<SheetReport | null>(null);
  const [busy, setBusy] = useState<'preview' | 'commit' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const send = (f: File, mode: 'preview' | 'commit') => {
    const form = new FormData();
    form.append('mode', mode);
    form.append('file', f, f.name);
    const { path } = parseCall(call, {});
    return services.upload<SheetReport>(path, form);
  };

  const preview = async (f: File) => {
    setFile(f);
    setReport(null);
    setProblem(null);
    const ext = f.name.toLowerCase().slice(f.name.lastIndexOf('.'));
    if (!ACCEPT.split(',').includes(ext)) return setProblem('只支持 CSV（.csv）或 Excel（.xlsx）文件');
    if (f.size > MAX_MB * 1024 * 1024) return setProblem(`文件不能超过 ${MAX_MB} MB`);
    setBusy('preview');
    try {
      setReport(await send(f, 'preview'));
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  const commit = async () => {
    if (!file || !report || report.faults.length) return;
    setBusy('commit');
    setProblem(null);
    try {
      const done = await send(file, 'commit');
      message.success(`导入成功，共 ${done?.imported ?? report.total} 条`);
      onDone();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  const previewColumns = useMemo(
    () => [
      { title: '行号', dataIndex: 'row', width: 64, fixed: 'left' as const },
      ...(report?.header ?? []).map((h, i) => ({ title: h || `第 ${i + 1} 列`, key: `c${i}`, ellipsis: true, width: 140, render: (_: unknown, r: { cells: string[] }) => r.cells[i] ?? '' })),
    ],
    [report],
  );
  const faultColumns = [
    { title: '行号', dataIndex: 'row', width: 64 },
    { title: '字段', dataIndex: 'field', width: 110, render: (v: string) => v || '（整行）' },
    { title: '原因', dataIndex: 'reason', render: (v: string) => <Typography.Text type="danger">{v}</Typography.Text> },
  ];
  const faults = report?.faults ?? [];
  const faultyRows = new Set(faults.map((f) => f.row)).size;

  return (
    <Modal
      open
      title={actionLabel(action)}
      width={900}
      onCancel={onClose}
      maskClosable={false}
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={busy === 'commit'} disabled={!report || !report.total || faults.length > 0 || busy !== null} onClick={() => void commit()} data-testid="sheet-import-commit">
          确认导入
        </Button>,
      ]}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert
          type="info"
          showIcon
          message="第 1 行为表头：列名与列表的列名或字段名一致（字典列可填显示文字）。导入要么全部写入，要么一条也不写。"
        />
        <Upload.Dragger
          accept={ACCEPT}
          multiple={false}
          showUploadList={false}
          disabled={busy !== null}
          beforeUpload={(f) => {
            void preview(f);
            return Upload.LIST_IGNORE;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{file ? `已选择：${file.name}（点击或拖入以更换）` : '点击或拖入 CSV / Excel（.xlsx）文件'}</p>
          <p className="ant-upload-hint">不超过 {MAX_MB} MB</p>
        </Upload.Dragger>
        {problem && <Alert type="error" showIcon message={problem} data-testid="sheet-import-problem" />}
        {busy === 'preview' && <Alert type="info" showIcon message="正在读取并校验文件…" />}
        {report && (
          <>
            {faults.length ? (
              <Alert type="error" showIcon data-testid="sheet-import-summary" message={`共 ${report.total} 行，其中 ${faultyRows} 行有 ${faults.length} 处错误：请修改文件后重新选择，修正前不能导入`} />
            ) : (
              <Alert type="success" showIcon data-testid="sheet-import-summary" message={report.total ? `共 ${report.total} 行，校验通过，可以导入` : '文件中没有数据行'} />
            )}
            <Tabs
              defaultActiveKey={faults.length ? 'faults' : 'preview'}
              key={faults.length ? 'faults' : 'preview'}
              items={[
                {
                  key: 'faults',
                  label: `校验结果（${faults.length}）`,
                  children: (
                    <Table
                      data-testid="sheet-import-faults"
                      size="small"
                      rowKey={(f) => `${f.row}-${f.field}-${f.reason}`}
                      dataSource={faults}
                      columns={faultColumns}
                      pagination={{ pageSize: 10, hideOnSinglePage: true, size: 'small' }}
                      locale={{ emptyText: '没有错误' }}
                    />
                  ),
                },
                {
                  key: 'preview',
                  label: `预览（前 ${report.preview.length} 行）`,
                  children: (
                    <Table
                      data-testid="sheet-import-preview"
                      size="small"
                      rowKey="row"
                      dataSource={report.preview}
                      columns={previewColumns}
                      pagination={false}
                      scroll={{ x: 'max-content', y: 320 }}
                      // a row with a fault is tinted as the report's reasons are
                      onRow={(r) => (faults.some((f) => f.row === r.row) ? { className: 'sheet-import-faulty', style: { background: '#fff2f0' } } : {})}
                    />
                  ),
                },
              ]}
            />
          </>
        )}
      </Space>
    </Modal>
  );
}
