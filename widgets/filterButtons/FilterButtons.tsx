// 筛选组件 · 按钮组筛选 (issue 23 §2): a row of buttons or tabs, the chosen one's value written to one screen
// variable; “全部” (optional) clears it. Options STATIC or from an API (mapping label / value).
import { Radio, Tabs } from 'antd';
import { asText, FilterFrame, useClearWhenGone, useFiltersLive, useFilterValue, useOptions } from '../filters/filter';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** The key of “全部” (no value): not a value any option can have, since an option without a value is left out. */
const ALL = '';

export function FilterButtons({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'filterButtons'>>) {
  const live = useFiltersLive();
  const [value, write] = useFilterValue(v.variable, data);
  const options = useOptions(data);
  useClearWhenGone(live, value, options, data, write);
  const items = [...(v.allOption ? [{ value: ALL, label: v.allLabel || '全部' }] : []), ...options];
  const current = (live ? asText(value) : undefined) ?? ALL;
  const choose = (key: string) => write(key === ALL ? null : key);
  return (
    <FilterFrame widget="filterButtons" look={v} live={live}>
      {v.mode === 'tabs' ? (
        <Tabs size="small" activeKey={current} onChange={choose} items={items.map((o) => ({ key: o.value, label: o.label }))} tabBarStyle={{ margin: 0 }} />
      ) : (
        <Radio.Group
          aria-label={v.label || '按钮组筛选'}
          optionType="button"
          buttonStyle="solid"
          value={current}
          onChange={(e) => choose(String(e.target.value))}
          options={items}
          style={{ display: 'flex', flexWrap: 'nowrap', overflowX: 'auto' }}
        />
      )}
    </FilterFrame>
  );
}
