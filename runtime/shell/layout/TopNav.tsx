// Navigation in the top bar: up to 20 top-level items at 100 px each, the rest under 更多.
import { Menu } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { topNavCount } from '../menu';
import { toMenuItems, useNavTree } from './SideMenu';
import { findNode, useMenuClick } from './useMenuClick';

export function TopNav() {
  const nodes = useNavTree();
  const { pathname } = useLocation();
  const click = useMenuClick();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // debounce resizes by 500 ms (spec §9)
    const ro = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setWidth(el.clientWidth), 500);
    });
    ro.observe(el);
    return () => {
      clearTimeout(timer);
      ro.disconnect();
    };
  }, []);
  const items = useMemo(() => {
    const all = toMenuItems(nodes);
    const n = topNavCount(width, all.length);
    if (n >= all.length) return all;
    return [...all.slice(0, n), { key: '__more', label: '更多', children: all.slice(n) }];
  }, [nodes, width]);
  const top = nodes.find((n) => pathname === n.path || pathname.startsWith(`${n.path}/`));
  return (
    <div ref={box} style={{ flex: 1, minWidth: 0 }} data-testid="top-nav">
      <Menu
        mode="horizontal"
        disabledOverflow
        items={items}
        selectedKeys={[pathname, ...(top ? [top.key] : [])]}
        style={{ borderBottom: 'none', lineHeight: '48px', background: 'transparent' }}
        onClick={({ key }) => {
          const node = findNode(nodes, key);
          if (node) click(node);
        }}
      />
    </div>
  );
}
