// "site" layout: a slim top bar with the system name and the page below, no side menu or tabs.
import { Layout } from 'antd';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { PageBoundary, PageSpin } from './PageBoundary';

export function SiteLayout() {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ height: 50, lineHeight: '50px', padding: '0 24px', background: '#001529' }}>
        <Link to="/index" style={{ color: '#fff', fontWeight: 600 }}>
          数据服务平台
        </Link>
      </Layout.Header>
      <Layout.Content style={{ padding: 16 }}>
        <PageBoundary>
          <Suspense fallback={<PageSpin />}>
            <Outlet />
          </Suspense>
        </PageBoundary>
      </Layout.Content>
    </Layout>
  );
}
