// Visited tabs (persisted). Closing a tab also drops its cached page.
import { Tabs } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { useStore } from '../../core/store';
import { removeViews, tagsStore } from '../state';

export function TagsView() {
  const views = useStore(tagsStore, (s) => s.views);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const close = (key: string) => {
    const rest = views.filter((v) => v.pathname !== key || v.affix);
    removeViews((v) => v.pathname === key);
    if (key === pathname) navigate(rest[rest.length - 1]?.fullPath ?? '/index');
  };
  return (
    <div style={{ background: '#fff', padding: '4px 12px 0', borderBottom: '1px solid #f0f0f0' }} data-testid="tags-view">
      <Tabs
        size="small"
        type="editable-card"
        hideAdd
        activeKey={pathname}
        tabBarStyle={{ margin: 0 }}
        items={views.map((v) => ({ key: v.pathname, label: v.title, closable: !v.affix }))}
        onChange={(key) => navigate(views.find((v) => v.pathname === key)?.fullPath ?? key)}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') close(key);
        }}
      />
    </div>
  );
}
