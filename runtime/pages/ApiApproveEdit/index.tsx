// API审批 (ViewApiApproveEdit, spec part 2 "API approval"): the detail, the submitted configuration beside
// the version online (a diff), the approval comment (max 255, counted) and pass / pass and go online /
// reject / back — each confirmed, each with the spec's success message, then back to the list.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Col, Input, Row, Space, Spin, Tabs, Typography } from 'antd';
import { useLocation } from 'react-router-dom';
import { useBusy } from '../../core/busy';
import { usePermission } from '../../core/permission';
import { ApiFacts, apiCalls, AuditTrail, ConfigDiff, idParam, PlanView, useLeave, type ApiPlan, type ApproveInfo, type Decision } from '../../apimgr';
import { ApiHeader } from '../ApiDesignDetail';

const LIST = '/apimgr/approve';

const DECISIONS: Record<Decision, { label: string; confirm: string; success: string }> = {
  resolve: { label: '通过', confirm: '确定要审批通过吗？', success: '审批通过成功' },
  resolveAndOnline: { label: '通过并上线', confirm: '确定要审批通过并上线吗？', success: '审批并上线成功' },
  reject: { label: '驳回', confirm: '确定要驳回吗？', success: '审批驳回完成' },
};

export default function ApiApproveEdit() {
  const { search } = useLocation();
  const id = idParam(search);
  const { message, modal } = App.useApp();
  const can = usePermission();
  const [info, setInfo] = useState<ApproveInfo | null>(null);
  const [failed, setFailed] = useState(false);
  const [comment, setComment] = useState('');
  const [costReason, setCostReason] = useState('');
  const [plan, setPlan] = useState<{ plan: ApiPlan | null; error: string | null; loading: boolean }>({ plan: null, error: null, loading: true });
  const [busy, whileBusy] = useBusy<Decision>();
  const leave = useLeave(LIST, false);

  useEffect(() => {
    if (!id) return;
    apiCalls.approveInfo(id).then(setInfo, () => setFailed(true));
    // the plan of the version under approval (EXPLAIN only), with whether passing it needs a reason
    apiCalls.approvePlan(id).then(
      (p) => setPlan({ plan: p, error: null, loading: false }),
      (err: Error) => setPlan({ plan: null, error: err.message, loading: false }),
    );
  }, [id]);

  // above the threshold, or no plan at all: passing needs the approver's reason (the server asks the same)
  const reasonRequired = Boolean(plan.plan?.reasonRequired) || Boolean(plan.error);

  const decide = (d: Decision) => {
    if (d !== 'reject' && reasonRequired && !costReason.trim()) return void message.warning(plan.plan ? '执行计划估计行数超过阈值：请填写超限理由后再审批通过' : '无法获取执行计划：请填写理由后再审批通过');
    modal.confirm({
      title: '提示',
      content: DECISIONS[d].confirm,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        if (!id) return;
        try {
          await whileBusy(d, () => apiCalls.decide(d, id, comment.trim(), d === 'reject' ? undefined : costReason.trim() || undefined));
          message.success(DECISIONS[d].success);
          leave({ force: true });
        } catch {
          /* the request layer showed why (not waiting, own design, …) */
        }
      },
    });
  };

  if (!id || failed) return <Alert type="error" showIcon message={id ? '接口不存在或无权查看' : '缺少接口编号'} />;
  const waiting = info?.api.apiStatus === 1;
  return (
    <Spin spinning={!info}>
      {info && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Card size="small">
            <ApiHeader api={info.api} />
          </Card>
          {!waiting && <Alert type="warning" showIcon message="该 API 当前不在待审批状态，不能审批" />}
          <ApiFacts api={info.api} />
          <Card size="small">
            <Tabs
              items={[
                {
                  key: 'diff',
                  label: '提交内容与线上版本对比',
                  children: (
                    <Row gutter={16}>
                      <Col xs={24} xl={14}>
                        <ConfigDiff info={info} />
                      </Col>
                      <Col xs={24} xl={10}>
                        <Typography.Text strong>执行计划（本次提交，按参数默认值绑定；仅 EXPLAIN，不执行）</Typography.Text>
                        <div style={{ marginTop: 8 }}>
                          <PlanView plan={plan.plan} error={plan.error} loading={plan.loading} emptyText="没有执行计划" />
                        </div>
                      </Col>
                    </Row>
                  ),
                },
                { key: 'audit', label: '审批记录', children: <AuditTrail id={info.api.id} /> },
              ]}
            />
          </Card>
          <Card size="small" title="审批意见">
            <Input.TextArea aria-label="审批意见" rows={4} maxLength={255} showCount value={comment} onChange={(e) => setComment(e.target.value)} placeholder="请输入审批意见" disabled={!waiting} />
            {reasonRequired && (
              <div style={{ marginTop: 16 }}>
                <Typography.Text strong>
                  <span style={{ color: '#ff4d4f' }}>* </span>超限理由（
                  {plan.plan
                    ? `执行计划估计行数${plan.plan.guardCapped ? '' : `约 ${Math.round(plan.plan.guardRows).toLocaleString('en-US')} 行，`}超过阈值 ${plan.plan.threshold.toLocaleString('en-US')} 行`
                    : '无法获取执行计划'}
                  ，通过时必填，记入审批记录）
                </Typography.Text>
                <Input.TextArea
                  aria-label="超限理由"
                  style={{ marginTop: 8 }}
                  rows={3}
                  maxLength={500}
                  showCount
                  value={costReason}
                  onChange={(e) => setCostReason(e.target.value)}
                  placeholder="请说明为什么接受这一查询代价"
                  disabled={!waiting}
                />
              </div>
            )}
            <Space style={{ marginTop: 24 }}>
              <Button type="primary" loading={busy === 'resolve'} disabled={!waiting} onClick={() => decide('resolve')}>
                {DECISIONS.resolve.label}
              </Button>
              {can(['api:approve:online']) && (
                <Button type="primary" ghost loading={busy === 'resolveAndOnline'} disabled={!waiting} onClick={() => decide('resolveAndOnline')}>
                  {DECISIONS.resolveAndOnline.label}
                </Button>
              )}
              <Button danger loading={busy === 'reject'} disabled={!waiting} onClick={() => decide('reject')}>
                {DECISIONS.reject.label}
              </Button>
              <Button onClick={() => leave()}>返回</Button>
            </Space>
          </Card>
        </Space>
      )}
    </Spin>
  );
}
