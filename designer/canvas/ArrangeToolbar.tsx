// The toolbar's arranging buttons (issue 22 §3): align the selection left / centre / right / top / middle /
// bottom (two units at least: a group counts as one), distribute it horizontally / vertically (three), group
// (Ctrl+G) and ungroup (Ctrl+Shift+G). The context menu offers the same through arrangeMenuItems.
import { memo } from 'react';
import { Button, Space, Tooltip } from 'antd';
import type { MenuProps } from 'antd';
import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  ColumnHeightOutlined,
  ColumnWidthOutlined,
  GroupOutlined,
  UngroupOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignMiddleOutlined,
  VerticalAlignTopOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useStore } from '../../runtime/core/store';
import { groupOf } from '../../common/groups';
import { ALIGN_LABELS, DISTRIBUTE_LABELS, unitsOf, type AlignMode, type DistributeAxis } from '../editor/arrange';
import type { Designer, DesignerState } from '../editor/store';

const ALIGN_ICONS: Record<AlignMode, ReactNode> = {
  left: <AlignLeftOutlined />,
  center: <AlignCenterOutlined />,
  right: <AlignRightOutlined />,
  top: <VerticalAlignTopOutlined />,
  middle: <VerticalAlignMiddleOutlined />,
  bottom: <VerticalAlignBottomOutlined />,
};
const DISTRIBUTE_ICONS: Record<DistributeAxis, ReactNode> = { horizontal: <ColumnWidthOutlined />, vertical: <ColumnHeightOutlined /> };
const ALIGNS = Object.keys(ALIGN_LABELS) as AlignMode[];
/** How to select several layers, said on a button that waits for more of them. */
export const SELECT_HINT = 'Ctrl+A 全选，Shift 或 Ctrl + 单击加选 / 取消，在画布空白处拖动框选';
const hint = (title: string, enabled: boolean) => (enabled ? title : `${title}。${SELECT_HINT}`);
const AXES = Object.keys(DISTRIBUTE_LABELS) as DistributeAxis[];

/** How many units the selection has and whether it touches a group: one number, so a selector re-renders only when it changes. */
const arrangeState = (s: DesignerState) => {
  const chosen = new Set(s.selected);
  const grouped = s.doc.widgets.some((w) => chosen.has(w.id) && groupOf(w));
  return Math.min(unitsOf(s.doc.widgets, s.selected).length, 3) * 2 + (grouped ? 1 : 0);
};

export function useArrangeState(designer: Designer) {
  const n = useStore(designer.store, arrangeState);
  const units = n >> 1;
  return { canAlign: units >= 2, canDistribute: units >= 3, canGroup: units >= 2, canUngroup: (n & 1) === 1 };
}

export const ArrangeToolbar = memo(function ArrangeToolbar({ designer }: { designer: Designer }) {
  const { canAlign, canDistribute, canGroup, canUngroup } = useArrangeState(designer);
  return (
    <Space.Compact data-testid="arrange-toolbar">
      {ALIGNS.map((m) => (
        <Tooltip key={m} title={hint(`${ALIGN_LABELS[m]}（至少选择 2 个图层）`, canAlign)}>
          <Button icon={ALIGN_ICONS[m]} aria-label={ALIGN_LABELS[m]} disabled={!canAlign} onClick={() => designer.align(m)} />
        </Tooltip>
      ))}
      {AXES.map((a) => (
        <Tooltip key={a} title={hint(`${DISTRIBUTE_LABELS[a]}（至少选择 3 个图层）`, canDistribute)}>
          <Button icon={DISTRIBUTE_ICONS[a]} aria-label={DISTRIBUTE_LABELS[a]} disabled={!canDistribute} onClick={() => designer.distribute(a)} />
        </Tooltip>
      ))}
      <Tooltip title={hint('组合 Ctrl+G', canGroup)}>
        <Button icon={<GroupOutlined />} aria-label="组合" disabled={!canGroup} onClick={() => designer.group()} />
      </Tooltip>
      <Tooltip title="取消组合 Ctrl+Shift+G">
        <Button icon={<UngroupOutlined />} aria-label="取消组合" disabled={!canUngroup} onClick={designer.ungroup} />
      </Tooltip>
    </Space.Compact>
  );
});

/** The context menu's part: a 对齐与分布 submenu and 组合 / 取消组合 (keys prefixed `arrange:`). */
export function arrangeMenuItems(s: ReturnType<typeof useArrangeState>, popupClassName: string): NonNullable<MenuProps['items']> {
  return [
    { type: 'divider' },
    {
      key: 'arrange',
      label: '对齐与分布',
      disabled: !s.canAlign,
      popupClassName,
      children: [
        ...ALIGNS.map((m) => ({ key: `arrange:align:${m}`, label: ALIGN_LABELS[m], icon: ALIGN_ICONS[m] })),
        ...AXES.map((a) => ({ key: `arrange:distribute:${a}`, label: DISTRIBUTE_LABELS[a], icon: DISTRIBUTE_ICONS[a], disabled: !s.canDistribute })),
      ],
    },
    { key: 'arrange:group', label: '组合', disabled: !s.canGroup, icon: <GroupOutlined /> },
    { key: 'arrange:ungroup', label: '取消组合', disabled: !s.canUngroup, icon: <UngroupOutlined /> },
  ];
}

/** Runs a menu key arrangeMenuItems made; false for other keys. */
export function runArrangeKey(designer: Designer, key: string): boolean {
  const [head, what, arg] = key.split(':');
  if (head !== 'arrange') return false;
  if (what === 'align') designer.align(arg as AlignMode);
  else if (what === 'distribute') designer.distribute(arg as DistributeAxis);
  else if (what === 'group') designer.group();
  else if (what === 'ungroup') designer.ungroup();
  return true;
}
