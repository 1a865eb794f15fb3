// Faults of a page declaration named the way the visual editor names things (列「名称」的宽度, 表单字段「手机号」的
// 格式…), never by a JSON pointer alone: the meta-schema's faults renamed, and the checks the meta-schema cannot say
// (a width that is no positive integer, a pattern that does not compile, a search field that does not exist).
import type { PageDeclaration } from '../../../crud';
import { columnLabel, fieldTitle, kindOf, LIST_NAME, type ActionList } from './model';
import columnPanel from '../../../../schemas/page-editor/column.panel.json';
import fieldPanel from '../../../../schemas/page-editor/field.panel.json';
import actionPanel from '../../../../schemas/page-editor/action.panel.json';
import searchPanel from '../../../../schemas/page-editor/search.panel.json';
import permsPanel from '../../../../schemas/page-editor/perms.panel.json';

export interface NamedFault { pointer: string; message: string }
type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const titles = (panel: { schema: { properties: Record<string, { title: string }> } }) => Object.fromEntries(Object.entries(panel.schema.properties).map(([k, v]) => [k, v.title]));
const COLUMN_ZH: Record<string, string> = { ...titles(columnPanel), field: '字段', type: '类型' };
const FIELD_ZH: Record<string, string> = { ...titles(fieldPanel), type: '值类型', 'x-component': '组件', 'x-dict': '字典', 'x-validator': '校验规则', 'x-component-props': '组件属性' };
const ACTION_ZH: Record<string, string> = titles(actionPanel);
const SEARCH_ZH: Record<string, string> = titles(searchPanel);
const PERMS_ZH: Record<string, string> = titles(permsPanel);
const ACTION_NAMES: Record<string, string> = Object.fromEntries((actionPanel.schema.properties.action.oneOf ?? []).map((o: { const: string; title: string }) => [o.const, o.title]));
const PAGE_ZH: Record<string, string> = { id: '页面标识', title: '页面标题', columns: '列', toolbar: '工具栏按钮', rowActions: '行按钮', search: '搜索', dialog: '表单', perms: '权限' };

const decode = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** How a place in the declaration is called in the editor, e.g. 列「名称」的宽度; null when it has no such name. */
export function nameAt(pointer: string, data: unknown): string | null {
  const parts = pointer.split('/').slice(1).map(decode);
  if (!isObj(data) || !parts.length) return null;
  const d = data as Obj;
  const [top, a, b, c, e] = parts;
  const own = (zh: Record<string, string>, key: string | undefined) => (key === undefined ? '' : `的${zh[key] ?? key}`);
  if (top === 'columns' && a !== undefined && /^\d+$/.test(a)) {
    const col = Array.isArray(d.columns) && isObj(d.columns[+a]) ? d.columns[+a] : {};
    return `列「${columnLabel(col, +a)}」${own(COLUMN_ZH, b)}`;
  }
  if ((top === 'toolbar' || top === 'rowActions') && a !== undefined && /^\d+$/.test(a)) {
    const act = Array.isArray(d[top]) && isObj(d[top][+a]) ? d[top][+a] : {};
    const label = act.label || ACTION_NAMES[act.action] || `第 ${+a + 1} 个`;
    return `${LIST_NAME[top as ActionList]}「${label}」${own(ACTION_ZH, b)}`;
  }
  if (top === 'dialog' && a === 'schema' && b === 'properties' && c !== undefined) {
    return `表单字段「${fieldTitle(d as PageDeclaration, c)}」${own(FIELD_ZH, e)}`;
  }
  if (top === 'search') return `搜索${own(SEARCH_ZH, a)}`;
  if (top === 'perms') return a === undefined ? '权限' : `权限「${PERMS_ZH[a] ?? a}」`;
  if (parts.length === 1 && PAGE_ZH[top]) return `字段「${PAGE_ZH[top]}」`;
  return null;
}

/** The meta-schema's fault with its field named as the editor names it: 字段「columns[2].width」… → 列「名称」的宽度… */
export function renamed(fault: NamedFault, data: unknown): NamedFault {
  const name = nameAt(fault.pointer, data);
  if (!name) return fault;
  if (name.startsWith('字段「')) return { ...fault, message: fault.message.replace(/^字段「[^」]*」/, name) };
  return { ...fault, message: fault.message.replace(/^字段「[^」]*」/, `${name}：`).replace(/：(缺少必填属性|不是允许的属性)/, '$1') };
}

/**
 * A message that names fields by their paths (the server's refusal of a save: 字段「columns[1].field」是可排序列…)
 * with each field named as the editor names it, when the declaration has that place.
 */
