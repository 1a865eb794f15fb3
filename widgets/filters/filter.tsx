// What the filter kinds share (issue 23 §2; the folders filterSelect, filterButtons, filterDate, filterDateRange,
// filterSearch, filterReset). A filter writes one screen variable named by its view prop `variable`
// (filterDateRange: `variable` and `endVariable`); its options come from its data source like any kind's rows
// (mapping props `label` and `value`), STATIC or from an API whose request parameters may bind other variables
// (cascading: the city list follows {{province}}). Live only where the host provides a screen's variables (the
// preview); on the designer's canvas a filter is drawn as it will look and takes no input.
import { useContext, useEffect, useMemo, type CSSProperties, type ReactNode } from 'react';
import { ConfigProvider, theme as antdTheme } from 'antd';
import { coerceValue, isEmptyValue, type VariableValue } from '../../common/variables';
import type { WidgetData } from '../data/useWidgetData';
import { NO_VARIABLES, useVariable, useVariableStore } from '../data/variables';
import { useFieldFilters, useFieldFilterStore, WidgetSelfContext } from '../data/fieldFilters';
import type { MappedData } from '../types';
import './filter.css';

export interface FilterOption {
  label: string;
  value: string;
}

/** The look every filter declares (its view props). */
export interface FilterLook {
  label: string;
  labelColor: string;
  textColor: string;
  backgroundColor: string;
  borderColor: string;
  accentColor: string;
  fontSize: number;
}

/** Whether the filters take input here: the host gives a screen's variables (the preview), not the designer. */
export function useFiltersLive(): boolean {
  return useVariableStore() !== NO_VARIABLES;
}

/**
 * A variable as a filter reads and writes it: its value, and a setter that first makes the choice a value of
 * the variable's declared type (a choice '3' of a number variable is 3, so an integer parameter takes it; a
 * choice that is no value of the type, or a list for a text variable, is none).
 */
export function useFilterVariable(name: string | undefined): [VariableValue, (raw: string | string[] | null) => void] {
  const store = useVariableStore();
  const [value, set] = useVariable(name || undefined);
  const type = store.declared.find((d) => d.name === name)?.type;
  const write = (raw: string | string[] | null) => {
    if (!name) return;
    if (raw === null || !type) return set(raw);
    let v = coerceValue(type, type !== 'list' && Array.isArray(raw) ? raw.join(',') : raw);
    if (type === 'string' && Array.isArray(raw)) v = raw.join(',');
    set(v === undefined ? null : v);
  };
  return [value, write];
}

/**
 * A filter's value, wherever it is kept: a filter whose options come from a dataset (its value slot names a dataset
 * field) filters every dataset chart with that field through the screen's field filters (issue 35 §3), no variable
 * needed; any other filter writes its variable.
 */
export function useFilterValue(name: string | undefined, data: MappedData): [VariableValue, (raw: string | string[] | null) => void] {
  const byVariable = useFilterVariable(name);
  const field = data.mapping?.find((m) => m.prop === 'value' && m.datasetField)?.datasetField ?? data.mapping?.find((m) => m.prop === 'label' && m.datasetField)?.datasetField;
  const store = useFieldFilterStore();
  const self = useContext(WidgetSelfContext);
  const filters = useFieldFilters(undefined, Boolean(field));
  if (!field || !store) return byVariable;
  const v = filters[field];
  const value = (v === undefined ? null : Array.isArray(v) ? v.map(String) : String(v)) as VariableValue;
  return [value, (raw) => store.set(field, raw, self)];
}

/** A value as the controls hold it: text, a list of texts, or undefined for none. */
export function asText(v: VariableValue): string | undefined {
  return isEmptyValue(v) ? undefined : Array.isArray(v) ? v.join(',') : String(v);
}
export function asList(v: VariableValue): string[] {
  if (isEmptyValue(v)) return [];
  return Array.isArray(v) ? v : String(v).split(',');
}

/** The options of a filter: its rows by mapping props label and value (a row without a value is left out). */
export function useOptions(data: MappedData): FilterOption[] {
  return useMemo(() => {
    const seen = new Set<string>();
    const out: FilterOption[] = [];
    for (const r of data.rows) {
      const raw = r.value ?? r.label;
      if (raw === null || raw === undefined || raw === '') continue;
      const value = String(raw);
      if (seen.has(value)) continue;
      seen.add(value);
      out.push({ value, label: r.label === null || r.label === undefined || r.label === '' ? value : String(r.label) });
    }
    return out;
  }, [data.rows]);
}

/**
 * Cascading: once the options have arrived (not while new ones load, not after a failed call), a chosen value
 * no longer among them is cleared, and a list keeps only the items still offered. So a city chosen under one
 * province is dropped when the province changes, and what is bound to the city fetches again without it.
 */
export function useClearWhenGone(live: boolean, value: VariableValue, options: FilterOption[], data: MappedData, write: (raw: string | string[] | null) => void): void {
  const { loading, notice } = data as Partial<WidgetData>;
  const settled = live && !loading && !notice;
  const key = options.map((o) => o.value).join('\u0000');
  useEffect(() => {
    if (!settled || isEmptyValue(value)) return;
    const offered = new Set(key ? key.split('\u0000') : []);
    const chosen = asList(value);
    const kept = chosen.filter((x) => offered.has(x));
    if (kept.length === chosen.length) return;
    write(Array.isArray(value) ? kept : null);
    // write is a new function each render; what matters is the options and the value
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled, key, JSON.stringify(value)]);
}

/**
 * A filter's frame: its optional label beside the control, antd in a dark look made of the filter's colours,
 * and on the designer's canvas no pointer input (the canvas selects and drags the widget instead).
 */
export function FilterFrame({ widget, look, live, children, vertical }: { widget: string; look: FilterLook; live: boolean; children: ReactNode; vertical?: boolean }) {
  const themeConfig = useMemo(
    () => ({
      algorithm: antdTheme.darkAlgorithm,
      token: {
        colorPrimary: look.accentColor,
        colorText: look.textColor,
        colorTextPlaceholder: look.textColor,
        colorBgContainer: look.backgroundColor,
        colorBgElevated: '#0f1f3a',
        colorBorder: look.borderColor,
        fontSize: look.fontSize,
        controlHeight: Math.max(24, Math.round(look.fontSize * 2.2)),
      },
    }),
    [look.accentColor, look.textColor, look.backgroundColor, look.borderColor, look.fontSize],
  );
  const style: CSSProperties = {
    width: '100%',
    height: '100%',
    display: 'flex',
    flexDirection: vertical ? 'column' : 'row',
    alignItems: vertical ? 'stretch' : 'center',
    gap: 8,
    fontSize: look.fontSize,
    pointerEvents: live ? undefined : 'none',
    ['--filter-text' as string]: look.textColor,
  };
  return (
    <ConfigProvider theme={themeConfig}>
      <div data-widget={widget} className="dsc-filter" style={style} aria-disabled={live ? undefined : true}>
        {look.label && (
          <span className="dsc-filter-label" style={{ color: look.labelColor, flex: 'none', whiteSpace: 'nowrap' }}>
            {look.label}
          </span>
        )}
        <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
      </div>
    </ConfigProvider>
  );
}
