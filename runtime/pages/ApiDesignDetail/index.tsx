// API详情 (ViewApiDesignDetail, spec part 2 "API detail"), opened in a new browser tab: Chinese name and
// API name, the status tag, the version, a close button; the read-only facts, parameters, call statistics
// of the last 24 hours and the audit trail.
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Space, Spin, Tabs, Typography } from 'antd';
import { useLocation } from 'react-router-dom';
import { ApiFacts, apiCalls, AuditTrail, CallStatsCard, idParam, ParamList, StatusTag, versionLabel, type ApiDesign } from '../../apimgr';

export function ApiHeader({ api, extra }: { api: ApiDesign; extra?: React.ReactNode }) {
  return (
    <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
      <Space wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {api.apiComment}
        </Typography.Title>
        <Typography.Text type="secondary">{api.apiName}</Typography.Text>
        <StatusTag api={api} />
        <Typography.Text data-testid="api-version">{versionLabel(api.latestApiVersion)}</Typography.Text>
      </Space>
      {extra}
    </Space>
  );
}

export default function ApiDesignDetail() {
  const { search } = useLocation();
  const id = idParam(search);
  const [api, setApi] = useState<ApiDesign | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (id) apiCalls.design(id).then(setApi, () => setFailed(true));
  }, [id]);
  useEffect(() => {
    if (api) document.title = `${api.apiComment} - API详情`;
  }, [api]);

  if (!id || failed) return <Alert style={{ margin: 24 }} type="error" showIcon message={id ? '接口不存在或无权查看' : '缺少接口编号'} />;
  return (
    <div style={{ padding: 24, maxWidth: 1200, margin: '0 auto' }}>
      <Spin spinning={!api}>
        {api && (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <ApiHeader api={api} extra={<Button onClick={() => window.close()}>关闭</Button>} />
            <ApiFacts api={api} />
            <CallStatsCard id={api.id} />
            <Card size="small">
              <Tabs
                items={[
                  { key: 'req', label: '请求参数', children: <ParamList rows={api.reqParamList} request /> },
                  { key: 'resp', label: '响应参数', children: <ParamList rows={api.respParamList} /> },
                  { key: 'audit', label: '审批记录', children: <AuditTrail id={api.id} /> },
                ]}
              />
            </Card>
          </Space>
        )}
      </Spin>
    </div>
  );
}
