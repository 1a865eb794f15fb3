// What the server derives from the widget declarations (schemas/widgets/*.widget.json, loaded at start
// into app.ctx.schemas.widgets): the catalogue, a new widget's defaults (the JSON Schema `default`s) and
// the validators of viewProps / datasourceProps (compiled once per declaration, cached).
//
// The declarations are read at each request, never copied at start: the map is the one source.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { BizError } from '../../core/envelope.js';
import { GENERAL_WIDGET_SIZE } from './kinds.js';
import type { PageKind } from './tables.js';
import type { CatalogueEntry } from '../../../widgets/types.js';

export interface WidgetDeclaration {
  widgetName: string;
  widgetViewName: string;
  widgetFormName?: string;
  catalogue: { folderId: string; folderTitle: string; folderOrder?: number; order?: number; widgetTitle: string; icon: string; maxUse?: number; designers?: PageKind[] };
  versionProps: Record<string, unknown>;
  viewProps: Record<string, any>;
  datasourceProps: Record<string, any>;
}

/** Spec §3 "Widget catalogue entry": the shape the browser's registry builds too. */
export type { CatalogueEntry } from '../../../widgets/types.js';

/** The declaration of a kind, or undefined (own keys only: '__proto__', 'constructor'… are no kinds). */
export function declarationOf(widgets: Record<string, any>, name: unknown): WidgetDeclaration | undefined {
  return typeof name === 'string' && Object.hasOwn(widgets, name) ? (widgets[name] as WidgetDeclaration) : undefined;
}

export const maxUseOf = (d: WidgetDeclaration) => d.catalogue.maxUse ?? 0;

/** Whether a kind may be placed on a page of this kind: `catalogue.designers` names them; absent = both. */
export const allowedIn = (d: WidgetDeclaration, kind: PageKind) => !Array.isArray(d.catalogue.designers) || d.catalogue.designers.includes(kind);

/** A form field kind: its viewProps declare `field`, the key its value is submitted under. */
export const isFieldKind = (d: WidgetDeclaration) => Object.hasOwn(d.viewProps?.properties ?? {}, 'field');

/**
 * The flat catalogue of one designer: folders (M) ordered by folderOrder, each followed by its components
 * (C) ordered by order (ties keep the declarations' file order, as the browser's registry does). Kinds
 * the designer may not use are left out, and so is a folder left empty by that.
 */
export function catalogueOf(widgets: Record<string, any>, kind: PageKind): CatalogueEntry[] {
  const kinds = Object.values(widgets as Record<string, WidgetDeclaration>)
    .filter((d) => allowedIn(d, kind))
    .map((d) => ({ d, folderOrder: d.catalogue.folderOrder ?? 0, order: d.catalogue.order ?? 0 }))
    .sort((a, b) => a.folderOrder - b.folderOrder || a.order - b.order);
  const folders = new Map<string, { folder: CatalogueEntry; order: number; children: CatalogueEntry[] }>();
  for (const { d, folderOrder } of kinds) {
    const c = d.catalogue;
    let f = folders.get(c.folderId);
    if (!f) {
      f = { folder: { id: c.folderId, parentId: '0', widgetType: 'M', widgetTitle: c.folderTitle, maxUse: 0, icon: 'FolderOutlined' }, order: folderOrder, children: [] };
      folders.set(c.folderId, f);
    }
    f.children.push({ id: d.widgetName, parentId: c.folderId, widgetType: 'C', widgetTitle: c.widgetTitle, maxUse: maxUseOf(d), icon: c.icon, widgetName: d.widgetName });
  }
  return [...folders.values()].sort((a, b) => a.order - b.order).flatMap((f) => [f.folder, ...f.children]);
}

/** The value a JSON Schema declares by its `default`s (an object's from its properties'). */
export function defaultsOf(schema: any): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.type === 'object' && schema.properties && typeof schema.properties === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(schema.properties)) {
      const value = defaultsOf(sub);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return undefined;
}

