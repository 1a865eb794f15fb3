// 筛选组件 · 重置按钮 (issue 23 §2): puts the listed variables (none listed: all of them) back to the values the
// preview started with (defaults, or what the URL set), in one change.
import { Button } from 'antd';
import { UndoOutlined } from '@ant-design/icons';
import { useVariableStore } from '../data/variables';
import { FilterFrame, useFiltersLive } from '../filters/filter';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FilterReset({ viewProps: v }: WidgetKindProps<ViewPropsOf<'filterReset'>>) {
  const live = useFiltersLive();
  const store = useVariableStore();
  return (
    <FilterFrame widget="filterReset" look={{ ...v, label: '' }} live={live}>
      <Button icon={<UndoOutlined />} onClick={() => store.reset(v.variables.length ? v.variables : undefined)} style={{ width: '100%', color: v.textColor }}>
        {v.text || '重置'}
      </Button>
    </FilterFrame>
  );
}
