import { useState } from 'react';
import { SCREEN_FONT } from '../theme';
import { useSharedInterval } from '../timing/sharedInterval';
import { fitText } from './fitText';
import type { WidgetKindProps } from '../types';
import { clickable, rowItem } from '../data/click';
import type { ViewPropsOf } from '../viewPropTypes';

/** Columns are the data mapping (label = header); rows move up one at a time when they overflow. */
export function ScrollTable({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'scrollTable'>>) {
  const columns = data.mapping;
  const rows = data.rows;
  const visible = Math.max(1, Math.floor((v.height - v.rowHeight) / v.rowHeight));
  const scrolls = rows.length > visible;
  const [offset, setOffset] = useState(0);

  useSharedInterval(() => setOffset((o) => (o + 1) % rows.length), Math.max(v.interval, 500), scrolls);

  const start = scrolls ? offset % rows.length : 0;
  const shown = Array.from({ length: Math.min(visible, rows.length) }, (_, i) => (start + i) % rows.length);
  const template = `${v.showIndex ? `${INDEX_WIDTH}px ` : ''}repeat(${Math.max(columns.length, 1)}, minmax(0, 1fr))`;
  // no clip per cell (see fitText): the text is cut to the column's width, the whole text is the cell's title
  const room = (v.width - (v.showIndex ? INDEX_WIDTH : 0)) / Math.max(columns.length, 1) - 2 * PADDING - 1;
  const font = `${v.fontSize}px ${SCREEN_FONT}`;
  const fit = (text: string, bold = false) => {
    const shown = fitText(text, room, bold ? `600 ${font}` : font);
    return { children: shown, title: shown === text ? undefined : text };
  };
  const cell = { padding: `0 ${PADDING}px`, whiteSpace: 'nowrap' } as const;
  const line = { display: 'grid', gridTemplateColumns: template, alignItems: 'center', height: v.rowHeight } as const;

  return (
    <div data-widget="scrollTable" role="table" style={{ width: '100%', height: '100%', overflow: 'hidden', fontFamily: SCREEN_FONT, fontSize: v.fontSize, color: v.color }}>
      <div role="row" style={{ ...line, background: v.headerBackground, color: v.headerColor, fontWeight: 600 }}>
        {v.showIndex && <div role="columnheader" style={cell}>序号</div>}
        {columns.map((c) => (
          <div role="columnheader" key={c.id} style={cell} {...fit(c.label, true)} />
        ))}
      </div>
      {shown.map((rowIndex, i) => (
        <div
          role="row"
          key={`${rowIndex}`}
          {...clickable(onItemClick && (() => onItemClick(rowItem(data, rowIndex))), true)}
          style={{ ...line, background: i % 2 === 0 ? v.oddRowBackground : v.evenRowBackground }}
        >
          {v.showIndex && <div role="cell" style={cell}>{rowIndex + 1}</div>}
          {columns.map((c) => (
            <div role="cell" key={c.id} style={cell} {...fit(formatCell(rows[rowIndex]?.[c.prop]))} />
          ))}
        </div>
      ))}
      {rows.length === 0 && <div style={{ padding: 12, opacity: 0.6 }}>暂无数据</div>}
    </div>
  );
}

const INDEX_WIDTH = 48;
const PADDING = 8;

function formatCell(value: unknown): string {
  if (value == null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
