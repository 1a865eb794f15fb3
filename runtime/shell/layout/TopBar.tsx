// The 50 px top bar: collapse toggle, breadcrumb (or the top navigation), help and message
// icons (hidden by default), layout settings and the user dropdown.
import {
  BellOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, QuestionCircleOutlined, SettingOutlined, UserOutlined,
} from '@ant-design/icons';
import { App, Avatar, Breadcrumb, Dropdown, Empty, Layout, Popover, Space } from 'antd';
import { useState, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { t } from '../../core/messages';
import { logout, useSession } from '../../core/session';
import { useStore } from '../../core/store';
import { dirtyPaths, useConfirmLeave } from '../../ui/leave';
import type { MenuEntry } from '../menu';
import { settingsStore, updateSettings } from '../state';
import { usePhoneShell } from './usePhoneShell';
import { SettingsDrawer } from './SettingsDrawer';
import { TopNav } from './TopNav';

export const HELP_URL = '/docs/help.html';

const iconStyle = { fontSize: 18, cursor: 'pointer', padding: '0 8px' } as const;

export function TopBar({ collapsed, onToggle, trail, title }: { collapsed: boolean; onToggle: () => void; trail: MenuEntry[]; title?: string }) {
  const settings = useStore(settingsStore);
  const { user } = useSession();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const [drawer, setDrawer] = useState(false);
  const phone = usePhoneShell();
  // leaving a view with unsaved edits asks first (ui/leave.ts); signing out asks about every such view
  const leave = useConfirmLeave();
  const toHome = (e: MouseEvent) => {
    e.preventDefault();
    leave(() => navigate('/index'));
  };

  const toggle = () => (phone ? onToggle() : updateSettings({ sidebarCollapsed: !settings.sidebarCollapsed }));
  // 首页 leads every breadcrumb; the home entry itself is not repeated.
  const crumbs = [{ title: <Link to="/index" onClick={toHome}>首页</Link> }, ...trail.filter((e) => e.path !== '/index').map((e) => ({ title: e.name }))];
  if (!trail.length && title && title !== '首页') crumbs.push({ title });

  const confirmLogout = () =>
    modal.confirm({
      title: t('systemPrompt'),
      content: t('confirmLogout'),
      okText: '确定',
      cancelText: '取消',
      onOk: () => logout(),
    });

  return (
    <Layout.Header
      style={{ height: 50, lineHeight: '50px', padding: '0 12px', background: '#fff', display: 'flex', alignItems: 'center', boxShadow: '0 1px 4px rgba(0,21,41,.08)', position: 'relative', zIndex: 2 }}
    >
      {settings.topNav ? (
        <>
          <span style={{ fontWeight: 600, fontSize: 16, marginRight: 24, whiteSpace: 'nowrap' }}>数据服务平台</span>
          <TopNav />
        </>
      ) : (
        <>
          <span role="button" aria-label={collapsed ? '展开侧边栏' : '收起侧边栏'} data-testid="sidebar-toggle" onClick={toggle} style={iconStyle}>
            {collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          </span>
          <Breadcrumb items={crumbs} style={{ marginLeft: 8, flex: 1 }} data-testid="breadcrumb" />
        </>
      )}
      <Space size={4} style={{ marginLeft: 'auto' }}>
        {settings.showHelp && (
          <span style={iconStyle} title="帮助文档" onClick={() => window.open(HELP_URL, '_blank', 'noopener')}>
            <QuestionCircleOutlined />
          </span>
        )}
        {settings.showMessage && (
          <Popover trigger="click" title="消息" content={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noMessages')} />}>
            <span style={iconStyle} title="消息">
              <BellOutlined />
            </span>
          </Popover>
        )}
        <span style={iconStyle} title="布局设置" aria-label="布局设置" data-testid="settings-button" onClick={() => setDrawer(true)}>
          <SettingOutlined />
        </span>
        <Dropdown
          menu={{
            items: [
              { key: 'profile', icon: <UserOutlined />, label: '个人中心' },
              { type: 'divider' },
              { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
            ],
            onClick: ({ key }) => (key === 'profile' ? leave(() => navigate('/user/profile')) : leave(confirmLogout, dirtyPaths(), true)),
          }}
        >
          <span style={{ cursor: 'pointer', display: 'inline-flex', alignItems: 'center', gap: 8, padding: '0 8px' }} data-testid="user-menu">
            <Avatar size={28} src={user?.avatar || undefined} icon={<UserOutlined />} />
            <span>{user?.nickName || user?.username}</span>
          </span>
        </Dropdown>
      </Space>
      <SettingsDrawer open={drawer} onClose={() => setDrawer(false)} />
    </Layout.Header>
  );
}