export function renamedText(message: string, data: unknown): string {
  return message.replace(/字段「([A-Za-z0-9_$-]+(?:\[\d+\]|\.[A-Za-z0-9_$-]+)*)」：?/g, (whole, path: string) => {
    const pointer = '/' + path.replace(/\[(\d+)\]/g, '.$1').split('.').join('/');
    const name = nameAt(pointer, data);
    if (!name) return whole;
    return name.startsWith('字段「') ? name : `${name}：`;
  });
}

const positiveInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** What the meta-schema cannot say; `dicts` are the dictionary types known (null: not checked). */
export function semanticFaults(d: PageDeclaration, dicts: string[] | null): NamedFault[] {
  const out: NamedFault[] = [];
  const add = (pointer: string, message: string) => out.push({ pointer, message });
  const props = (d.dialog?.schema?.properties ?? {}) as Record<string, Obj>;
  const names = Object.keys(props);
  d.columns.forEach((c, i) => {
    const name = `列「${columnLabel(c, i)}」`;
    if (!c.title?.trim() && c.field && c.type !== 'selection') add(`/columns/${i}/title`, `${name}的标题不能为空`);
    if (c.width !== undefined && !positiveInt(c.width)) add(`/columns/${i}/width`, `${name}的宽度应为正整数`);
    if (c.dict && dicts && !dicts.includes(c.dict)) add(`/columns/${i}/dict`, `${name}的字典「${c.dict}」不存在`);
  });
  const known = new Set([...names, ...d.columns.map((c) => c.field).filter(Boolean)]);
  (d.search?.fields ?? []).forEach((f, i) => {
    // a page with its own calls searches on the server's terms; the record store (and a table page) only declared fields
    if (!d.api && names.length && !known.has(f)) add(`/search/fields/${i}`, `搜索的字段「${f}」不在表单字段或列中`);
  });
  if (d.search?.maxLength !== undefined && !positiveInt(d.search.maxLength)) add('/search/maxLength', '搜索的最大长度应为正整数');
  for (const [key, p] of Object.entries(props)) {
    if (!isObj(p)) continue;
    const name = `表单字段「${fieldTitle(d, key)}」`;
    const at = `/dialog/schema/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) add(at, `${name}的字段名「${key}」只能含字母、数字和下划线，且不以数字开头`);
    if (typeof p.title !== 'string' || !p.title.trim()) add(`${at}/title`, `${name}的标签不能为空`);
    if (p.maxLength !== undefined && !positiveInt(p.maxLength)) add(`${at}/maxLength`, `${name}的最大长度应为正整数`);
    if (typeof p.minimum === 'number' && typeof p.maximum === 'number' && p.minimum > p.maximum) add(`${at}/minimum`, `${name}的最小值不能大于最大值`);
    const patterns = [p.pattern, ...(Array.isArray(p['x-validator']) ? p['x-validator'] : [p['x-validator']]).map((v: unknown) => (isObj(v) ? v.pattern : undefined))];
    for (const src of patterns) {
      if (typeof src !== 'string') continue;
      try {
        new RegExp(src);
      } catch {
        add(`${at}/x-validator`, `${name}的格式（正则表达式）「${src}」无效`);
      }
    }
    const kind = kindOf(p);
    if ((p['x-component'] === 'Select' || p['x-component'] === 'Radio.Group') && !p['x-dict'] && !p.enum && !p['x-options']) add(`${at}/x-dict`, `${name}是${kind === 'radio' || p['x-component'] === 'Radio.Group' ? '单选按钮' : '下拉选择'}，请选择字典`);
    if (typeof p['x-dict'] === 'string' && dicts && !dicts.includes(p['x-dict'])) add(`${at}/x-dict`, `${name}的字典「${p['x-dict']}」不存在`);
    const def = d.dialog?.defaults?.[key];
    if (def !== undefined && (p.type === 'number' || p.type === 'integer') && typeof def !== 'number') add(`/dialog/defaults/${key}`, `${name}的默认值应为数字`);
    if (def !== undefined && p.type === 'integer' && typeof def === 'number' && !Number.isInteger(def)) add(`/dialog/defaults/${key}`, `${name}的默认值应为整数`);
  }
  (d.dialog?.lockedInEdit ?? []).forEach((f, i) => {
    if (!(f in props)) add(`/dialog/lockedInEdit/${i}`, `修改时只读的字段「${f}」不在表单字段中`);
  });
  for (const list of ['toolbar', 'rowActions'] as const) {
    (d[list] ?? []).forEach((a, i) => {
      if (a.label !== undefined && !a.label.trim()) add(`/${list}/${i}/label`, `${LIST_NAME[list]}「${ACTION_NAMES[a.action] ?? a.action}」的文字不能为空`);
    });
  }
  return out;
}
