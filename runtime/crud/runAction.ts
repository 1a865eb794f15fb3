// What each declared action does when clicked (add | edit | copy | delete | test | call | route | notice |
// download | import), and whether the user may run it.
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI } from 'antd/es/modal/useModal';
import type { ActionDecl, PageDeclaration, Row } from './types';
import type { CrudServices } from './services';
import type { DialogState } from './Dialogs';
import { fill, fillParams, parseCall } from './template';
import { actionPerms, pageApi } from './actions';
import { msg, template } from './messages';
import { runConnectionTest } from './connectionTest';
import { revealedValue } from './RevealModal';
import { builtinPages } from './declarations';

export interface ActionContext {
  page: PageDeclaration;
  services: CrudServices;
  message: MessageInstance;
  modal: HookAPI;
  /** the page address's values (`{{$query.name}}`) */
  route: Record<string, unknown>;
  /** the list's current query (a download sends it, without paging) */
  query: Record<string, unknown>;
  records: Row[];
  selected: React.Key[];
  clearSelection: () => void;
  reload: () => void;
  openDialog: (d: DialogState) => void;
  /** a sub-list's parameters: a new record starts with them */
  presetNew?: Row;
  /** opens another declared page over this one, its list calls carrying `params` (action=subList) */
  openSubList?: (s: SubListState) => void;
  /** opens a row's 历史版本 drawer (action=history) */
  openHistory?: (h: HistoryState) => void;
}

export interface HistoryState {
  kind: 'page' | 'screen' | 'form' | 'menu' | 'dataset';
  itemKey: string;
}

export interface SubListState {
  pageId: string;
  title: string;
  params: Record<string, unknown>;
}

