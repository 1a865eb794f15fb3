// Home: the cloud platform's four feature cards, a search box (menus, pages, screens, forms, APIs: search.tsx), the 大模型 / 智能体 labels
// and a 热门 / 最新 tab set (placeholder content).
import { ApiOutlined, ClusterOutlined, MonitorOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Card, Col, List, Row, Tabs, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { HomeSearch } from './search';

interface Feature {
  title: string;
  icon: ReactNode;
  points: string[];
}

export const FEATURES: Feature[] = [
  { title: '平台集成', icon: <ClusterOutlined />, points: ['数据治理', '低代码', '动态大屏'] },
  { title: '服务开发', icon: <ApiOutlined />, points: ['模型治理', '动态API', '配置-发布-上线'] },
  { title: '运维管控', icon: <MonitorOutlined />, points: ['监控', '审计', '追踪', '告警'] },
  { title: '权限管理', icon: <SafetyCertificateOutlined />, points: ['统一认证', '网关', '角色权限'] },
];

const PLACEHOLDER = (kind: string) =>
  [1, 2, 3, 4].map((i) => ({ title: `${kind}内容 ${i}`, desc: '建设中，敬请期待' }));

export default function Home() {
  const { token } = theme.useToken();
  return (
    <div>
      <div
        style={{
          padding: '32px 24px',
          borderRadius: token.borderRadiusLG,
          background: `linear-gradient(120deg, ${token.colorPrimary} 0%, ${token.colorPrimaryActive} 100%)`,
          color: '#fff',
          marginBottom: 16,
        }}
      >
        <Typography.Title level={2} style={{ color: '#fff', margin: 0 }}>
          数据服务云平台
        </Typography.Title>
        <Typography.Paragraph style={{ color: 'rgba(255,255,255,.85)', margin: '8px 0 16px' }}>
          一站式数据接入、服务开发与运维管控
        </Typography.Paragraph>
        <HomeSearch />
        <div style={{ marginTop: 12 }}>
          <Tag color="gold">大模型</Tag>
          <Tag color="cyan">智能体</Tag>
        </div>
      </div>
      <Row gutter={[16, 16]}>
        {FEATURES.map((f) => (
          <Col xs={24} sm={12} xl={6} key={f.title}>
            <Card hoverable data-testid="feature-card" style={{ height: '100%' }}>
              <div style={{ fontSize: 28, color: token.colorPrimary }}>{f.icon}</div>
              <Typography.Title level={4} style={{ margin: '8px 0' }}>
                {f.title}
              </Typography.Title>
              <div>
                {f.points.map((p) => (
                  <Tag key={p} style={{ marginBottom: 4 }}>
                    {p}
                  </Tag>
                ))}
              </div>
            </Card>
          </Col>
        ))}
      </Row>
      <Card style={{ marginTop: 16 }}>
        <Tabs
          items={['热门', '最新'].map((k) => ({
            key: k,
            label: k,
            children: <List dataSource={PLACEHOLDER(k)} renderItem={(i) => <List.Item><List.Item.Meta title={i.title} description={i.desc} /></List.Item>} />,
          }))}
        />
      </Card>
    </div>
  );
}
