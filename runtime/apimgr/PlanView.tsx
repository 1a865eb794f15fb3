// The plan of an API's SQL as it will run (issue 25 item 3), on the design test pane and beside the approval diff:
// the warnings as alerts, the estimates, the plan's steps as a tree table, the SQL with its bound values (secrets
// as ******) and the plan as the database answered it. The plan is taken with EXPLAIN only: nothing runs.
import { Alert, Collapse, Descriptions, Empty, Space, Spin, Table, Typography } from 'antd';
import type { ApiPlan, PlanNode } from './api';

const DIALECTS: Record<string, string> = { postgresql: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB', sqlite: 'SQLite' };
const count = (n: number | null | undefined) => (n == null ? '—' : Math.round(n).toLocaleString('en-US'));

interface Row extends PlanNode {
  key: string;
  children?: Row[];
}

const withKeys = (nodes: PlanNode[], at = 'n'): Row[] =>
  nodes.map((n, i) => {
    const key = `${at}-${i}`;
    const children = n.children?.length ? withKeys(n.children, key) : undefined;
    return { ...n, key, children };
  });

export function PlanView({ plan, error, loading, emptyText = '点击“测试”或“执行计划”后显示 SQL 的执行计划' }: { plan: ApiPlan | null; error?: string | null; loading?: boolean; emptyText?: string }) {
  if (loading && !plan) return <Spin style={{ display: 'block', margin: '32px auto' }} />;
  if (error) return <Alert type="error" showIcon message={error} data-testid="plan-error" />;
  if (!plan) return <Empty description={emptyText} />;
  const rows = withKeys(plan.nodes);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="plan-view">
      {plan.warnings.map((w, i) => (
        <Alert key={`${w.code}-${i}`} type={w.code === 'secretHidden' ? 'info' : 'warning'} showIcon message={w.message} data-testid={`plan-warning-${w.code}`} />
      ))}
      {plan.reasonRequired && (
        <Alert type="error" showIcon message={`估计行数${plan.guardCapped ? '' : `约 ${count(plan.guardRows)} 行，`}超过阈值 ${count(plan.threshold)} 行：审批通过时须填写超限理由`} data-testid="plan-reason-required" />
      )}
      {!plan.warnings.length && <Alert type="success" showIcon message="未发现全表扫描大表、缺少 LIMIT 或笛卡尔积" />}
      <Descriptions size="small" column={{ xs: 1, sm: 2, xl: 1, xxl: 2 }} bordered>
        <Descriptions.Item label="数据库">{DIALECTS[plan.dialect] ?? plan.dialect}</Descriptions.Item>
        <Descriptions.Item label="估计返回行数">{plan.estimatedRows == null ? '—（该数据库不提供估计）' : count(plan.estimatedRows)}</Descriptions.Item>
        <Descriptions.Item label="全表扫描最大表行数">{plan.guardCapped && plan.scanRows === plan.guardRows ? `超过 ${count(plan.threshold)}（计数到此为止）` : count(plan.scanRows)}</Descriptions.Item>
        <Descriptions.Item label="估计代价">{plan.cost == null ? '—' : plan.cost.toLocaleString('en-US')}</Descriptions.Item>
      </Descriptions>
      <Table<Row>
        size="small"
        pagination={false}
        dataSource={rows}
        expandable={{ defaultExpandAllRows: true }}
        scroll={{ x: 720 }}
        data-testid="plan-nodes"
        columns={[
          { title: '步骤', dataIndex: 'op', width: 170 },
          { title: '表', dataIndex: 'table', width: 120, render: (v: string | null | undefined) => v ?? '' },
          { title: '估计行数', dataIndex: 'rows', width: 90, align: 'right', render: (v: number | null | undefined) => count(v) },
          { title: '代价', dataIndex: 'cost', width: 80, align: 'right', render: (v: number | null | undefined) => (v == null ? '' : v.toLocaleString('en-US')) },
          { title: '详情', dataIndex: 'detail', width: 260, render: (v: string | null | undefined) => <Typography.Text style={{ fontSize: 12, wordBreak: 'break-all' }}>{v ?? ''}</Typography.Text> },
        ]}
      />
      <Collapse
        size="small"
        items={[
          {
            key: 'sql',
            label: 'SQL 与绑定参数',
            children: (
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', fontSize: 12, margin: 0 }}>
                {plan.sql}
                {plan.boundValues.length ? `\n-- 绑定参数：${plan.boundValues.map((v, i) => `[${i + 1}] ${JSON.stringify(v)}`).join('  ')}` : ''}
              </Typography.Paragraph>
            ),
          },
          {
            key: 'raw',
            label: '数据库返回的原始计划',
            children:
              plan.raw == null ? (
                <Typography.Text type="secondary">绑定了敏感参数，原始计划已隐藏</Typography.Text>
              ) : (
                <pre style={{ maxHeight: 320, overflow: 'auto', fontSize: 12, margin: 0 }}>{JSON.stringify(plan.raw, null, 2)}</pre>
              ),
          },
        ]}
      />
    </Space>
  );
}
