// What the server derives from the widget declarations (widgets/<kind>/<kind>.widget.json, loaded at start
// into app.ctx.schemas.widgets): the catalogue, a new widget's defaults (the JSON Schema `default`s) and
// the validators of viewProps / datasourceProps (compiled once per declaration, cached).
//
// The declarations are read at each request, never copied at start: the map is the one source.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { BizError } from '../../core/envelope.js';
import type { WidgetDeclarationLike } from '../../../common/widgets.js';

export type WidgetDeclaration = WidgetDeclarationLike;

/** Catalogue, defaults and new widgets' props: one copy for the browser and the server (common/widgets.ts). */
export { allowedIn, catalogueOf, defaultsOf, isFieldKind, maxUseOf, newWidgetProps, type CatalogueEntry, type WidgetPropsShape as WidgetProps } from '../../../common/widgets.js';

/** The declaration of a kind, or undefined (own keys only: '__proto__', 'constructor'… are no kinds). */
export function declarationOf(widgets: Record<string, any>, name: unknown): WidgetDeclaration | undefined {
  return typeof name === 'string' && Object.hasOwn(widgets, name) ? (widgets[name] as WidgetDeclaration) : undefined;
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
