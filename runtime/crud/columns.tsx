// The table's columns from the declaration: index, row actions, and data columns (cells, links, sorting,
// dictionary and remote filters); and the dictionaries those columns read.
import { useMemo, type RefObject } from 'react';
import type { TableColumnsType } from 'antd';
import type { FilterDropdownProps, FilterValue } from 'antd/es/table/interface';
import type { ActionDecl, ColumnDecl, PageDeclaration, Row } from './types';
import { useCrudServices, type DictItem } from './services';
import { renderCell } from './cells';
import { fill } from './template';
import { safeHref } from '../core/urls';
import { RemoteFilter } from './RemoteFilter';
import { RowActions } from './RowActions';
import { SwitchCell } from './SwitchCell';
import type { SortState } from './sort';
import { actionLabel } from './actions';
import { IMAGE_SIZE } from './RemoteImage';

/** Pixels per Chinese character at the table's font size (14 px), and a cell's padding with its border. */
const CHAR = 14;
const PAD = 34;
/** Widths by what a cell shows, for columns that declare none (a virtual table needs every column's width). */
const FORMAT_WIDTH: Record<string, number> = { datetime: 170, date: 110, yesno: 80, password: 100, filesize: 100, version: 90, userAccount: 130 };

/** A text's width in px: a CJK character is one `CHAR`, a Latin one about half. */
const textWidth = (t: string | undefined) => [...(t ?? '')].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? CHAR : CHAR * 0.6), 0);

/**
 * A column's width when the table is virtual: the declared one, else one by format or kind, never narrower
 * than its title (with room for the sort and filter icons).
 */
export function columnWidth(c: ColumnDecl, rowActions: ActionDecl[] | undefined): number {
  if (c.width) return c.width;
  const title = textWidth(c.title) + PAD + (c.sortable ? 20 : 0) + (c.filter ? 24 : 0);
  let body: number;
  if (c.type === 'index') body = 60;
  else if (c.type === 'actions') body = (rowActions ?? []).reduce((w, a) => w + textWidth(actionLabel(a)) + 16, 0) + 24;
  else if (c.type === 'switch') body = 80;
  else if (c.type === 'image') body = (c.imageWidth ?? IMAGE_SIZE) + 4 + PAD;
  else if (c.type === 'rows') body = 100;
  else if (c.tags) body = 200;
  else if (c.dict) body = 110;
  else if (c.format) body = FORMAT_WIDTH[c.format] ?? 140;
  else body = 140;
  return Math.ceil(Math.max(body, title));
}

/** Dictionaries used by the columns, read once per table (the declaration is fixed while mounted). */
export function useColumnDicts(columns: ColumnDecl[]): Record<string, DictItem[]> {
  const services = useCrudServices();
  const types = [...new Set(columns.flatMap((c) => (c.dict ? [c.dict] : c.format === 'yesno' ? ['YES_OR_NO'] : [])))];
  const lists: DictItem[][] = [];
  // stable length per mounted declaration: CrudPage remounts when the declaration changes
  for (const t of types) lists.push(services.useDict(t));
  // one stable object while the lists are unchanged, so the columns are not rebuilt on every render
  const key = types.join('|');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => Object.fromEntries(types.map((t, i) => [t, lists[i]])), [key, ...lists]);
}

/** What the row actions call; read through a ref so the columns survive data and selection changes. */
export interface LiveActions {
  run: (a: ActionDecl, row?: Row) => Promise<void>;
  can: (a: ActionDecl) => boolean;
  reload: () => void;
}

interface ColumnInputs {
  page: PageDeclaration;
  declColumns: ColumnDecl[];
  dicts: Record<string, DictItem[]>;
  sort: SortState;
  filters: Record<string, FilterValue | null>;
  pageNum: number;
  pageSize: number;
  /** on a phone the actions column is not fixed */
  narrow: boolean;
  /** a virtual table: every column gets a width (`columnWidth`) */
  virtual?: boolean;
  live: RefObject<LiveActions>;
}

export function useTableColumns({ page, declColumns, dicts, sort, filters, pageNum, pageSize, narrow, virtual, live }: ColumnInputs): TableColumnsType<Row> {
  return useMemo<TableColumnsType<Row>>(() => {
    const out: TableColumnsType<Row> = [];
    for (const decl of declColumns) {
      if (decl.type === 'selection') continue; // rendered by rowSelection
      // a virtual table lays its rows out by the columns' widths: each has one
      const c = virtual ? { ...decl, width: columnWidth(decl, page.rowActions) } : decl;
      if (c.type === 'index') {
        out.push({ key: '__index', title: c.title, width: c.width ?? 60, align: 'center', fixed: narrow ? undefined : c.fixed, render: (_v, _r, i) => (pageNum - 1) * pageSize + i + 1 });
        continue;
      }
      if (c.type === 'actions') {
        out.push({
          // on a phone a fixed column would cover most of the row: it scrolls with the others there
          key: '__actions', title: c.title, width: c.width, fixed: narrow ? undefined : (c.fixed ?? 'right'),
          render: (_v, row) => <RowActions actions={page.rowActions} row={row} can={(a) => live.current!.can(a)} run={(a, r) => void live.current!.run(a, r)} />,
        });
        continue;
      }
      if (c.type === 'switch') {
        out.push({
          key: c.field, dataIndex: c.field, title: c.title, width: c.width, align: 'center',
          render: (_v, row) => <SwitchCell col={c} row={row} rowKey={page.rowKey ?? 'id'} reload={() => live.current!.reload()} />,
        });
        continue;
      }
      const field = c.field ?? '';
      const filterKey = c.filterField ?? field;
      // only the keys a column needs: antd treats a present-but-undefined filter/sort key as "managed"
      const col: TableColumnsType<Row>[number] = {
        key: field,
        dataIndex: field,
        title: c.title,
        width: c.width,
        render: c.link
          ? (v: unknown, row: Row) => {
              // an address built from data is a link only when it cannot run code (see core/urls)
              const href = safeHref(fill(c.link!, row));
              return href ? (
                <a href={href} target="_blank" rel="noreferrer">
                  {renderCell(c, v, row, dicts)}
                </a>
              ) : (
                renderCell(c, v, row, dicts)
              );
            }
          : (v: unknown, row: Row) => renderCell(c, v, row, dicts),
      };
      if (c.ellipsis) col.ellipsis = { showTitle: true };
      // a declared fixed column (page editor: 固定) scrolls with the others on a phone, like the actions column
      if (c.fixed && !narrow) col.fixed = c.fixed;
      if (c.sortable) Object.assign(col, { sorter: true, sortDirections: ['ascend', 'descend'], sortOrder: sort.field === field ? sort.order : null });
      if (c.filter === 'dict' && c.dict) {
        Object.assign(col, { filters: (dicts[c.dict] ?? []).map((d) => ({ text: d.label, value: d.value })), filterMultiple: true, filteredValue: filters[filterKey] ?? null });
      } else if (c.filter === 'options' && c.options) {
        Object.assign(col, { filters: c.options.map((o) => ({ text: o.label, value: o.value })), filterMultiple: true, filteredValue: filters[filterKey] ?? null });
      } else if (c.filter === 'remote' && c.filterApi) {
        Object.assign(col, { filterDropdown: (p: FilterDropdownProps) => <RemoteFilter {...p} api={c.filterApi!} />, filteredValue: filters[filterKey] ?? null });
      }
      out.push(col);
    }
    return out;
    // `live` is a ref (one object for the table's life): its current value is read when a button is clicked
  }, [page, declColumns, dicts, sort, filters, pageNum, pageSize, narrow, virtual, live]);
}