/** The page's actions as click handlers: `run` does what an action declares, `can` says whether the user may. */
export function actionRunner(ctx: ActionContext) {
  const { page, services, message: messageApi, modal: modalApi, route, query, records, selected } = ctx;
  const api = pageApi(page);
  const rowKey = page.rowKey ?? 'id';
  const nameOf = (row: Row) => String(row[page.nameField ?? 'name'] ?? row[rowKey] ?? '');
  const can = (a: ActionDecl) => {
    const p = actionPerms(a, page);
    return !p || services.hasPermission(p);
  };

  /** The action's call as declared: method, path, query parameters and body (undefined: it declares none). */
  const callOf = (a: ActionDecl, row: Row, fallbackApi?: string) => {
    const call = a.api ?? fallbackApi;
    if (!call) return undefined;
    const { method, path } = parseCall(call, row);
    const params = a.params ? fillParams(a.params, { ...route, ...row }) : a.body === 'row' ? undefined : { id: row[rowKey] };
    const body = a.body === 'row' ? row : a.body === 'ids' ? selected : undefined;
    return { method, path, opts: { params, body, ...(a.timeout ? { timeoutMs: a.timeout * 1000 } : {}) } };
  };
  /** Runs a declared call for a row; an action form's values go into the body (POST) or the query (GET). */
  const runCall = async (a: ActionDecl, row: Row, fallbackApi?: string, values?: Row) => {
    const c = callOf(a, row, fallbackApi);
    if (!c) return;
    if (values) {
      if (c.method === 'GET') c.opts.params = { ...c.opts.params, ...values };
      else c.opts.body = { ...(c.opts.body && typeof c.opts.body === 'object' && !Array.isArray(c.opts.body) ? c.opts.body : {}), ...values };
    }
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

  /** `extra`: what the toolbar adds to the call (the export's chosen format) */
  const run = async (a: ActionDecl, row?: Row, extra?: Record<string, unknown>) => {
    const r = row ?? {};
    switch (a.action) {
      case 'add':
        if (a.page) {
          // another page's 新增 (a subscription of this list): its dialog and save, started from this page and its search
          const other = builtinPages[a.page];
          if (!other?.dialog) return;
          const { pageNum: _n, pageSize: _s, ...shown } = query;
          const listed = Object.fromEntries(Object.entries(shown).filter(([, v]) => v !== undefined && v !== null && v !== ''));
          const values = { ...route, ...r, '$page.id': page.id, '$page.title': page.title, $list: Object.keys(listed).length ? JSON.stringify(listed) : '' };
          ctx.openDialog({ mode: 'new', action: a, page: other, preset: fillParams(a.params, values) });
          return;
        }
        // a row's 新增 (asChild): a record under this row, its parent field preset to the row's key
        ctx.openDialog({
          mode: 'new',
          action: a,
          preset: { ...ctx.presetNew, ...(a.asChild && row ? { [page.tree?.parentField ?? 'parentId']: row[rowKey] } : {}) },
        });
        return;
      case 'edit':
      case 'copy':
        ctx.openDialog({ mode: a.action, row: await fetchForEdit(r), action: a });
        return;
      case 'delete': {
        if (!row) {
          // toolbar delete: every selected row
          const rows = records.filter((x) => selected.includes(x[rowKey] as React.Key));
          if (!rows.length) return void messageApi.warning('请至少选择一条记录');
          return confirmThen(a, {}, `确定要删除选中的${rows.length}条记录吗？`, async () => {
            // each refusal was shown by the request layer; success is said only for what was deleted
            let notDeleted = 0;
            for (const x of rows) await runCall(a, x, api.delete).catch(() => void notDeleted++);
            if (notDeleted < rows.length) messageApi.success(notDeleted ? `已删除${rows.length - notDeleted}条，${notDeleted}条未删除` : (a.success ?? msg('deleteSuccess')));
            ctx.clearSelection();
            ctx.reload();
          });
        }
        // a parent whose detail lines go with it (dialog.details onDelete cascade) says so before it is deleted
        const cascaded = (page.dialog?.details ?? []).filter((d) => d.onDelete === 'cascade').map((d) => `「${d.title}」`);
        const asked = cascaded.length ? `${template('confirmDelete')}其${cascaded.join('、')}明细将一并删除。` : template('confirmDelete');
        return confirmThen(a, r, asked, async () => {
          try {
            await runCall(a, r, api.delete);
            messageApi.success(a.success ?? msg('deleteSuccess'));
            ctx.reload();
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
        // a form first (it is the confirmation): its values are sent with the call
        if (a.form) {
          // the form's initial values may come from a call first (the current settings); no form when it fails
          let preset: Row | undefined;
          if (a.form.load) {
            const { method, path } = parseCall(a.form.load.api, r);
            try {
              const loaded = await services.request<Row>(method, path, { params: a.form.load.params ? fillParams(a.form.load.params, { ...route, ...r }) : undefined });
              preset = loaded && typeof loaded === 'object' && !Array.isArray(loaded) ? loaded : undefined;
            } catch {
              return; /* shown by the request layer */
            }
          }
          return ctx.openDialog({ mode: 'new', row: r, action: a, preset, submit: (values) => runCall(a, r, undefined, values) });
        }
        return confirmThen(a, r, undefined, async () => {
          try {
            const answer = await runCall(a, r);
            messageApi.success(a.success ?? msg('submitSuccess'));
            if (a.refresh !== false) ctx.reload();
            // shown once: held only by the open dialog, gone when it closes
            const once = revealedValue(a.result, answer);
            if (once !== undefined) ctx.openDialog({ mode: 'new', action: a, revealed: once });
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
      case 'subList':
        if (a.page) ctx.openSubList?.({ pageId: a.page, title: fill(a.title ?? a.label ?? '', r), params: fillParams(a.params, { ...route, ...r }) });
        return;
      case 'history':
        if (a.versions && r[a.versions.keyField] != null) ctx.openHistory?.({ kind: a.versions.kind, itemKey: String(r[a.versions.keyField]) });
        return;
      case 'notice':
        messageApi.info(a.message ?? msg('building'));
        return;
      case 'import':
        // a declared import (check + api), or the sheet import of the page's api.import (CSV / Excel)
        if (a.import || a.api || api.import) ctx.openDialog({ mode: 'new', action: a });
        return;
      case 'download': {
        // what the list shows now (search, dates, filters, fixed query), without paging; the chosen format
        const call = a.api ?? api.export;
        if (!call || !services.download) return;
        const { method, path } = parseCall(call, r);
        const { pageNum: _n, pageSize: _s, ...shown } = query;
        const format = extra?.format ?? (a.formats?.length === 1 ? a.formats[0] : undefined);
        await services.download(method, path, { ...shown, ...fillParams(a.params, { ...route, ...r }), ...(format ? { format } : {}) });
        return;
      }
    }
  };

  return { run, can };
}
