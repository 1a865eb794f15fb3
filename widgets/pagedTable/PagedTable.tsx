import { useState } from 'react';
import { SCREEN_FONT } from '../theme';
import { fitText } from '../scrollTable/fitText';
import type { WidgetKindProps } from '../types';
import { clickable, rowItem } from '../data/click';
import type { ViewPropsOf } from '../viewPropTypes';

/** Columns are the data mapping (label = header), `pageSize` rows a page, a pager below: 上一页 · n / m · 下一页. */
export function PagedTable({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'pagedTable'>>) {
  const columns = data.mapping;
  const rows = data.rows;
  const size = Math.max(1, v.pageSize);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const [wanted, setPage] = useState(0);
  // new data (an API refresh) may have fewer pages: stay on the last one
  const page = Math.min(wanted, pages - 1);
  const shown = rows.slice(page * size, page * size + size);

  const template = `${v.showIndex ? `${INDEX_WIDTH}px ` : ''}repeat(${Math.max(columns.length, 1)}, minmax(0, 1fr))`;
  // no clip per cell (as the scrolling table): the text is cut to the column's width, the whole text is its title
  const room = (v.width - (v.showIndex ? INDEX_WIDTH : 0)) / Math.max(columns.length, 1) - 2 * PADDING - 1;
  const font = `${v.fontSize}px ${SCREEN_FONT}`;
  const fit = (text: string, bold = false) => {
    const cut = fitText(text, room, bold ? `600 ${font}` : font);
    return { children: cut, title: cut === text ? undefined : text };
  };
  const cell = { padding: `0 ${PADDING}px`, whiteSpace: 'nowrap' } as const;
  const line = { display: 'grid', gridTemplateColumns: template, alignItems: 'center', height: v.rowHeight } as const;
  const pagerButton = (label: string, to: number, disabled: boolean) => (
    <button
      type="button"
      disabled={disabled}
      onClick={() => setPage(to)}
      style={{
        font: 'inherit',
        color: v.pagerColor,
        background: 'transparent',
        // a disabled button says so by its dashed border and cursor; its text stays readable (≥ 4.5:1)
        border: `1px ${disabled ? 'dashed' : 'solid'} ${v.pagerColor}`,
        borderRadius: 3,
        padding: '0 10px',
        height: Math.min(26, PAGER_HEIGHT - 8),
        cursor: disabled ? 'default' : 'pointer',
        opacity: disabled ? 0.8 : 1,
      }}
    >
      {label}
    </button>
  );

  return (
    <div data-widget="pagedTable" style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden', fontFamily: SCREEN_FONT, fontSize: v.fontSize, color: v.color }}>
      <div role="table" aria-rowcount={rows.length + 1} style={{ flex: '1 1 auto', minHeight: 0, overflow: 'hidden' }}>
        <div role="row" style={{ ...line, background: v.headerBackground, color: v.headerColor, fontWeight: 600 }}>
          {v.showIndex && <div role="columnheader" style={cell}>序号</div>}
          {columns.map((c) => (
            <div role="columnheader" key={c.id} style={cell} {...fit(c.label, true)} />
          ))}
        </div>
        {shown.map((row, i) => {
          const index = page * size + i;
          return (
            <div
              role="row"
              key={index}
              aria-rowindex={index + 2}
              {...clickable(onItemClick && (() => onItemClick(rowItem(data, index))), true)}
              style={{ ...line, background: i % 2 === 0 ? v.oddRowBackground : v.evenRowBackground }}
            >
              {v.showIndex && <div role="cell" style={cell}>{index + 1}</div>}
              {columns.map((c) => (
                <div role="cell" key={c.id} style={cell} {...fit(formatCell(row[c.prop]))} />
              ))}
            </div>
          );
        })}
        {rows.length === 0 && <div style={{ padding: 12, opacity: 0.6 }}>暂无数据</div>}
      </div>
      <nav aria-label="分页" style={{ flex: `0 0 ${PAGER_HEIGHT}px`, display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 10, padding: '0 8px', color: v.pagerColor, fontSize: Math.min(v.fontSize, 14) }}>
        <span>共 {rows.length} 条</span>
        {pagerButton('上一页', page - 1, page === 0)}
        <span aria-live="polite">
          {page + 1} / {pages}
        </span>
        {pagerButton('下一页', page + 1, page >= pages - 1)}
      </nav>
    </div>
  );
}

const INDEX_WIDTH = 48;
const PADDING = 8;
const PAGER_HEIGHT = 40;

function formatCell(value: unknown): string {
  if (value == null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
