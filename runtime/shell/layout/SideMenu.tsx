// The side menu built from the menu tree (directories, groups and pages).
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useStore } from '../../core/store';
import { menuIcon } from '../icons';
import { navTree, openKeysFor, type NavNode } from '../menu';
import { menuStore } from '../state';
import { findNode, useMenuClick } from './useMenuClick';

type Items = NonNullable<MenuProps['items']>;

export function toMenuItems(nodes: NavNode[]): Items {
  return nodes.map((n) => {
    const icon = menuIcon(n.entry.icon);
    if (n.children) {
      const children = toMenuItems(n.children);
      return n.entry.group
        ? { type: 'group' as const, key: n.key, label: n.entry.name, children }
        : { key: n.key, icon, label: n.entry.name, children };
    }
    return { key: n.key, icon, label: n.entry.name };
  });
}

export function useNavTree(): NavNode[] {
  const menus = useStore(menuStore, (s) => s.menus);
  return useMemo(() => navTree(menus), [menus]);
}

export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const nodes = useNavTree();
  const { pathname } = useLocation();
  const click = useMenuClick(onNavigate);
  const items = useMemo(() => toMenuItems(nodes), [nodes]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(nodes, pathname));
  useEffect(() => {
    const needed = openKeysFor(nodes, pathname);
    if (needed.length) setOpenKeys((k) => [...new Set([...k, ...needed])]);
  }, [nodes, pathname]);
  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={[pathname]}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={({ key }) => {
        const node = findNode(nodes, key);
        if (node) click(node);
      }}
    />
  );
}
