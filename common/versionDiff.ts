// What changed between two versions of a designed item, in words (issue 37 item 1): 列「城市」的宽度 120 → 160,
// 组件「销售额」移动到 (120, 80). Framework-free: the history drawer shows these beside the raw JSON diff, and the
// tests check them directly. A page declaration is read by its columns, fields and buttons; a screen or form
// snapshot ({ canvas, widgets }) by its canvas settings and its widgets (by id); anything else by its paths.

export interface Change {
  /** the change in words */
  text: string;
  kind: 'added' | 'removed' | 'changed' | 'moved';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A value as the change list shows it: short, one line. */
export function shown(v: unknown): string {
  if (v === undefined || v === null || v === '') return '（空）';
  if (typeof v === 'string') return v.length > 40 ? `${v.slice(0, 40)}…` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Leaf changes between two values, each with its dotted path (arrays by index), at most `limit`. */
export function leafChanges(a: unknown, b: unknown, path = '', out: Array<{ path: string; before: unknown; after: unknown }> = [], limit = 200): typeof out {
  if (out.length >= limit || same(a, b)) return out;
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) leafChanges(a[k], b[k], path ? `${path}.${k}` : k, out, limit);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => leafChanges(x, b[i], `${path}[${i}]`, out, limit));
    return out;
  }
  out.push({ path, before: a, after: b });
  return out;
}

const PAGE_KEYS: Record<string, string> = { title: '页面标题', rowKey: '主键字段', nameField: '名称字段', pageSize: '每页条数', pageSizes: '每页条数选项', search: '搜索', toolbar: '工具栏按钮', rowActions: '行按钮', perms: '权限', source: '数据表', tree: '树形', sideTree: '侧边树' };
const COLUMN_KEYS: Record<string, string> = { title: '标题', width: '宽度', format: '格式', dict: '字典', fixed: '固定', sortable: '可排序', ellipsis: '省略显示', filter: '过滤', textField: '显示字段', template: '文本模板' };
const FIELD_KEYS: Record<string, string> = { title: '标签', type: '类型', 'x-component': '组件', 'x-dict': '字典', default: '默认值', maxLength: '最大长度', minimum: '最小值', maximum: '最大值', pattern: '格式', 'x-validator': '校验规则', enum: '选项', description: '说明' };

/** The changes of a page declaration: columns (by field or title), dialog fields (by name), then the rest by path. */
export function pageChanges(a: Obj, b: Obj): Change[] {
  const out: Change[] = [];
  const cols = (d: Obj) => (Array.isArray(d.columns) ? (d.columns as Obj[]) : []);
  const colKey = (c: Obj, i: number) => String(c.field ?? c.type ?? `#${i}`);
  const colName = (c: Obj) => String(c.title ?? c.field ?? c.type ?? '');
  const before = new Map(cols(a).map((c, i) => [colKey(c, i), c]));
  const after = new Map(cols(b).map((c, i) => [colKey(c, i), c]));
  for (const [k, c] of after) {
    const old = before.get(k);
    if (!old) {
      out.push({ kind: 'added', text: `新增列「${colName(c)}」` });
      continue;
    }
    for (const key of new Set([...Object.keys(old), ...Object.keys(c)])) {
      if (same(old[key], c[key])) continue;
      out.push({ kind: 'changed', text: `列「${colName(old)}」的${COLUMN_KEYS[key] ?? key} ${shown(old[key])} → ${shown(c[key])}` });
    }
  }
  for (const [k, c] of before) if (!after.has(k)) out.push({ kind: 'removed', text: `删除列「${colName(c)}」` });
  const order = (d: Obj) => cols(d).map(colKey).filter((k) => before.has(k) && after.has(k));
  if (!same(order(a), order(b))) out.push({ kind: 'moved', text: '列的顺序改变' });

  const props = (d: Obj) => ((isObj(d.dialog) && isObj((d.dialog as Obj).schema) && isObj(((d.dialog as Obj).schema as Obj).properties) ? ((d.dialog as Obj).schema as Obj).properties : {}) as Record<string, Obj>);
  const pa = props(a);
  const pb = props(b);
  for (const [name, f] of Object.entries(pb)) {
    const old = pa[name];
    const label = String((old ?? f).title ?? name);
    if (!old) {
      out.push({ kind: 'added', text: `新增表单字段「${label}」` });
      continue;
    }
    for (const key of new Set([...Object.keys(old), ...Object.keys(f)])) {
      if (same(old[key], f[key])) continue;
      out.push({ kind: 'changed', text: `表单字段「${label}」的${FIELD_KEYS[key] ?? key} ${shown(old[key])} → ${shown(f[key])}` });
    }
  }
  for (const [name, f] of Object.entries(pa)) if (!pb[name]) out.push({ kind: 'removed', text: `删除表单字段「${String(f.title ?? name)}」` });

  // the rest of the declaration: by its top-level part, then its path
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === 'columns' || key === 'id') continue;
    const x = key === 'dialog' && isObj(a.dialog) ? { ...(a.dialog as Obj), schema: undefined } : a[key];
    const y = key === 'dialog' && isObj(b.dialog) ? { ...(b.dialog as Obj), schema: undefined } : b[key];
    for (const c of leafChanges(x, y).slice(0, 20)) out.push({ kind: 'changed', text: `${key === 'dialog' ? '表单' : (PAGE_KEYS[key] ?? key)}${c.path ? ` ${c.path}` : ''}：${shown(c.before)} → ${shown(c.after)}` });
  }
  return out;
}

