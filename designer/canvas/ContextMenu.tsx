// The widget's right-click menu (spec: width 150): copy layer, delete layer, move up / down one layer —
// up disabled for the top layer, down for the bottom — then align / distribute and group / ungroup (issue 22
// §3). A group's member stands for its whole group. Closes on any click elsewhere or Escape.
import { useEffect, useRef } from 'react';
import { Menu } from 'antd';
import { useStore } from '../../runtime/core/store';
import type { Designer } from '../editor/store';
import { blocksOf, withGroups } from '../editor/arrange';
import { arrangeMenuItems, runArrangeKey, useArrangeState } from './ArrangeToolbar';

const SUBMENU_CLASS = 'designer-context-submenu';

export interface MenuState {
  id: string;
  x: number;
  y: number;
}

export const CONTEXT_MENU_WIDTH = 150;

export function ContextMenu({ designer, state, pageId, onClose }: { designer: Designer; state: MenuState; pageId: string; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  // the layer blocks (a group is one), each named by its ids: up / down pass a whole block
  const order = useStore(designer.store, (s) => blocksOf(s.doc.widgets).map((b) => b.map((w) => w.id).join(',')).join('\u0000'));
  const blocks = order.split('\u0000');
  const at = blocks.findIndex((b) => b.split(',').includes(state.id));
  const arrange = useArrangeState(designer);
  useEffect(() => {
    // the submenu's popup is drawn outside the menu: a press there is not "elsewhere"
    const away = (e: Event) => !ref.current?.contains(e.target as Node) && !(e.target as Element).closest?.(`.${SUBMENU_CLASS}`) && onClose();
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('mousedown', away, true);
    document.addEventListener('keydown', esc);
    return () => {
      document.removeEventListener('mousedown', away, true);
      document.removeEventListener('keydown', esc);
    };
  }, [onClose]);
  if (at < 0) return null;
  return (
    <div ref={ref} className="designer-context-menu" data-testid="designer-context-menu" style={{ position: 'absolute', left: state.x, top: state.y, width: CONTEXT_MENU_WIDTH, zIndex: 10000, boxShadow: '0 6px 16px rgba(0,0,0,.3)' }}>
      <Menu
        selectable={false}
        style={{ width: CONTEXT_MENU_WIDTH, borderRadius: 6 }}
        items={[
          { key: 'copy', label: '复制图层' },
          { key: 'delete', label: '删除图层', danger: true },
          { key: 'up', label: '上移一层', disabled: at === blocks.length - 1 },
          { key: 'down', label: '下移一层', disabled: at === 0 },
          ...arrangeMenuItems(arrange, SUBMENU_CLASS),
        ]}
        onClick={({ key }) => {
          const unit = () => withGroups(designer.store.get().doc.widgets, [state.id]);
          if (key.startsWith('arrange:')) runArrangeKey(designer, key);
          else if (key === 'copy') designer.duplicate(unit(), pageId);
          else if (key === 'delete') designer.remove(unit());
          else designer.moveLayer(state.id, key as 'up' | 'down');
          onClose();
        }}
      />
    </div>
  );
}
