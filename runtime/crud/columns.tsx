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
  live: RefObject<LiveActions>;
}

export function useTableColumns({ page, declColumns, dicts, sort, filters, pageNum, pageSize, narrow, live }: ColumnInputs): TableColumnsType<Row> {
  return useMemo<TableColumnsType<Row>>(() => {
    const out: TableColumnsType<Row> = [];
    for (const c of declColumns) {
      if (c.type === 'selection') continue; // rendered by rowSelection
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
      } else if (c.filter === 'remote' && c.filterApi) {
        Object.assign(col, { filterDropdown: (p: FilterDropdownProps) => <RemoteFilter {...p} api={c.filterApi!} />, filteredValue: filters[filterKey] ?? null });
      }
      out.push(col);
    }
    return out;
    // `live` is a ref (one object for the table's life): its current value is read when a button is clicked
  }, [page, declColumns, dicts, sort, filters, pageNum, pageSize, narrow, live]);
}