export interface WidgetProps {
  widgetViewName: string;
  widgetFormName: string;
  selectedTab: 'view' | 'datasource';
  viewProps: Record<string, unknown>;
  versionProps: Record<string, unknown>;
  datasourceProps: Record<string, unknown>;
}

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A new widget's props: the kind's declared defaults, the general size where none is declared, the drop point. */
export function newWidgetProps(d: WidgetDeclaration, at: { top?: number; left?: number }): WidgetProps {
  const viewProps = asObject(defaultsOf(d.viewProps));
  viewProps.width ??= GENERAL_WIDGET_SIZE.width;
  viewProps.height ??= GENERAL_WIDGET_SIZE.height;
  viewProps.top ??= 0;
  viewProps.left ??= 0;
  if (at.top !== undefined) viewProps.top = at.top;
  if (at.left !== undefined) viewProps.left = at.left;
  return {
    widgetViewName: d.widgetViewName,
    widgetFormName: d.widgetFormName ?? 'SchemaPanel',
    selectedTab: 'view',
    viewProps,
    versionProps: { upgrade: false, docUrl: '', ...structuredClone(d.versionProps) },
    datasourceProps: asObject(defaultsOf(d.datasourceProps)),
  };
}

/* ------------------------------------------------------------------ validation */

const TYPE_ZH: Record<string, string> = { string: '文本', number: '数字', integer: '整数', boolean: '布尔值', array: '数组', object: '对象', null: '空值' };

/** One Chinese phrase for an ajv error of a widget's props, after its JSON pointer. */
export function describePropError(e: ErrorObject, base: string): string {
  const p = e.params as Record<string, any>;
  const where = base + e.instancePath || '/';
  switch (e.keyword) {
    case 'maximum':
      return `${where} 必须 <= ${p.limit}`;
    case 'exclusiveMaximum':
      return `${where} 必须 < ${p.limit}`;
    case 'minimum':
      return `${where} 必须 >= ${p.limit}`;
    case 'exclusiveMinimum':
      return `${where} 必须 > ${p.limit}`;
    case 'type':
      return `${where} 类型应为${String(p.type).split(',').map((t) => TYPE_ZH[t] ?? t).join('或')}`;
    case 'maxLength':
      return `${where} 长度不能超过 ${p.limit} 个字符`;
    case 'minLength':
      return `${where} 长度不能少于 ${p.limit} 个字符`;
    case 'maxItems':
      return `${where} 最多 ${p.limit} 项`;
    case 'minItems':
      return `${where} 至少 ${p.limit} 项`;
    case 'enum':
      return `${where} 取值必须是 ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')} 之一`;
    case 'const':
      return `${where} 取值必须是 ${JSON.stringify(p.allowedValue)}`;
    case 'required':
      return `${where} 缺少必填属性 ${p.missingProperty}`;
    case 'additionalProperties':
      return `${where} 含有未声明的属性 ${p.additionalProperty}`;
    case 'pattern':
    case 'format':
      return `${where} 格式不正确`;
    default:
      return `${where} 不合法`;
  }
}

/** Compiled viewProps / datasourceProps validators, one pair per declaration object. */
export class PropsValidators {
  private readonly ajv: Ajv;
  private readonly cache = new WeakMap<WidgetDeclaration, { view: ValidateFunction; datasource: ValidateFunction }>();

  constructor() {
    // strict, as the declarations are written; defaults are never filled in (what is saved is what was sent)
    this.ajv = new Ajv({ strict: true, allErrors: false, allowUnionTypes: true, useDefaults: false });
    (addFormats as unknown as (a: Ajv) => void)(this.ajv);
  }

  private of(d: WidgetDeclaration) {
    let v = this.cache.get(d);
    if (!v) {
      try {
        v = { view: this.ajv.compile(d.viewProps), datasource: this.ajv.compile(d.datasourceProps) };
      } catch (err) {
        throw new BizError(`部件【${d.catalogue.widgetTitle}】的属性声明无效：${(err as Error).message}`);
      }
      this.cache.set(d, v);
    }
    return v;
  }

  /** The first fault of a widget's props as "<pointer> <phrase>", or null. `base` is the pointer of widgetProps. */
  check(d: WidgetDeclaration, props: { viewProps?: unknown; datasourceProps?: unknown }, base: string): string | null {
    const v = this.of(d);
    if (!v.view(props.viewProps)) return describePropError(v.view.errors![0], `${base}/viewProps`);
    if (!v.datasource(props.datasourceProps)) return describePropError(v.datasource.errors![0], `${base}/datasourceProps`);
    return null;
  }
}
