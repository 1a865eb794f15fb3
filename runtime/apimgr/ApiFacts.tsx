// The read-only body of the detail and approval screens (spec: API detail): name, Chinese name,
// description, designer (name plus account), API path, with group, parameters and access beside them.
import { Descriptions, Table, Tag, Typography } from 'antd';
import type { ParamRow } from '../editors';
import { useDict } from '../core/dicts';
import { formatDate } from '../ui/format';
import { versionLabel, type ApiDesign } from './api';

/** `request`: request parameters, whose value is the default of a call that leaves them out, and 必填. */
export function ParamList({ rows, empty = '暂无参数', request }: { rows: ParamRow[]; empty?: string; request?: boolean }) {
  const types = useDict('REQ_PARAM_TYPE');
  const label = (t: string) => types.find((x) => String(x.value) === t)?.label ?? t;
  return (
    <Table
      size="small"
      pagination={false}
      rowKey={(r) => r.paramName}
      dataSource={rows}
      locale={{ emptyText: empty }}
      columns={[
        { title: '参数名', dataIndex: 'paramName', width: '25%' },
        { title: '类型', dataIndex: 'paramType', width: 100, render: (t: string) => label(t) },
        ...(request ? [{ title: '必填', dataIndex: 'required', width: 64, render: (v: unknown) => (v ? '是' : '否') }] : []),
        { title: request ? '默认值' : '示例值', dataIndex: 'paramValue', width: '25%', render: (v: unknown) => (v == null || v === '' ? (request ? 'NULL' : '') : String(v)) },
        { title: '说明', dataIndex: 'paramComment' },
      ]}
    />
  );
}

export function ApiFacts({ api, column = 2 }: { api: ApiDesign; column?: number }) {
  return (
    <Descriptions bordered size="small" column={column} data-testid="api-facts">
      <Descriptions.Item label="API名称">{api.apiName}</Descriptions.Item>
      <Descriptions.Item label="中文名称">{api.apiComment}</Descriptions.Item>
      <Descriptions.Item label="API编号">{api.apiNum}</Descriptions.Item>
      <Descriptions.Item label="分组">{api.groupName}</Descriptions.Item>
      <Descriptions.Item label="设计人">
        {api.designUserName ?? ''}({api.designUser})
      </Descriptions.Item>
      <Descriptions.Item label="创建时间">{formatDate(api.designTime, true)}</Descriptions.Item>
      <Descriptions.Item label="API路径">
        <Typography.Text code copyable>
          POST {api.apiPath}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="访问方式">{api.isPublic ? <Tag color="orange">公开（无需凭证）</Tag> : <Tag>需 API Key 或登录令牌</Tag>}</Descriptions.Item>
      <Descriptions.Item label="最新版本">{versionLabel(api.latestApiVersion)}</Descriptions.Item>
      <Descriptions.Item label="线上版本">{api.onlineStatus === 1 ? versionLabel(api.onlineVersion) : '—'}</Descriptions.Item>
      <Descriptions.Item label="描述" span={column}>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{api.apiDesc}</Typography.Paragraph>
      </Descriptions.Item>
    </Descriptions>
  );
}
