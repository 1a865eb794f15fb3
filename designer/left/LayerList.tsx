// Tab 图层: the placed widgets, top of the stack first (the reverse of canvas stacking), reorderable by drag;
// click selects (shift adds), and each layer can be locked or hidden.
import { memo, useState } from 'react';
import { Button, Empty, Tooltip, Typography } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { useStore } from '../../runtime/core/store';
import { WidgetIcon } from '../../widgets';
import type { Designer } from '../editor/store';

export const LayerList = memo(function LayerList({ designer }: { designer: Designer }) {
  const widgets = useStore(designer.store, (s) => s.doc.widgets);
  const selected = useStore(designer.store, (s) => s.selected);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const layers = [...widgets].reverse();
  if (!layers.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="画布上还没有组件" />;

  /** Drops `id` where `target` is in the list shown (top first), then writes the stacking order back. */
  const dropOn = (target: string) => {
    if (!dragging || dragging === target) return;
    const shown = layers.map((w) => w.id).filter((x) => x !== dragging);
    shown.splice(shown.indexOf(target), 0, dragging);
    designer.reorder(shown.reverse());
  };

  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="layer-list">
      {layers.map((w) => {
        const p = w.widgetProps;
        const active = selected.includes(w.id);
        return (
          <li
            key={w.id}
            draggable
            data-layer-id={w.id}
            aria-label={`图层 ${w.widgetTitle}`}
            onDragStart={(e) => {
              e.dataTransfer.setData('text/plain', w.id);
              setDragging(w.id);
            }}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(w.id);
            }}
            onDragEnd={() => {
              setDragging(null);
              setOver(null);
            }}
            onDrop={(e) => {
              e.preventDefault();
              dropOn(w.id);
              setDragging(null);
              setOver(null);
            }}
            onClick={(e) => designer.select(e.shiftKey ? (active ? selected.filter((x) => x !== w.id) : [...selected, w.id]) : [w.id])}
            style={{
              display: 'flex',
              alignItems: 'center',
              gap: 8,
              padding: '6px 8px',
              cursor: 'pointer',
              borderRadius: 4,
              borderTop: over === w.id && dragging && dragging !== w.id ? '2px solid #1677ff' : '2px solid transparent',
              background: active ? 'rgba(22,119,255,0.12)' : undefined,
              opacity: p.hidden ? 0.5 : 1,
            }}
          >
            <WidgetIcon name={w.icon} />
            <Typography.Text ellipsis style={{ flex: 1 }}>
              {w.widgetTitle}
            </Typography.Text>
            <Tooltip title={p.locked ? '解锁' : '锁定'}>
              <Button
                type="text"
                size="small"
                aria-label={`${p.locked ? '解锁' : '锁定'} ${w.widgetTitle}`}
                icon={p.locked ? <LockOutlined /> : <UnlockOutlined />}
                onClick={(e) => {
                  e.stopPropagation();
                  designer.setFlag(w.id, 'locked', !p.locked);
                }}
              />
            </Tooltip>
            <Tooltip title={p.hidden ? '显示' : '隐藏'}>
              <Button
                type="text"
                size="small"
                aria-label={`${p.hidden ? '显示' : '隐藏'} ${w.widgetTitle}`}
                icon={p.hidden ? <EyeInvisibleOutlined /> : <EyeOutlined />}
                onClick={(e) => {
                  e.stopPropagation();
                  designer.setFlag(w.id, 'hidden', !p.hidden);
                }}
              />
            </Tooltip>
          </li>
        );
      })}
    </ul>
  );
});
