import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Drawer, Empty, message as antdMessage, Modal, Result, Spin, Table, Tooltip, Typography } from 'antd';
import type { TablePaginationConfig } from 'antd';
import type { FilterValue, SorterResult } from 'antd/es/table/interface';
import type { PageDeclaration, Row } from './types';
import { useCrudServices } from './services';
import { FeedbackContext, type Feedback } from './feedback';
import { sortToQuery, type SortState } from './sort';
import { useList } from './useList';
import { fillParams, missingRouteValues, routeValues } from './template';
import { useDynamicColumns } from './dynamicColumns';
import { useHeading } from './heading';
import { pageApi } from './actions';
import { SideTree } from './SideTree';
import { SearchBar, dayRange, type DayRange } from './SearchBar';
import { Toolbar } from './Toolbar';
import { useColumnDicts, useTableColumns, type LiveActions } from './columns';
import { actionRunner, type HistoryState, type SubListState } from './runAction';

// the 历史版本 drawer (action=history) loads with the first one opened: its diff library stays out of the list's chunk
const HistoryDrawer = lazy(() => import('../ui/history/HistoryDrawer').then((m) => ({ default: m.HistoryDrawer })));
import { builtinPages } from './declarations';
import { Dialogs, type DialogState } from './Dialogs';
import { SplitPane } from '../ui/SplitPane';
import { CHILDREN, nestRows, parentKeys } from './treeRows';
import { useNarrow } from '../ui/narrow';
import { fillWidth, virtualBody } from './VirtualBody';

// The page's parts, each a file by what it renders: SearchBar, Toolbar, the table's columns (columns.tsx, with
// RowActions), the dialogs (Dialogs.tsx, FormDialog / UploadDialog); what an action does is runAction.ts.
export { dayRange };

/** Pages larger than this are drawn as a virtual list (only the rows in view are in the DOM). */
export const VIRTUAL_ABOVE = 100;
/** The selection column's width in a virtual table (it needs every width). */
const SELECTION_WIDTH = 48;

/** The pager's total: exact, or the server's estimate said as one (a very large table). */
export function totalText(total: number, estimated: boolean): React.ReactNode {
  if (!estimated) return `共 ${total} 条`;
  return (
    <Tooltip title="数据量很大，总条数是数据库的估算值，末页的位置可能略有出入">
      <span data-testid="total-estimated">约 {total.toLocaleString('en-US')} 条（估算）</span>
    </Tooltip>
  );
}

