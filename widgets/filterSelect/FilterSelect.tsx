// 筛选组件 · 下拉筛选 (issue 23 §2): single or multiple choice written to one screen variable; options STATIC
// or from an API (mapping label / value), which may bind other variables (cascading).
import { Select } from 'antd';
import { asList, asText, FilterFrame, useClearWhenGone, useFiltersLive, useFilterValue, useOptions } from '../filters/filter';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FilterSelect({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'filterSelect'>>) {
  const live = useFiltersLive();
  const [value, write] = useFilterValue(v.variable, data);
  const options = useOptions(data);
  useClearWhenGone(live, value, options, data, write);
  return (
    <FilterFrame widget="filterSelect" look={v} live={live}>
      <Select
        aria-label={v.label || v.placeholder || '下拉筛选'}
        mode={v.multiple ? 'multiple' : undefined}
        maxTagCount="responsive"
        allowClear
        showSearch
        optionFilterProp="label"
        placeholder={v.placeholder}
        options={options}
        value={live ? (v.multiple ? asList(value) : asText(value)) : undefined}
        notFoundContent="无选项"
        onChange={(next: string | string[] | undefined) => write(next === undefined ? null : next)}
        style={{ width: '100%' }}
      />
    </FilterFrame>
  );
}
