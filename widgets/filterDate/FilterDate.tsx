// 筛选组件 · 日期筛选 (issue 23 §2): one date, written to one screen variable as YYYY-MM-DD.
import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { asText, FilterFrame, useFiltersLive, useFilterVariable } from '../filters/filter';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

const DATE_FORMAT = 'YYYY-MM-DD';

export function FilterDate({ viewProps: v }: WidgetKindProps<ViewPropsOf<'filterDate'>>) {
  const live = useFiltersLive();
  const [value, write] = useFilterVariable(v.variable);
  const text = live ? asText(value) : undefined;
  const day = text ? dayjs(text.slice(0, 10), DATE_FORMAT) : null;
  return (
    <FilterFrame widget="filterDate" look={v} live={live}>
      <DatePicker
        aria-label={v.label || v.placeholder || '日期筛选'}
        format={DATE_FORMAT}
        placeholder={v.placeholder}
        value={day?.isValid() ? day : null}
        onChange={(d) => write(d ? d.format(DATE_FORMAT) : null)}
        style={{ width: '100%' }}
      />
    </FilterFrame>
  );
}