const CANVAS_KEYS: Record<string, string> = { pageName: '名称', width: '画布宽度', height: '画布高度', backgroundColor: '背景色', backgroundImage: '背景图', refreshSeconds: '刷新间隔（秒）', theme: '主题', variables: '变量', presetLine: '参考线', fillAccess: '填写权限', accepting: '收集中' };
const VIEW_KEYS: Record<string, string> = { text: '文字', title: '标题', label: '标签', color: '颜色', fontSize: '字号', backgroundColor: '背景色', option: '图表配置', hidden: '隐藏' };

interface WidgetLike {
  id: string;
  widgetName?: string;
  widgetTitle?: string | null;
  widgetProps?: { viewProps?: Obj; datasourceProps?: unknown; interactionProps?: unknown } & Obj;
}

/** A widget's name in a change: its label or text when it has one, else its title, else its kind. */
export function widgetLabel(w: WidgetLike): string {
  const v = w.widgetProps?.viewProps ?? {};
  for (const k of ['label', 'title', 'text']) if (typeof v[k] === 'string' && (v[k] as string).trim()) return (v[k] as string).trim().slice(0, 20);
  return w.widgetTitle || w.widgetName || w.id;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);

/** The changes of a screen or form snapshot: canvas settings, then each widget (added, removed, moved, resized, props). */
export function snapshotChanges(a: Obj, b: Obj): Change[] {
  const out: Change[] = [];
  const ca = (isObj(a.canvas) ? a.canvas : {}) as Obj;
  const cb = (isObj(b.canvas) ? b.canvas : {}) as Obj;
  for (const key of new Set([...Object.keys(ca), ...Object.keys(cb)])) {
    if (same(ca[key], cb[key])) continue;
    out.push({ kind: 'changed', text: `${CANVAS_KEYS[key] ?? key} ${shown(ca[key])} → ${shown(cb[key])}` });
  }
  const ws = (s: Obj) => (Array.isArray(s.widgets) ? (s.widgets as WidgetLike[]) : []);
  const before = new Map(ws(a).map((w) => [w.id, w]));
  const after = new Map(ws(b).map((w) => [w.id, w]));
  for (const [id, w] of after) {
    const old = before.get(id);
    const name = widgetLabel(old ?? w);
    if (!old) {
      out.push({ kind: 'added', text: `新增组件「${name}」` });
      continue;
    }
    const va = old.widgetProps?.viewProps ?? {};
    const vb = w.widgetProps?.viewProps ?? {};
    if (num(va.left) !== num(vb.left) || num(va.top) !== num(vb.top)) out.push({ kind: 'moved', text: `组件「${name}」移动到 (${num(vb.left)}, ${num(vb.top)})` });
    if (num(va.width) !== num(vb.width) || num(va.height) !== num(vb.height)) out.push({ kind: 'changed', text: `组件「${name}」的大小 ${num(va.width)}×${num(va.height)} → ${num(vb.width)}×${num(vb.height)}` });
    for (const c of leafChanges({ ...va, left: 0, top: 0, width: 0, height: 0 }, { ...vb, left: 0, top: 0, width: 0, height: 0 }).slice(0, 10)) {
      const head = c.path.split(/[.[]/)[0];
      out.push({ kind: 'changed', text: `组件「${name}」的${VIEW_KEYS[head] ?? c.path} ${shown(c.before)} → ${shown(c.after)}` });
    }
    const rest = (x: WidgetLike) => ({ ...x.widgetProps, viewProps: undefined, widgetTitle: x.widgetTitle });
    if (!same(rest(old), rest(w))) {
      const parts = leafChanges(rest(old), rest(w)).map((c) => c.path.split(/[.[]/)[0]);
      const label: Record<string, string> = { datasourceProps: '数据', interactionProps: '交互', widgetTitle: '名称', locked: '锁定', hidden: '隐藏', group: '分组' };
      out.push({ kind: 'changed', text: `组件「${name}」的${[...new Set(parts)].map((p) => label[p] ?? p).join('、')}已修改` });
    }
  }
  for (const [id, w] of before) if (!after.has(id)) out.push({ kind: 'removed', text: `删除组件「${widgetLabel(w)}」` });
  const order = (s: Obj) => ws(s).map((w) => w.id).filter((id) => before.has(id) && after.has(id));
  if (!same(order(a), order(b))) out.push({ kind: 'moved', text: '组件的图层顺序改变' });
  return out;
}

/** The changes from `a` to `b` of an item of `kind`, in words (none when they are the same). */
export function describeChanges(kind: string, a: unknown, b: unknown): Change[] {
  if (same(a, b)) return [];
  if (!isObj(a) || !isObj(b)) return [{ kind: 'changed', text: '内容已替换' }];
  if (kind === 'page') return pageChanges(a, b);
  if (kind === 'screen' || kind === 'form') return snapshotChanges(a, b);
  const names = KIND_KEYS[kind] ?? {};
  // a path's first segment by its name in the editor (名称, 路由地址…), the rest as it is
  const named = (path: string) => {
    const m = /^([^.[]+)(.*)$/.exec(path);
    return m && names[m[1]] ? `${names[m[1]]}${m[2]}` : path || '内容';
  };
  return leafChanges(a, b)
    .slice(0, 50)
    .map((c) => ({ kind: 'changed' as const, text: `${named(c.path)}：${shown(c.before)} → ${shown(c.after)}` }));
}

/** The editors' names of a menu entry's and a dataset's settings. */
const KIND_KEYS: Record<string, Record<string, string>> = {
  menu: { name: '名称', parentKey: '上级菜单', type: '类型', path: '路由地址', component: '组件路径', link: '外链地址', newTab: '新窗口打开', icon: '图标', hidden: '隐藏', cache: '缓存', perms: '权限字符', orderNum: '显示顺序' },
  dataset: { name: '名称', groupId: '分组', group: '分组', kind: '类型', dsId: '数据源', dataSource: '数据源', definition: '取数定义', fields: '字段', rowRules: '行权限', cacheTtl: '缓存秒数' },
};

/** A screen's or form's layout as boxes for a thumbnail: the canvas size and each visible widget's rectangle. */
export function layoutBoxes(snapshot: unknown): { width: number; height: number; background: string; boxes: Array<{ id: string; x: number; y: number; w: number; h: number; label: string }> } {
  const s = isObj(snapshot) ? snapshot : {};
  const c = (isObj(s.canvas) ? s.canvas : {}) as Obj;
  const widgets = Array.isArray(s.widgets) ? (s.widgets as WidgetLike[]) : [];
  return {
    width: num(c.width) || 1920,
    height: num(c.height) || 1080,
    background: typeof c.backgroundColor === 'string' && c.backgroundColor ? c.backgroundColor : '#1D202D',
    boxes: widgets
      .filter((w) => !w.widgetProps?.hidden)
      .map((w) => {
        const v = w.widgetProps?.viewProps ?? {};
        return { id: w.id, x: num(v.left), y: num(v.top), w: Math.max(1, num(v.width)), h: Math.max(1, num(v.height)), label: widgetLabel(w) };
      }),
  };
}
