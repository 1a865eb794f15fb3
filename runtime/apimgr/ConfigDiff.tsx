// What the approver compares (issue 8 §4): the submitted configuration beside the version online now —
// settings in a table with changed rows marked, the SQL in a side-by-side diff.
import { Alert, Space, Table, Tag, Typography } from 'antd';
import { SqlDiff } from '../editors';
import { ParamList } from './ApiFacts';
import { versionLabel, type ApproveInfo } from './api';
import type { ParamRow } from '../editors';

// what a call binds matters to the approver: required, or the default a call that leaves it out gets
const paramsText = (rows: ParamRow[], request = false) =>
  rows.map((r) => `${r.paramName}: ${r.paramType}${!request ? '' : r.required ? ' 必填' : r.paramValue !== undefined && r.paramValue !== null && r.paramValue !== '' ? ` 默认 ${r.paramValue}` : ''}${r.paramComment ? `（${r.paramComment}）` : ''}`).join('\n');
const cacheText = (c: { cacheable: number; cacheTime: number | null }) => (c.cacheable ? `缓存 ${c.cacheTime ?? ''} 秒` : '不缓存');

interface Line {
  key: string;
  label: string;
  online: string;
  submitted: string;
}

export function ConfigDiff({ info }: { info: ApproveInfo }) {
  const { submitted: s, online: o, api } = info;
  const lines: Line[] = [
    { key: 'comment', label: '中文名称', online: o?.apiComment ?? '', submitted: s.apiComment },
    { key: 'ds', label: '数据源', online: o?.dsName ?? '', submitted: s.dsName ?? '' },
    { key: 'cache', label: '缓存', online: o ? cacheText(o) : '', submitted: cacheText(s) },
    { key: 'public', label: '访问方式', online: o ? (o.isPublic ? '公开' : '需凭证') : '', submitted: api.isPublic ? '公开' : '需凭证' },
    { key: 'req', label: '请求参数', online: o ? paramsText(o.reqParamList, true) : '', submitted: paramsText(s.reqParamList, true) },
    { key: 'resp', label: '响应参数', online: o ? paramsText(o.respParamList) : '', submitted: paramsText(s.respParamList) },
  ];
  const cell = (v: string) => <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{v}</Typography.Text>;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="config-diff">
      {o ? (
        <Alert type="info" showIcon message={`左侧为线上版本 ${versionLabel(o.apiVersion)}，右侧为本次提交；有变化的项标为“有变化”。`} />
      ) : (
        <Alert type="info" showIcon message="该 API 还没有线上版本：以下为本次提交的全部内容。" />
      )}
      {api.isPublic ? <Alert type="warning" showIcon message="本 API 标记为公开：上线后任何人无需凭证即可调用。" /> : null}
      <Table<Line>
        size="small"
        pagination={false}
        rowKey="key"
        dataSource={lines}
        columns={[
          { title: '项目', dataIndex: 'label', width: 110, render: (v: string, l) => (o && l.online !== l.submitted ? <Space>{v}<Tag color="orange">有变化</Tag></Space> : v) },
          ...(o ? [{ title: `线上版本 ${versionLabel(o.apiVersion)}`, dataIndex: 'online', render: cell }] : []),
          { title: '本次提交', dataIndex: 'submitted', render: cell },
        ]}
      />
      <Typography.Text strong>SQL脚本</Typography.Text>
      <SqlDiff original={o?.script ?? ''} modified={s.script ?? ''} height={260} />
      <Typography.Text strong>请求参数（本次提交）</Typography.Text>
      <ParamList rows={s.reqParamList} request />
    </Space>
  );
}
