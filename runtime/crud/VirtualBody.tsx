// The body of a large page (more than VIRTUAL_ABOVE rows): only the rows in view (and a few either side) are in
// the DOM, each at its place in a scrolled box of the full height. It is antd's table with its own header, sorting,
// filters, selection box and pager; only the body is this (rc-table's `components.body` as a function).
//
// Why not antd's `virtual`: its list renders every visible row, with all its cells, again on every scrolled frame
// (a new position style per offset), so a frame at 30 columns cost ~30 ms of script on this machine
// (bench/list-render). Here the browser scrolls the box itself, a row keeps its place (index × row height) and is
// memoised, so a scrolled frame renders only the rows coming into view.
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Checkbox, theme } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Row } from './types';
import './virtualBody.css';

type Column = TableColumnsType<Row>[number] & { dataIndex?: string; width?: number };

/** What rc-table hands a body given as a function. */
export interface BodyInfo {
  scrollbarSize: number;
  ref: React.Ref<{ scrollLeft: number }>;
  onScroll: (info: { currentTarget?: HTMLElement; scrollLeft?: number }) => void;
}

export interface VirtualBodyProps {
  /** the table's columns (each with a numeric width), without the selection column */
  columns: TableColumnsType<Row>;
  rowKey: string;
  /** the selection column, when the page has one: its width and the selected keys */
  selection?: { width: number; keys: React.Key[]; onChange: (keys: React.Key[]) => void };
  /** the box's height in px */
  height: number;
  /** shown when there are no rows */
  empty: ReactNode;
  /** told the box's width as it changes (the columns are widened to fill it: see `fillWidth`) */
  onWidth?: (px: number) => void;
}

/**
 * Columns widened in proportion so that together (with `reserved`, the selection column) they fill `avail` px:
 * the header is a fixed-layout table at least as wide as the box, and the body's cells must have its widths.
 */
export function fillWidth<C extends { width?: number | string }>(columns: C[], reserved: number, avail: number): C[] {
  const widths = columns.map((c) => (typeof c.width === 'number' ? c.width : 0));
  const sum = widths.reduce((a, b) => a + b, 0);
  const room = avail - reserved - sum;
  if (room <= 0 || sum <= 0) return columns;
  let given = 0;
  const out = columns.map((c, i) => {
    const add = Math.floor((room * widths[i]) / sum);
    given += add;
    return { ...c, width: widths[i] + add };
  });
  // the pixels lost to rounding go to the widest column
  const widest = widths.indexOf(Math.max(...widths));
  out[widest] = { ...out[widest], width: (out[widest].width as number) + room - given };
  return out;
}

/** A row at the table's `middle` size: 12 px padding above and below a 22 px line, and the bottom border. */
const MIN_ROW = 47;
/** Rows drawn beyond the box's edges, so a quick scroll does not show a blank before React catches up. */
const OVERSCAN = 6;

/** One laid-out cell: its column, left/right sticky offset for a fixed column, and its classes. */
interface CellLayout {
  col: Column | 'selection';
  width: number;
  className: string;
  style: React.CSSProperties;
}

/** The cells' widths and fixed offsets, as rc-table lays out the header (the last column less the scrollbar). */
function layout(columns: Column[], selection: VirtualBodyProps['selection'], scrollbar: number): CellLayout[] {
  const cols: Array<Column | 'selection'> = [...(selection ? ['selection' as const] : []), ...columns];
  const widths = cols.map((c, i) => {
    const w = c === 'selection' ? selection!.width : (c.width ?? 100);
    return i === cols.length - 1 ? w - scrollbar : w;
  });
  const fixedOf = (c: Column | 'selection') => (c === 'selection' ? (columns[0]?.fixed === 'left' || columns[0]?.fixed === true ? 'left' : undefined) : c.fixed === true ? 'left' : c.fixed);
  const fixed = cols.map(fixedOf);
  const out: CellLayout[] = [];
  let left = 0;
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i];
    const classes = ['ant-table-cell'];
    const style: React.CSSProperties = { width: widths[i], flex: `0 0 ${widths[i]}px` };
    if (c !== 'selection' && c.align) style.justifyContent = c.align === 'center' ? 'center' : c.align === 'right' ? 'flex-end' : undefined;
    if (c === 'selection') classes.push('ant-table-selection-column');
    if (fixed[i] === 'left') {
      classes.push('ant-table-cell-fix-left');
      if (fixed[i + 1] !== 'left') classes.push('ant-table-cell-fix-left-last');
      style.left = left;
    }
    if (fixed[i] === 'right') {
      classes.push('ant-table-cell-fix-right');
      if (fixed[i - 1] !== 'right') classes.push('ant-table-cell-fix-right-first');
      style.right = widths.slice(i + 1).reduce((a, b) => a + b, 0);
    }
    left += widths[i];
    out.push({ col: c, width: widths[i], className: classes.join(' '), style });
  }
  return out;
}

