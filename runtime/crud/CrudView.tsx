import { useCallback, useMemo, useRef, useState } from 'react';
import { Alert, Button, DatePicker, Empty, Input, message as antdMessage, Modal, Result, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import type { TableColumnsType, TablePaginationConfig } from 'antd';
import type { FilterDropdownProps, FilterValue, SorterResult } from 'antd/es/table/interface';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { ActionDecl, ColumnDecl, DialogMode, PageDeclaration, Row } from './types';
import { useCrudServices, type DictItem } from './services';
import { FeedbackContext, type Feedback } from './feedback';
import { renderCell } from './cells';
import { sortToQuery, type SortState } from './sort';
import { useList } from './useList';
import { fill, fillParams, missingRouteValues, parseCall, routeValues } from './template';
import { useDynamicColumns } from './dynamicColumns';
import { useHeading } from './heading';
import { safeHref } from '../core/urls';
import { actionShownFor, actionLabel, actionPerms, pageApi } from './actions';
import { msg, template } from './messages';
import { FormDialog } from './FormDialog';
import { runConnectionTest } from './connectionTest';
import { UploadDialog } from './UploadDialog';
import { RemoteFilter } from './RemoteFilter';
import { SideTree } from './SideTree';
import { SplitPane } from '../ui/SplitPane';
import { useNarrow } from '../ui/narrow';

interface DialogState { mode: DialogMode; row?: Row; action: ActionDecl }

/** Dictionaries used by the columns, read once per table (the declaration is fixed while mounted). */
function useColumnDicts(columns: ColumnDecl[]): Record<string, DictItem[]> {
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

/** A picked date range as query values: from the first day's start to the last day's end. */
export function dayRange(range: [Dayjs | null, Dayjs | null] | null): [string, string] | null {
  return range?.[0] && range[1] ? [`${range[0].format('YYYY-MM-DD')} 00:00:00`, `${range[1].format('YYYY-MM-DD')} 23:59:59`] : null;
}

/** The generic list page: search, table, sort, filters, paging, toolbar, row actions and dialogs. */
export function CrudView({ page }: { page: PageDeclaration }) {
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
  const [pageSize, setPageSize] = useState(page.pageSize ?? 10);
  const [sort, setSort] = useState<SortState>({ order: null });
  const [filters, setFilters] = useState<Record<string, FilterValue | null>>({});
  const [selected, setSelected] = useState<React.Key[]>([]);
  const [tick, setTick] = useState(0);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [treeIds, setTreeIds] = useState<Array<string | number> | null>(null);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
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
    const q: Record<string, unknown> = { ...fillParams(page.query, JSON.parse(routeKey)), pageNum, pageSize, ...sortToQuery(sort) };
    if (applied) q[searchField] = applied;
    const dr = page.search?.dateRange;
    if (dr && appliedRange) {
      q[dr.begin] = appliedRange[0];
      q[dr.end] = appliedRange[1];
    }
    for (const [k, v] of Object.entries(filters)) if (v && v.length) q[k] = v;
    if (page.sideTree && treeIds) q[page.sideTree.param] = treeIds;
    return q;
  }, [page.query, routeKey, pageNum, pageSize, sort, applied, appliedRange, page.search?.dateRange, searchField, filters, page.sideTree, treeIds]);
  const list = useList(missing.length ? null : (api.search ?? null), query, tick);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  const doSearch = () => { setApplied(text.trim()); setAppliedRange(dayRange(range)); setPageNum(1); reload(); };
  const doReset = () => { setText(''); setApplied(''); setRange(null); setAppliedRange(null); setFilters({}); setSort({ order: null }); setPageNum(1); reload(); };

  const nameOf = (row: Row) => String(row[page.nameField ?? 'name'] ?? row[rowKey] ?? '');
  const can = (a: ActionDecl) => {
    const p = actionPerms(a, page);
    return !p || services.hasPermission(p);
  };

  /** Runs a declared call for a row; `kind` decides how the result reads. */
  /** The action's call as declared: method, path, query parameters and body (undefined: it declares none). */
  const callOf = (a: ActionDecl, row: Row, fallbackApi?: string) => {
    const call = a.api ?? fallbackApi;
    if (!call) return undefined;
    const { method, path } = parseCall(call, row);
    const params = a.params ? fillParams(a.params, { ...route, ...row }) : a.body === 'row' ? undefined : { id: row[rowKey] };
    const body = a.body === 'row' ? row : a.body === 'ids' ? selected : undefined;
    return { method, path, opts: { params, body, ...(a.timeout ? { timeoutMs: a.timeout * 1000 } : {}) } };
  };
  const runCall = async (a: ActionDecl, row: Row, fallbackApi?: string) => {
    const c = callOf(a, row, fallbackApi);
    if (!c) return;
    return services.request<unknown>(c.method, c.path, c.opts);
  };

  const confirmThen = (a: ActionDecl, row: Row, fallback: string | undefined, go: () => Promise<void>) => {
    const text = a.confirm ?? fallback;
    if (!text) return void go();
    modalApi.confirm({
      title: '系统提示',
      content: fill(text, { ...row, name: nameOf(row) }),
      okText: '确定',
      cancelText: '取消',
      onOk: () => go(),
    });
  };

  const fetchForEdit = async (row: Row): Promise<Row> => {
    if (!api.get) return row;
    const { method, path } = parseCall(api.get, row);
    try {
      const rec = await services.request<Row>(method, path, { params: { id: row[rowKey] } });
      return rec && typeof rec === 'object' ? rec : row;
    } catch {
      return row;
    }
  };

  const run = async (a: ActionDecl, row?: Row) => {
    const r = row ?? {};
    switch (a.action) {
      case 'add':
        setDialog({ mode: 'new', action: a });
        return;
      case 'edit':
      case 'copy':
        setDialog({ mode: a.action, row: await fetchForEdit(r), action: a });
        return;
      case 'delete': {
        if (!row) {
          // toolbar delete: every selected row
          const rows = list.records.filter((x) => selected.includes(x[rowKey] as React.Key));
          if (!rows.length) return void messageApi.warning('请至少选择一条记录');
          return confirmThen(a, {}, `确定要删除选中的${rows.length}条记录吗？`, async () => {
            // each refusal was shown by the request layer; success is said only for what was deleted
            let refused = 0;
            for (const x of rows) await runCall(a, x, api.delete).catch(() => void refused++);
            if (refused < rows.length) messageApi.success(refused ? `已删除${rows.length - refused}条，${refused}条未删除` : (a.success ?? msg('deleteSuccess')));
            setSelected([]);
            reload();
          });
        }
        return confirmThen(a, r, template('confirmDelete'), async () => {
          try {
            await runCall(a, r, api.delete);
            messageApi.success(a.success ?? msg('deleteSuccess'));
            reload();
          } catch { /* shown by the request layer */ }
        });
      }
      case 'test': {
        const c = callOf(a, r);
        if (!c) return;
        try {
          // false: the server's reason after the declared failure text (连接失败：账号或密码错误)
          const { ok, text } = await runConnectionTest(services, c.method, c.path, c.opts, a);
          if (ok) messageApi.success(text);
          else messageApi.error(text);
        } catch { /* shown by the request layer */ }
        return;
      }
      case 'call':
        return confirmThen(a, r, undefined, async () => {
          try {
            await runCall(a, r);
            messageApi.success(a.success ?? msg('submitSuccess'));
            if (a.refresh !== false) reload();
          } catch {
            if (a.failure) messageApi.error(a.failure);
          }
        });
      case 'route': {
        const to = fill(a.to ?? '', r);
        if (a.newTab) window.open(to, '_blank');
        else if (services.navigate) services.navigate(to);
        else window.location.assign(to);
        return;
      }
      case 'notice':
        messageApi.info(a.message ?? msg('building'));
        return;
      case 'download': {
        // what the list shows now (search, dates, filters, fixed query), without paging
        if (!a.api || !services.download) return;
        const { method, path } = parseCall(a.api, r);
        const { pageNum: _n, pageSize: _s, ...shown } = query;
        await services.download(method, path, { ...shown, ...fillParams(a.params, { ...route, ...r }) });
        return;
      }
    }
  };

  // cells call the latest run/can through a ref, so the columns survive data and selection changes
  const live = useRef({ run, can });
  live.current = { run, can };

  const narrow = useNarrow();
  const columns = useMemo<TableColumnsType<Row>>(() => {
    const out: TableColumnsType<Row> = [];
    for (const c of declColumns) {
      if (c.type === 'selection') continue; // rendered by rowSelection
      if (c.type === 'index') {
        out.push({ key: '__index', title: c.title, width: c.width ?? 60, align: 'center', render: (_v, _r, i) => (pageNum - 1) * pageSize + i + 1 });
        continue;
      }
      if (c.type === 'actions') {
        out.push({
          // on a phone a fixed column would cover most of the row: it scrolls with the others there
          key: '__actions', title: c.title, width: c.width, fixed: narrow ? undefined : 'right',
          render: (_v, row) => (
            <Space size={0} wrap={false}>
              {(page.rowActions ?? []).filter((a) => live.current.can(a) && actionShownFor(a, row)).map((a, i) => (
                <Button key={i} type="link" size="small" danger={a.danger ?? a.action === 'delete'} onClick={() => void live.current.run(a, row)}>
                  {actionLabel(a)}
                </Button>
              ))}
            </Space>
          ),
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
      if (c.sortable) Object.assign(col, { sorter: true, sortDirections: ['ascend', 'descend'], sortOrder: sort.field === field ? sort.order : null });
      if (c.filter === 'dict' && c.dict) {
        Object.assign(col, { filters: (dicts[c.dict] ?? []).map((d) => ({ text: d.label, value: d.value })), filterMultiple: true, filteredValue: filters[filterKey] ?? null });
      } else if (c.filter === 'remote' && c.filterApi) {
        Object.assign(col, { filterDropdown: (p: FilterDropdownProps) => <RemoteFilter {...p} api={c.filterApi!} />, filteredValue: filters[filterKey] ?? null });
      }
      out.push(col);
    }
    return out;
  }, [page, declColumns, dicts, sort, filters, pageNum, pageSize, narrow]);

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
    setPageNum(sizeChanged || filterChanged || sortChanged ? 1 : (p.current ?? 1));
  };

  const tableLocale = useMemo(
    () => ({ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={list.error ? '加载失败' : '暂无数据'} /> }),
    [list.error],
  );
  const selectable = page.selectable || page.columns.some((c) => c.type === 'selection');
  const editAction = dialog?.action;
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
        side={page.sideTree && <SideTree decl={page.sideTree} pageId={page.id ?? 'page'} onSelect={onTreeSelect} />}
        sideTitle={page.sideTree?.title ?? '分类'}
        drawerWidth={(page.sideTree?.width ?? 240) + 48}
        selection={JSON.stringify(treeIds)}
      >
      <div className="crud-page" data-page={page.id} style={page.sideTree ? { flex: 1, minWidth: 0 } : undefined}>
        {(page.showTitle || page.heading) && <Typography.Title level={5} style={{ marginTop: 0 }} data-testid="page-heading">{heading ?? page.title}</Typography.Title>}
        <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}>
          <Space wrap>
            <Input
              allowClear
              value={text}
              maxLength={page.search?.maxLength ?? 20}
              placeholder={page.search?.placeholder ?? '请输入名称'}
              onChange={(e) => setText(e.target.value)}
              onPressEnter={doSearch}
              style={{ width: 240 }}
              data-testid="crud-search"
            />
            {page.search?.dateRange && (
              <DatePicker.RangePicker
                aria-label={page.search.dateRange.label ?? '日期范围'}
                value={range}
                onChange={(v) => setRange(v as [Dayjs | null, Dayjs | null] | null)}
                placeholder={[`${page.search.dateRange.label ?? ''}开始日期`, '结束日期']}
              />
            )}
            <Button type="primary" icon={<SearchOutlined />} onClick={doSearch}>搜索</Button>
            <Button icon={<ReloadOutlined />} onClick={doReset}>重置</Button>
          </Space>
          <Space wrap>
            {(page.toolbar ?? []).filter(can).map((a, i) => (
              <Button key={i} type={a.primary ?? a.action === 'add' ? 'primary' : 'default'} danger={a.danger} onClick={() => void run(a)}>
                {actionLabel(a)}
              </Button>
            ))}
          </Space>
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
        <Table<Row>
          rowKey={rowKey}
          size="middle"
          bordered
          columns={columns}
          dataSource={list.records}
          loading={list.loading}
          scroll={{ x: 'max-content' }}
          rowSelection={selectable ? { selectedRowKeys: selected, onChange: setSelected } : undefined}
          locale={tableLocale}
          showSorterTooltip={false}
          pagination={{
            current: pageNum,
            pageSize,
            total: list.total,
            pageSizeOptions: sizes,
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (t) => `共 ${t} 条`,
          }}
          onChange={onTableChange}
        />
      </div>
      </SplitPane>
      {dialog && page.dialog && (page.dialog.kind === 'upload' ? (
        <UploadDialog dialog={page.dialog} pageTitle={page.title} onSaved={reload} onClose={() => setDialog(null)} />
      ) : (
        <FormDialog
          dialog={page.dialog}
          mode={dialog.mode}
          row={dialog.row}
          rowKey={rowKey}
          pageTitle={page.title}
          saveCall={saveCall}
          successText={editAction?.success}
          onSaved={reload}
          onClose={() => setDialog(null)}
        />
      ))}
    </FeedbackContext.Provider>
  );
}
