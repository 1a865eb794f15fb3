import { Checkbox, Form, Input, InputNumber, Select, Typography } from 'antd';

/** A panel declaration of schemas/page-editor/: a flat JSON Schema (titles, types, oneOf choices) and its uiSchema. */
export interface PanelDecl {
  id: string;
  title: string;
  schema: { properties: Record<string, PanelProp> };
  uiSchema?: Record<string, any>;
}
interface PanelProp { type?: string; title: string; description?: string; minimum?: number; maximum?: number; oneOf?: { const: string; title: string }[]; items?: unknown }
export interface Option { value: string; label: string }

/**
 * What the form knows beside the values: where a `source` list comes from (dicts, fields), the item's kind (for a
 * property's onlyFor / notFor), the properties locked here, and read-only.
 */
export interface PanelContext { sources?: Record<string, Option[]>; loading?: string[]; kind?: string; locked?: string[]; omit?: string[]; readOnly?: boolean; testId?: string }

/**
 * One panel of the visual page editor, generated from its declaration: each property a labelled input by its type
 * (text, whole number, number, yes/no, one of the declared choices, a list picked from a source). A property shows
 * when the item's kind allows it (ui:options onlyFor / notFor) and, with `when`, once the property it depends on
 * has a value. Every change goes out at once as { key: value } (undefined clears it).
 */
export function PanelForm({ panel, value, onChange, ctx = {} }: { panel: PanelDecl; value: Record<string, unknown>; onChange(change: Record<string, unknown>): void; ctx?: PanelContext }) {
  const ui = panel.uiSchema ?? {};
  const order: string[] = ui['ui:order'] ?? Object.keys(panel.schema.properties);
  return (
    <Form size="small" layout="horizontal" labelCol={{ flex: '112px' }} labelWrap colon={false} style={{ maxWidth: 560 }} data-testid={ctx.testId ?? `panel-${panel.id}`}>
      {order.map((key) => {
        const prop = panel.schema.properties[key];
        if (!prop || ctx.omit?.includes(key)) return null;
        const opts = ui[key]?.['ui:options'] ?? {};
        if (ctx.kind && opts.onlyFor && !opts.onlyFor.includes(ctx.kind)) return null;
        if (ctx.kind && opts.notFor && opts.notFor.includes(ctx.kind)) return null;
        if (opts.when && (value[opts.when] === undefined || value[opts.when] === '' || value[opts.when] === false)) return null;
        const disabled = ctx.readOnly || (ctx.locked ?? []).includes(key);
        const v = value[key];
        const set = (x: unknown) => onChange({ [key]: x === null || x === '' ? undefined : x });
        const label = <span data-prop={key}>{prop.title}</span>;
        let input: React.ReactNode;
        if (prop.type === 'boolean') {
          return (
            <Form.Item key={key} label={label} tooltip={prop.description} style={{ marginBottom: 8 }}>
              <Checkbox checked={v === true} disabled={disabled} onChange={(e) => set(e.target.checked)} aria-label={prop.title} />
            </Form.Item>
          );
        } else if (prop.oneOf) {
          input = <Select allowClear value={v as string | undefined} disabled={disabled} aria-label={prop.title} placeholder="请选择" options={prop.oneOf.map((o) => ({ value: o.const, label: o.title }))} onChange={(x) => set(x)} />;
        } else if (opts.source) {
          const list = ctx.sources?.[opts.source as string] ?? [];
          const loading = ctx.loading?.includes(opts.source as string);
          input = prop.type === 'array'
            ? <Select mode="multiple" allowClear value={(v as string[] | undefined) ?? []} disabled={disabled} aria-label={prop.title} placeholder="请选择" options={list} loading={loading} onChange={(x: string[]) => set(x.length ? x : undefined)} optionFilterProp="label" />
            : <Select allowClear showSearch value={v as string | undefined} disabled={disabled} aria-label={prop.title} placeholder="请选择" options={list} loading={loading} onChange={(x) => set(x)} optionFilterProp="label" />;
        } else if (prop.type === 'integer' || prop.type === 'number') {
          input = <InputNumber value={v as number | undefined} disabled={disabled} aria-label={prop.title} style={{ width: '100%' }} precision={prop.type === 'integer' ? 0 : undefined} onChange={(x) => set(typeof x === 'number' ? x : undefined)} />;
        } else {
          input = <Input value={(v as string | undefined) ?? ''} disabled={disabled} aria-label={prop.title} allowClear onChange={(e) => set(e.target.value)} />;
        }
        return (
          <Form.Item key={key} label={label} tooltip={prop.description} style={{ marginBottom: 8 }}>
            {input}
          </Form.Item>
        );
      })}
      {ctx.readOnly && <Typography.Text type="secondary">内置页面只读；复制为自定义页面后可编辑</Typography.Text>}
    </Form>
  );
}
