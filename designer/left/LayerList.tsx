// Tab 图层: the placed widgets, top of the stack first (the reverse of canvas stacking), reorderable by drag;
// click selects (shift adds), and each layer can be locked or hidden. A group (issue 22 §3) is one entry —
// selected, dragged, locked and hidden as one — expandable to its members (a member's click selects it
// alone). Double-clicking a name renames the layer or the group: Enter saves, Escape cancels.
import { memo, useRef, useState, type ReactNode } from 'react';
import { Button, Empty, Input, Tooltip, Typography } from 'antd';
import { CaretDownOutlined, CaretRightOutlined, EyeInvisibleOutlined, EyeOutlined, GroupOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { useStore } from '../../runtime/core/store';
import { GROUP_NAME_MAX, groupOf } from '../../common/groups';
import { WidgetIcon, type WidgetEntity } from '../../widgets';
import { blocksOf } from '../editor/arrange';
import type { Designer } from '../editor/store';

/** One entry of the list: a widget, or a group with its members (top first). */
interface Entry {
  key: string;
  members: WidgetEntity[];
  group: { id: string; name: string } | null;
}

/** The name being edited, in place of the text: Enter or leaving the field saves, Escape cancels. */
function NameEditor({ value, max, label, onDone }: { value: string; max: number; label: string; onDone: (name: string | null) => void }) {
  const cancelled = useRef(false);
  return (
    <Input
      size="small"
      autoFocus
      defaultValue={value}
      maxLength={max}
      aria-label={label}
      style={{ flex: 1, minWidth: 0 }}
      onFocus={(e) => e.target.select()}
      onClick={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') onDone(e.currentTarget.value);
        else if (e.key === 'Escape') {
          cancelled.current = true;
          onDone(null);
        }
      }}
      onBlur={(e) => !cancelled.current && onDone(e.target.value)}
    />
  );
}

