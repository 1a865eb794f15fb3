// What a kind hands WidgetView when clicked (issue 23 §3–§5): the clicked item's fields — its row as the data
// source gave it, its mapped props, and name / series / value where the kind has them. No HTTP, no navigation.
import type { KeyboardEvent } from 'react';
import type { ClickItem } from '../../common/interaction';
import type { MappedData } from '../types';

/** The i-th row's fields: its mapped props, then its own fields as the data source named them. */
export function rowItem(data: MappedData, index: number, extra: Record<string, unknown> = {}): ClickItem {
  return { ...extra, ...(data.rows[index] ?? {}), ...(data.source?.[index] ?? {}) };
}

/** What an ECharts click event carries that we read. */
export interface ChartClickParams {
  componentType?: string;
  name?: string;
  seriesName?: string;
  value?: unknown;
  dataIndex?: number;
  /** a graph's (sankey's) clicked part: 'node' or 'edge' */
  dataType?: string;
  /** the clicked item as given to the series (a sankey link: { source, target, value }) */
  data?: unknown;
}

/** How a kind reads its click: chartClickItem unless its items are not its rows (a sankey, a radar). */
export type ClickReader = (p: ChartClickParams, data: MappedData) => ClickItem;

const text = (v: unknown) => (v == null ? '' : String(v));

/**
 * A chart's clicked item: name (category or item name), series, value, and the row it was drawn from when one
 * is found — by the category / name (charts may reverse or sort their items), else by the data index.
 */
export function chartClickItem(p: ChartClickParams, data: MappedData): ClickItem {
  const name = text(p.name);
  const value = Array.isArray(p.value) ? p.value[p.value.length - 1] : p.value;
  const base = { name, series: text(p.seriesName), value };
  const rowName = (i: number) => text(data.rows[i]?.x ?? data.rows[i]?.name);
  let at = typeof p.dataIndex === 'number' && p.dataIndex >= 0 && p.dataIndex < data.rows.length ? p.dataIndex : -1;
  if (name && (at < 0 || rowName(at) !== name)) {
    const found = data.rows.findIndex((_, i) => rowName(i) === name);
    if (found >= 0) at = found;
  }
  return at >= 0 ? rowItem(data, at, base) : base;
}

/**
 * Props that make an element clickable (focusable, Enter / Space; WidgetView.css gives it the pointer), or none without a handler; its role
 * becomes button unless it keeps its own (a table row).
 */
export function clickable(onClick: (() => void) | undefined, ownRole = false) {
  if (!onClick) return {};
  return {
    ...(ownRole ? {} : { role: 'button' as const }),
    'data-clickable': 'true',
    tabIndex: 0,
    onClick,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onClick();
      }
    },
  };
}

/**
 * A sankey's clicked part: a node by its name (and its total), a link by its ends (`source`, `target`) and value,
 * named 甲 → 乙. Links are the rows of each pair added up, so neither is one row of the data.
 */
export const flowClickItem: ClickReader = (p) => {
  if (p.dataType === 'edge') {
    const link = (p.data ?? {}) as { source?: unknown; target?: unknown; value?: unknown };
    return { name: `${text(link.source)} → ${text(link.target)}`, source: text(link.source), target: text(link.target), value: link.value };
  }
  return { name: text(p.name), value: p.value };
};

/** A radar's clicked outline: one per mapped series drawn over every row, so the item is the outline, not a row. */
export const outlineClickItem: ClickReader = (p) => ({ name: text(p.name), series: text(p.name) });
