// 筛选组件 · 日期范围筛选 (issue 23 §2). The value is two variables, not one list: the start date goes to
// `variable`, the end date to `endVariable`, each YYYY-MM-DD, so an API binds them to two parameters
// (`{"start": "{{start}}", "end": "{{end}}"}` → `between :start and :end`); an open end leaves its variable
// empty (its parameter is not sent). Both are written in one change: what is bound to them fetches once.
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { coerceValue, type VariableValue } from '../../common/variables';
import { useVariable, useVariableStore } from '../data/variables';
import { asText, FilterFrame, useFiltersLive } from '../filters/filter';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

const DATE_FORMAT = 'YYYY-MM-DD';

function dayOf(v: VariableValue, live: boolean): Dayjs | null {
  const text = live ? asText(v) : undefined;
  const d = text ? dayjs(text.slice(0, 10), DATE_FORMAT) : null;
  return d?.isValid() ? d : null;
}

export function FilterDateRange({ viewProps: v }: WidgetKindProps<ViewPropsOf<'filterDateRange'>>) {
  const live = useFiltersLive();
  const store = useVariableStore();
  const [start] = useVariable(v.variable || undefined);
  const [end] = useVariable(v.endVariable || undefined);
  const write = (dates: [Dayjs | null, Dayjs | null] | null) => {
    const text = (d: Dayjs | null | undefined) => (d ? (coerceValue('date', d.format(DATE_FORMAT)) ?? null) : null);
    const changes: Record<string, VariableValue> = {};
    if (v.variable) changes[v.variable] = text(dates?.[0]);
    if (v.endVariable) changes[v.endVariable] = text(dates?.[1]);
    store.setMany(changes);
  };
  return (
    <FilterFrame widget="filterDateRange" look={v} live={live}>
      <DatePicker.RangePicker
        aria-label={v.label || '日期范围筛选'}
        format={DATE_FORMAT}
        placeholder={[v.startPlaceholder, v.endPlaceholder]}
        allowEmpty={[true, true]}
        value={[dayOf(start, live), dayOf(end, live)]}
        onChange={(dates) => write(dates as [Dayjs | null, Dayjs | null] | null)}
        style={{ width: '100%' }}
      />
    </FilterFrame>
  );
}