export const LayerList = memo(function LayerList({ designer }: { designer: Designer }) {
  const widgets = useStore(designer.store, (s) => s.doc.widgets);
  const selected = useStore(designer.store, (s) => s.selected);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  if (!widgets.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="画布上还没有组件" />;

  const entries: Entry[] = blocksOf(widgets)
    .reverse()
    .map((b) => {
      const g = groupOf(b[0]);
      return g ? { key: `g:${g.id}`, members: [...b].reverse(), group: g } : { key: b[0].id, members: b, group: null };
    });
  const chosen = new Set(selected);

  /** Drops entry `key` where entry `target` is in the list shown (top first), then writes the stacking order back. */
  const dropOn = (target: string) => {
    if (!dragging || dragging === target) return;
    const moving = entries.find((e) => e.key === dragging);
    if (!moving) return;
    const shown = entries.filter((e) => e.key !== dragging);
    shown.splice(
      shown.findIndex((e) => e.key === target),
      0,
      moving,
    );
    designer.reorder(shown.flatMap((e) => e.members.map((w) => w.id)).reverse());
  };

  const toggle = (ids: string[], shift: boolean) => {
    const all = ids.every((id) => chosen.has(id));
    designer.select(shift ? (all ? selected.filter((x) => !ids.includes(x)) : [...selected, ...ids.filter((id) => !chosen.has(id))]) : ids);
  };

  const flagButtons = (name: string, ids: string[], members: WidgetEntity[]) => {
    const locked = members.every((w) => w.widgetProps.locked);
    const hidden = members.every((w) => w.widgetProps.hidden);
    return (
      <>
        <Tooltip title={locked ? '解锁' : '锁定'}>
          <Button
            type="text"
            size="small"
            aria-label={`${locked ? '解锁' : '锁定'} ${name}`}
            icon={locked ? <LockOutlined /> : <UnlockOutlined />}
            onClick={(e) => {
              e.stopPropagation();
              designer.setFlags(ids, 'locked', !locked);
            }}
          />
        </Tooltip>
        <Tooltip title={hidden ? '显示' : '隐藏'}>
          <Button
            type="text"
            size="small"
            aria-label={`${hidden ? '显示' : '隐藏'} ${name}`}
            icon={hidden ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            onClick={(e) => {
              e.stopPropagation();
              designer.setFlags(ids, 'hidden', !hidden);
            }}
          />
        </Tooltip>
      </>
    );
  };

  const nameOf = (key: string, name: string, max: number, save: (name: string) => void): ReactNode =>
    editing === key ? (
      <NameEditor
        value={name}
        max={max}
        label={`图层名称 ${name}`}
        onDone={(next) => {
          setEditing(null);
          if (next !== null) save(next);
        }}
      />
    ) : (
      <Typography.Text
        ellipsis
        style={{ flex: 1 }}
        title="双击重命名"
        onDoubleClick={(e) => {
          e.stopPropagation();
          setEditing(key);
        }}
      >
        {name}
      </Typography.Text>
    );

  const rowStyle = (key: string, active: boolean, dim: boolean, indent = 0) => ({
    display: 'flex',
    alignItems: 'center',
    gap: 8,
    padding: `6px 8px 6px ${8 + indent}px`,
    cursor: 'pointer',
    borderRadius: 4,
    borderTop: over === key && dragging && dragging !== key ? '2px solid #1677ff' : '2px solid transparent',
    background: active ? 'rgba(22,119,255,0.12)' : undefined,
    opacity: dim ? 0.5 : 1,
  });

  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="layer-list">
      {entries.map((entry) => {
        const ids = entry.members.map((w) => w.id);
        const active = ids.every((id) => chosen.has(id));
        const w = entry.members[0];
        const g = entry.group;
        const title = g ? g.name : w.widgetTitle;
        const expanded = g ? open.has(g.id) : false;
        return (
          <li
            key={entry.key}
            draggable={editing === null}
            data-layer-id={g ? undefined : w.id}
            data-group-id={g?.id}
            aria-label={g ? `分组 ${title}` : `图层 ${title}`}
            onDragStart={(e) => {
              e.dataTransfer.setData('text/plain', entry.key);
              setDragging(entry.key);
            }}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(entry.key);
            }}
            onDragEnd={() => {
              setDragging(null);
              setOver(null);
            }}
            onDrop={(e) => {
              e.preventDefault();
              dropOn(entry.key);
              setDragging(null);
              setOver(null);
            }}
          >
            <div style={rowStyle(entry.key, active, entry.members.every((m) => m.widgetProps.hidden))} onClick={(e) => toggle(ids, e.shiftKey)}>
              {g ? (
                <>
                  <Button
                    type="text"
                    size="small"
                    aria-label={`${expanded ? '收起' : '展开'} ${title}`}
                    aria-expanded={expanded}
                    icon={expanded ? <CaretDownOutlined /> : <CaretRightOutlined />}
                    style={{ width: 16, minWidth: 16 }}
                    onClick={(e) => {
                      e.stopPropagation();
                      setOpen((o) => {
                        const next = new Set(o);
                        if (next.has(g.id)) next.delete(g.id);
                        else next.add(g.id);
                        return next;
                      });
                    }}
                  />
                  <GroupOutlined />
                </>
              ) : (
                <WidgetIcon kind={w.widgetName} />
              )}
              {nameOf(entry.key, title, g ? GROUP_NAME_MAX : 100, (name) => (g ? designer.renameGroup(g.id, name) : designer.rename(w.id, name)))}
              {flagButtons(title, ids, entry.members)}
            </div>
            {expanded && (
              <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={`分组 ${title} 的图层`}>
                {entry.members.map((m) => (
                  <li key={m.id} data-layer-id={m.id} aria-label={`图层 ${m.widgetTitle}`} style={rowStyle(m.id, chosen.has(m.id), Boolean(m.widgetProps.hidden), 24)} onClick={(e) => (e.stopPropagation(), toggle([m.id], e.shiftKey))}>
                    <WidgetIcon kind={m.widgetName} />
                    {nameOf(m.id, m.widgetTitle, 100, (name) => designer.rename(m.id, name))}
                    {flagButtons(m.widgetTitle, [m.id], [m])}
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ul>
  );
});