/** The virtual table's body height: the window's height less the page's chrome, followed as it resizes. */
function useBodyHeight(): number {
  const read = () => (typeof window === 'undefined' ? 600 : Math.max(320, window.innerHeight - 320));
  const [h, setH] = useState(read);
  useEffect(() => {
    const on = () => setH(read());
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}

/**
 * The generic list page: search, table, sort, filters, paging, toolbar, row actions and dialogs. `params` (a
 * sub-list's, from the row that opened it) go into every list call and start every new record.
 */
export function CrudView({ page, params, virtual: virtualOverride }: {
  page: PageDeclaration;
  params?: Record<string, unknown>;
  /** virtual list or not, whatever the page size (the list benchmark compares both); default by page size */
  virtual?: boolean;
}) {
  const services = useCrudServices();
  const [messageApi, messageHolder] = antdMessage.useMessage();
  const [modalApi, modalHolder] = Modal.useModal();
  const feedback: Feedback = useMemo(() => ({ message: messageApi, modal: modalApi }), [messageApi, modalApi]);
  const api = pageApi(page);
  const rowKey = page.rowKey ?? 'id';
  const searchField = page.search?.field ?? 'search';
  const sizes = page.pageSizes ?? [10, 20, 50, 100];

  const [text, setText] = useState('');
  const [applied, setApplied] = useState('');
  const [pageNum, setPageNum] = useState(1);
  // a tree table is not paged: one call brings the rows (tree.pageSize, default the server's maximum 500)
  const [pageSize, setPageSize] = useState(page.tree ? (page.tree.pageSize ?? 500) : (page.pageSize ?? 10));
  // keyset paging: the server's hint for the page after the one shown, sent with that page's call only
  const [cursor, setCursor] = useState<{ page: number; value: string } | null>(null);
  const [sort, setSort] = useState<SortState>({ order: null });
  const [filters, setFilters] = useState<Record<string, FilterValue | null>>({});
  const [selected, setSelected] = useState<React.Key[]>([]);
  const [tick, setTick] = useState(0);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [subList, setSubList] = useState<SubListState | null>(null);
  const [history, setHistory] = useState<HistoryState | null>(null);
  const paramsKey = JSON.stringify(params ?? {});
  const [treeIds, setTreeIds] = useState<Array<string | number> | null>(null);
  const [range, setRange] = useState<DayRange>(null);
  const [appliedRange, setAppliedRange] = useState<[string, string] | null>(null);
  // `{{$query.name}}` in the declaration reads the page address (e.g. the form whose entries are listed)
  const route = routeValues();
  const routeKey = JSON.stringify(route);
  const missing = missingRouteValues(page.query, route);
  const declColumns = useDynamicColumns(page.columns, route);
  const heading = useHeading(page.heading, route);
  const dicts = useColumnDicts(declColumns);
  const onTreeSelect = useCallback((ids: Array<string | number> | null) => {
    setTreeIds((old) => (JSON.stringify(old) === JSON.stringify(ids) ? old : ids));
    setPageNum(1);
  }, []);

  const query = useMemo(() => {
    const q: Record<string, unknown> = { ...fillParams(page.query, JSON.parse(routeKey)), ...JSON.parse(paramsKey), pageNum, pageSize, ...sortToQuery(sort) };
    if (applied) q[searchField] = applied;
    const dr = page.search?.dateRange;
    if (dr && appliedRange) {
      q[dr.begin] = appliedRange[0];
      q[dr.end] = appliedRange[1];
    }
    for (const [k, v] of Object.entries(filters)) if (v && v.length) q[k] = v;
    if (page.sideTree && treeIds) q[page.sideTree.param] = treeIds;
    if (cursor && cursor.page === pageNum) q.after = cursor.value;
    return q;
  }, [page.query, routeKey, paramsKey, pageNum, pageSize, sort, applied, appliedRange, page.search?.dateRange, searchField, filters, page.sideTree, treeIds, cursor]);
  const list = useList(missing.length ? null : (api.search ?? null), query, tick);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  // after a write (a dialog's save, an action, an import) the side tree's counts are read again with the list
  const [changed, setChanged] = useState(0);
  const reloadChanged = useCallback(() => {
    setTick((t) => t + 1);
    setChanged((c) => c + 1);
  }, []);
  const tree = page.tree;
  const nested = useMemo(() => (tree ? nestRows(list.records, tree, rowKey) : list.records), [tree, list.records, rowKey]);
  const allParents = useMemo(() => (tree ? parentKeys(nested, rowKey) : []), [tree, nested, rowKey]);
  // null: as declared (tree.expand, default all); else the rows the user opened
  const [opened, setOpened] = useState<React.Key[] | null>(null);
  const expandedKeys = opened ?? (tree?.expand === 'none' ? [] : allParents);
  const toggleAll = () => setOpened(expandedKeys.length ? [] : allParents);

  const doSearch = () => { setApplied(text.trim()); setAppliedRange(dayRange(range)); setPageNum(1); reload(); };
  const doReset = () => { setText(''); setApplied(''); setRange(null); setAppliedRange(null); setFilters({}); setSort({ order: null }); setPageNum(1); reload(); };

  const { run: runDeclared, can } = actionRunner({
    page, services, message: messageApi, modal: modalApi, route, query, records: list.records, selected,
    clearSelection: () => setSelected([]), reload: reloadChanged, openDialog: setDialog, presetNew: params, openSubList: setSubList, openHistory: setHistory,
  });

  // a tree table's row is a copy carrying its children: actions get the row as the server answered it
  const run = (a: Parameters<typeof runDeclared>[0], row?: Row, extra?: Record<string, unknown>) => {
    if (!row || !(CHILDREN in row)) return runDeclared(a, row, extra);
    const { [CHILDREN]: _kids, ...own } = row;
    return runDeclared(a, own, extra);
  };

  // cells call the latest run/can through a ref, so the columns survive data and selection changes
  const live = useRef<LiveActions>({ run, can, reload });
  live.current = { run, can, reload };

  const narrow = useNarrow();
  // a large page (up to the server's 500 rows) is a virtual list; a tree table is not paged and stays as it is
  const virtual = !tree && (virtualOverride ?? pageSize > VIRTUAL_ABOVE);
  const bodyHeight = useBodyHeight();
  const declared = useTableColumns({ page, declColumns, dicts, sort, filters, pageNum, pageSize, narrow, virtual, live });
  const selectable = page.selectable || page.columns.some((c) => c.type === 'selection');
  // a virtual body's columns fill the box (the header would stretch them, the body's cells could not follow)
  const [boxWidth, setBoxWidth] = useState(0);
  const columns = useMemo(
    () => (virtual ? fillWidth(declared, selectable ? SELECTION_WIDTH : 0, boxWidth) : declared),
    [virtual, declared, selectable, boxWidth],
  );
  const scroll = useMemo(() => {
    if (!virtual) return { x: 'max-content' as const };
    const x = columns.reduce((w, c) => w + (typeof c.width === 'number' ? c.width : 0), selectable ? SELECTION_WIDTH : 0);
    return { x, y: bodyHeight };
  }, [virtual, columns, selectable, bodyHeight]);
  const selection = useMemo(
    () => (selectable ? { width: SELECTION_WIDTH, keys: selected, onChange: setSelected } : undefined),
    [selectable, selected],
  );

  const onTableChange = (p: TablePaginationConfig, f: Record<string, FilterValue | null>, s: SorterResult<Row> | SorterResult<Row>[]) => {
    const one = Array.isArray(s) ? s[0] : s;
    const next: SortState = one?.order ? { field: String(one.columnKey ?? one.field), order: one.order } : { order: null };
    const colFilters: Record<string, FilterValue | null> = {};
    for (const c of declColumns) {
      if (c.filter && c.field) colFilters[c.filterField ?? c.field] = f[c.field] ?? null;
    }
    const sizeChanged = p.pageSize !== undefined && p.pageSize !== pageSize;
    const filterChanged = JSON.stringify(colFilters) !== JSON.stringify(filters);
    const sortChanged = next.field !== sort.field || next.order !== sort.order;
    setSort(next);
    setFilters(colFilters);
    if (p.pageSize) setPageSize(p.pageSize);
    const nextPage = sizeChanged || filterChanged || sortChanged ? 1 : (p.current ?? 1);
    // one page on with the server's keyset hint: it may seek from there instead of skipping the rows before
    setCursor(nextPage === pageNum + 1 && list.next !== undefined ? { page: nextPage, value: list.next } : null);
    setPageNum(nextPage);
  };

  const tableLocale = useMemo(
    () => ({ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={list.error ? '加载失败' : '暂无数据'} /> }),
    [list.error],
  );
  const components = useMemo(
    () => (virtual ? { body: virtualBody({ columns, rowKey, selection, height: bodyHeight, empty: tableLocale.emptyText, onWidth: setBoxWidth }) } : undefined),
    [virtual, columns, rowKey, selection, bodyHeight, tableLocale],
  );
  const saveCall = dialog && dialog.mode !== 'edit' ? (api.add ?? api.save) : api.save;

  if (missing.length) return <Result status="warning" title="页面地址缺少参数" subTitle={`缺少：${missing.join('、')}，请从列表页的操作进入`} />;

  return (
    <FeedbackContext.Provider value={feedback}>
      {messageHolder}
      {modalHolder}
      {/* on a phone the side tree waits in a drawer (SplitPane) */}
      <SplitPane
        className="crud-layout"
        style={page.sideTree ? { display: 'flex', gap: 16, alignItems: 'flex-start' } : undefined}
        side={page.sideTree && <SideTree decl={page.sideTree} pageId={page.id ?? 'page'} onSelect={onTreeSelect} version={changed} />}
        sideTitle={page.sideTree?.title ?? '分类'}
        drawerWidth={(page.sideTree?.width ?? 240) + 48}
        selection={JSON.stringify(treeIds)}
      >
      <div className="crud-page" data-page={page.id} style={page.sideTree ? { flex: 1, minWidth: 0 } : undefined}>
        {(page.showTitle || page.heading) && <Typography.Title level={5} style={{ marginTop: 0 }} data-testid="page-heading">{heading ?? page.title}</Typography.Title>}
        <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}>
          <SearchBar search={page.search} text={text} onText={setText} range={range} onRange={setRange} onSearch={doSearch} onReset={doReset} />
          <Toolbar
            actions={page.toolbar}
            can={can}
            run={(a, extra) => run(a, undefined, extra)}
            before={tree && <Button onClick={toggleAll} data-testid="tree-toggle">展开/折叠</Button>}
          />
        </div>
        {list.error && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 12 }}
            message="数据加载失败"
            action={<Button size="small" onClick={reload}>重新加载</Button>}
          />
        )}
        {tree && list.total > list.records.length && (
          <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={`共 ${list.total} 条，只显示了前 ${list.records.length} 条`} />
        )}
        <Table<Row>
          rowKey={rowKey}
          size="middle"
          bordered
          columns={columns}
          dataSource={nested}
          loading={list.loading}
          scroll={scroll}
          components={components}
          rowSelection={selectable ? { selectedRowKeys: selected, onChange: setSelected, ...(virtual ? { columnWidth: SELECTION_WIDTH } : {}) } : undefined}
          locale={tableLocale}
          showSorterTooltip={false}
          expandable={tree ? { childrenColumnName: CHILDREN, expandedRowKeys: expandedKeys, onExpandedRowsChange: (keys) => setOpened([...keys]) } : undefined}
          pagination={tree ? false : {
            current: pageNum,
            pageSize,
            total: list.total,
            pageSizeOptions: sizes,
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (t) => totalText(t, list.totalEstimated),
          }}
          onChange={onTableChange}
        />
      </div>
      </SplitPane>
      <Dialogs
        page={page}
        state={dialog}
        rowKey={rowKey}
        saveCall={saveCall}
        onSaved={reloadChanged}
        onSent={(a) => a.refresh !== false && reloadChanged()}
        onClose={() => setDialog(null)}
      />
      {subList && <SubList state={subList} narrow={narrow} onClose={() => setSubList(null)} />}
      {history && (
        <Suspense fallback={null}>
          <HistoryDrawer kind={history.kind} itemKey={history.itemKey} open onClose={() => setHistory(null)} onRestored={reloadChanged} />
        </Suspense>
      )}
    </FeedbackContext.Provider>
  );
}

