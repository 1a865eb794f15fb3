// The audit trail (who, when, action, version, comment) and the call statistics of the last 24 hours.
import { useEffect, useState } from 'react';
import { Card, Col, Row, Statistic, Table } from 'antd';
import { formatDate } from '../ui/format';
import { apiCalls, versionLabel, type AuditEntry, type CallStats } from './api';

export function AuditTrail({ id }: { id: number }) {
  const [rows, setRows] = useState<AuditEntry[] | null>(null);
  useEffect(() => {
    apiCalls.audit(id).then(setRows, () => setRows([]));
  }, [id]);
  return (
    <Table
      size="small"
      loading={rows === null}
      rowKey="id"
      dataSource={rows ?? []}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      data-testid="audit-trail"
      columns={[
        { title: '时间', dataIndex: 'createTime', width: 170, render: (v: string) => formatDate(v, true) },
        { title: '操作', dataIndex: 'actionLabel', width: 100 },
        { title: '版本', dataIndex: 'version', width: 80, render: (v: number | null) => (v == null ? '' : versionLabel(v)) },
        { title: '操作人', dataIndex: 'userName', width: 120 },
        { title: '意见', dataIndex: 'comment', render: (v: string | null) => v ?? '' },
        {
          title: '超限理由',
          dataIndex: 'costReason',
          render: (v: string | null | undefined, r: AuditEntry) => (v ? `${v}（估计 ${Number(r.planRows ?? 0).toLocaleString('en-US')} 行）` : ''),
        },
      ]}
    />
  );
}

export function CallStatsCard({ id }: { id: number }) {
  const [s, setS] = useState<CallStats | null>(null);
  useEffect(() => {
    apiCalls.stats(id).then(setS, () => setS(null));
  }, [id]);
  const ms = (v: number | null | undefined) => (v == null ? '—' : `${v} ms`);
  return (
    <Card size="small" title="近24小时调用" loading={s === null} data-testid="call-stats">
      <Row gutter={16}>
        <Col span={6}>
          <Statistic title="调用次数" value={s?.count ?? 0} />
        </Col>
        <Col span={6}>
          <Statistic title="失败次数" value={s?.errors ?? 0} valueStyle={s?.errors ? { color: '#cf1322' } : undefined} />
        </Col>
        <Col span={6}>
          <Statistic title="P50 耗时" value={ms(s?.p50)} />
        </Col>
        <Col span={6}>
          <Statistic title="P95 耗时" value={ms(s?.p95)} />
        </Col>
      </Row>
    </Card>
  );
}