/** A cell's content: the column's render, else the value. */
function content(col: Column, row: Row, index: number): ReactNode {
  const value = col.dataIndex ? row[col.dataIndex] : undefined;
  // the list's columns (columns.tsx) render content only, never rc-table's { children, props }
  if (col.render) return col.render(value, row, index) as ReactNode;
  return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

interface RowProps {
  row: Row;
  rowKey: React.Key;
  index: number;
  top: number;
  height: number;
  cells: CellLayout[];
  selected: boolean;
  onSelect?: (key: React.Key, on: boolean) => void;
}

/** One row: rendered when it comes into view, then left alone while the box scrolls (memo: its props stay). */
const VirtualRow = memo(function VirtualRow({ row, rowKey, index, top, height, cells, selected, onSelect }: RowProps) {
  return (
    <div
      className={`ant-table-row ant-table-row-level-0${selected ? ' ant-table-row-selected' : ''}`}
      data-row-key={String(rowKey)}
      style={{ position: 'absolute', top, height }}
    >
      {cells.map((c, i) => {
        if (c.col === 'selection') {
          return (
            <div key="__selection" className={c.className} style={c.style}>
              <Checkbox checked={selected} onChange={(e) => onSelect?.(rowKey, e.target.checked)} aria-label="选择" />
            </div>
          );
        }
        const col = c.col;
        const body = content(col, row, index);
        const title = col.ellipsis && (typeof body === 'string' || typeof body === 'number') ? String(body) : undefined;
        return (
          <div key={String(col.key ?? i)} className={c.className} style={c.style} title={title}>
            <div className="crud-vbody-cell">{body}</div>
          </div>
        );
      })}
    </div>
  );
});

function VirtualRows({ data, info, props }: { data: readonly Row[]; info: BodyInfo; props: VirtualBodyProps }) {
  const { columns, rowKey, selection, height, empty, onWidth } = props;
  const { token } = theme.useToken();
  const [rowHeight, setRowHeight] = useState(MIN_ROW);
  const [first, setFirst] = useState(0);
  const holder = useRef<HTMLDivElement | null>(null);
  const lastLeft = useRef(0);
  const selWidth = selection?.width;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const cells = useMemo(() => layout(columns as Column[], selection, info.scrollbarSize), [columns, selWidth, info.scrollbarSize]);
  const total = cells.reduce((w, c) => w + c.width, 0);

  const setRef = useCallback(
    (el: HTMLDivElement | null) => {
      holder.current = el;
      const r = info.ref;
      if (typeof r === 'function') r(el);
      else if (r) (r as React.MutableRefObject<unknown>).current = el;
    },
    [info.ref],
  );

  // the box's width, for the columns to fill it
  useLayoutEffect(() => {
    const el = holder.current;
    if (!el || !onWidth) return;
    onWidth(el.offsetWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => onWidth(el.offsetWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [onWidth]);

  // only a change of the first row in view renders: the rows already drawn keep their props
  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    const next = Math.floor(el.scrollTop / rowHeight);
    if (next !== first) setFirst(next);
    if (el.scrollLeft !== lastLeft.current) {
      lastLeft.current = el.scrollLeft;
      info.onScroll({ currentTarget: el, scrollLeft: el.scrollLeft });
    }
  };

  // a row's height is the tallest cell's (an image, a button): measured on the rows drawn when the data changes
  useLayoutEffect(() => {
    const el = holder.current;
    if (!el) return;
    const inner = el.querySelectorAll<HTMLElement>('.crud-vbody-cell');
    if (!inner.length) return;
    // every cell has the same padding and border: read them once
    const cs = getComputedStyle(inner[0].parentElement!);
    const frame = parseFloat(cs.paddingTop || '0') + parseFloat(cs.paddingBottom || '0') + parseFloat(cs.borderBottomWidth || '0');
    let tallest = 0;
    for (const cell of inner) tallest = Math.max(tallest, cell.offsetHeight);
    const need = Math.max(rowHeight, Math.ceil(tallest + frame));
    if (need !== rowHeight) setRowHeight(need);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, columns]);

  const selectedSet = useMemo(() => new Set(selection?.keys ?? []), [selection?.keys]);
  // one handler for the table's life (the rows stay memoised); it reads the latest selection
  const latest = useRef(selection);
  latest.current = selection;
  const onSelect = useCallback((key: React.Key, on: boolean) => {
    const s = latest.current;
    if (!s) return;
    s.onChange(on ? [...s.keys, key] : s.keys.filter((k) => k !== key));
  }, []);

  const from = Math.max(0, first - OVERSCAN);
  const to = Math.min(data.length, first + Math.ceil(height / rowHeight) + OVERSCAN);
  const drawn: ReactNode[] = [];
  for (let i = from; i < to; i++) {
    const row = data[i];
    const key = row[rowKey] as React.Key;
    drawn.push(
      <VirtualRow key={String(key)} row={row} rowKey={key} index={i} top={i * rowHeight} height={rowHeight} cells={cells}
        selected={selectedSet.has(key)} onSelect={selection ? onSelect : undefined} />,
    );
  }
  const vars = { '--crud-row-hover': token.colorFillAlter, '--crud-cell-bg': token.colorBgContainer, '--crud-row-selected-hover': token.controlItemBgActiveHover } as React.CSSProperties;
  return (
    <div className="ant-table-tbody-virtual crud-vbody" style={{ position: 'relative', ...vars }}>
      <div ref={setRef} className="ant-table-tbody-virtual-holder" style={{ maxHeight: height, overflow: 'scroll' }} onScroll={onScroll}>
        {data.length ? (
          <div className="ant-table-tbody-virtual-holder-inner ant-table-tbody" style={{ position: 'relative', height: data.length * rowHeight, width: total }}>
            {drawn}
          </div>
        ) : (
          <div className="crud-vbody-empty">{empty}</div>
        )}
      </div>
    </div>
  );
}

/** rc-table's `components.body` for a large page: a function of the rows that renders the virtual body. */
export function virtualBody(props: VirtualBodyProps) {
  return (data: readonly Row[], info: BodyInfo) => <VirtualRows data={data} info={info} props={props} />;
}