/** Another declared page over this one (action=subList): a drawer, a full-width dialog on a phone. */
function SubList({ state, narrow, onClose }: { state: SubListState; narrow: boolean; onClose: () => void }) {
  const services = useCrudServices();
  const builtin = builtinPages[state.pageId];
  const [loaded, setLoaded] = useState<PageDeclaration | 'missing' | null>(null);
  useEffect(() => {
    if (builtin) return;
    let live = true;
    if (!services.loadPage) return void setLoaded('missing');
    services.loadPage(state.pageId).then((d) => live && setLoaded(d), () => live && setLoaded('missing'));
    return () => {
      live = false;
    };
  }, [builtin, services, state.pageId]);
  const decl = builtin ?? (loaded && loaded !== 'missing' ? loaded : undefined);
  const body = decl ? (
    <CrudView page={decl} params={state.params} />
  ) : loaded === 'missing' ? (
    <Result status="404" title="404" subTitle="页面不存在或尚未发布" />
  ) : (
    <div style={{ padding: 48, textAlign: 'center' }}><Spin /></div>
  );
  if (narrow) {
    return <Modal open title={state.title} width="100%" style={{ top: 0, maxWidth: '100vw', padding: 0 }} footer={null} onCancel={onClose} destroyOnHidden>{body}</Modal>;
  }
  return <Drawer open title={state.title} width={Math.min(960, window.innerWidth - 48)} onClose={onClose} destroyOnHidden>{body}</Drawer>;
}
