// Visited tabs (persisted). Closing a tab also drops its cached page. Right-click a tab for
// 刷新页面 / 关闭当前 / 关闭其他 / 关闭右侧 / 全部关闭.
import { Dropdown, Tabs, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { useStore } from '../../core/store';
import { useConfirmLeave } from '../../ui/leave';
import { refreshView, removeViews, tagsStore, type VisitedView } from '../state';

type Action = 'refresh' | 'close' | 'others' | 'right' | 'all';

const MENU: MenuProps['items'] = [
  { key: 'refresh', label: '刷新页面' },
  { key: 'close', label: '关闭当前' },
  { key: 'others', label: '关闭其他' },
  { key: 'right', label: '关闭右侧' },
  { key: 'all', label: '全部关闭' },
];

export function TagsView() {
  const views = useStore(tagsStore, (s) => s.views);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // closing, refreshing or leaving a view with unsaved edits asks first (ui/leave.ts), one question per view
  const leave = useConfirmLeave();

  // After closing, stay if the current tab survived, else go to the last one left.
  const closeWhere = (pred: (v: VisitedView, i: number) => boolean, then?: () => void) => {
    const doomed = views.filter((v, i) => !v.affix && pred(v, i)).map((v) => v.pathname);
    leave(() => {
      removeViews((v) => doomed.includes(v.pathname));
      if (doomed.includes(pathname)) {
        const rest = views.filter((v) => !doomed.includes(v.pathname));
        navigate(rest[rest.length - 1]?.fullPath ?? '/index');
      }
      then?.();
    }, doomed, true);
  };

  const act = (action: Action, target: VisitedView) => {
    const at = views.findIndex((v) => v.pathname === target.pathname);
    if (action === 'refresh') {
      leave(
        () => {
          refreshView(target.pathname);
          if (target.pathname !== pathname) navigate(target.fullPath);
        },
        [target.pathname, pathname],
      );
    } else if (action === 'close') closeWhere((v) => v.pathname === target.pathname);
    else if (action === 'others') closeWhere((v) => v.pathname !== target.pathname, () => target.pathname !== pathname && navigate(target.fullPath));
    else if (action === 'right') closeWhere((_, i) => i > at);
    else closeWhere(() => true);
  };

  return (
    <div style={{ background: '#fff', padding: '4px 12px 0', borderBottom: '1px solid #f0f0f0' }} data-testid="tags-view">
      <Tabs
        size="small"
        type="editable-card"
        hideAdd
        activeKey={pathname}
        tabBarStyle={{ margin: 0 }}
        items={views.map((v) => ({
          key: v.pathname,
          closable: !v.affix,
          label: (
            <Dropdown trigger={['contextMenu']} menu={{ items: MENU, onClick: ({ key }) => act(key as Action, v) }}>
              <span>{v.title}</span>
            </Dropdown>
          ),
        }))}
        onChange={(key) => leave(() => navigate(views.find((v) => v.pathname === key)?.fullPath ?? key))}
        onEdit={(key, action) => {
          const v = views.find((x) => x.pathname === key);
          if (action === 'remove' && v) act('close', v);
        }}
      />
    </div>
  );
}
