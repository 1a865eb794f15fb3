// 字段联动 (ui:field formLogic): a form field's logic rules (common/formLogic.ts) as rows — when 〈another
// field〉 〈op〉 〈value〉, 〈effect〉 — with the other fields of the form to pick from (the host's
// services.formFields) and, for a choice field, its options as the values. Any kind declaring a `logic`
// array of rules takes this editor by one uiSchema line; no kind has panel code of its own.
import { DeleteOutlined, PlusOutlined, WarningFilled } from '@ant-design/icons';
import type { FieldProps } from '@rjsf/utils';
import { Button, Input, Select } from 'antd';
import { EFFECT_TITLES, LIST_OPS, LOGIC_EFFECTS, LOGIC_OPS, OP_TITLES, UNARY_OPS, type LogicRule } from '../../../common/formLogic';
import { PanelItem } from './PanelItem';
import type { PageField, PanelContext } from '../services';

type Draft = Partial<LogicRule>;

/** The other fields of the form, as the host lists them (this one left out). */
export function otherFields(ctx: PanelContext | undefined): PageField[] {
  const self = (ctx?.rootData as { field?: unknown } | undefined)?.field;
  return (ctx?.services.formFields?.() ?? []).filter((f) => f.field !== self);
}

/** The values a field takes, when it has a list of them (choices; a switch is 是 / 否). */
export function valuesOfField(f: PageField | undefined): Array<{ label: string; value: string }> | null {
  if (!f) return null;
  if (f.widgetName === 'formSwitch') return [{ label: '是（开）', value: 'true' }, { label: '否（关）', value: 'false' }];
  return f.options ? f.options.map((o) => ({ label: `${o.label}（${o.value}）`, value: String(o.value) })) : null;
}

function ValueInput({ rule, target, onChange, n }: { rule: Draft; target?: PageField; onChange: (p: Draft) => void; n: number }) {
  const op = rule.op ?? 'eq';
  if (UNARY_OPS.has(op)) return null;
  const choices = valuesOfField(target);
  if (LIST_OPS.has(op))
    return (
      <Select
        aria-label={`规则 ${n} 的值列表`}
        mode={choices ? 'multiple' : 'tags'}
        value={rule.values ?? []}
        options={choices ?? []}
        placeholder={choices ? '选择取值' : '输入取值后回车'}
        style={{ width: '100%' }}
        onChange={(values: string[]) => onChange({ values, value: undefined })}
      />
    );
  if (choices)
    return <Select aria-label={`规则 ${n} 的值`} value={rule.value || undefined} options={choices} placeholder="选择取值" style={{ width: '100%' }} onChange={(value: string) => onChange({ value, values: undefined })} />;
  return <Input aria-label={`规则 ${n} 的值`} value={rule.value ?? ''} maxLength={100} placeholder="取值" onChange={(e) => onChange({ value: e.target.value, values: undefined })} />;
}

export function FormLogicField({ formData, onChange, fieldPathId, registry, schema, disabled }: FieldProps<Draft[]>) {
  const ctx = registry.formContext as PanelContext | undefined;
  const fields = otherFields(ctx);
  const byName = new Map(fields.map((f) => [f.field, f]));
  const list = Array.isArray(formData) ? formData : [];
  const emit = (next: Draft[]) => onChange(next as never, fieldPathId.path);
  const patch = (i: number, p: Draft) => emit(list.map((r, j) => (j === i ? clean({ ...r, ...p }) : r)));
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : 20;

  return (
    <PanelItem label={schema.title ?? '字段联动'} tooltip={schema.description}>
      {list.length === 0 && <div style={{ color: '#8c8c8c', marginBottom: 6 }}>{fields.length ? '没有联动规则：本字段总是显示' : '表单上还没有其他字段'}</div>}
      {list.map((r, i) => {
        const n = i + 1;
        const gone = r.field && !byName.has(r.field);
        return (
          <div key={i} data-logic-rule={n} style={{ border: '1px solid #f0f0f0', borderRadius: 4, padding: 6, marginBottom: 6, display: 'grid', gap: 4 }}>
            <div style={{ display: 'flex', gap: 4, alignItems: 'center' }}>
              <span style={{ flex: 'none' }}>当</span>
              <Select
                aria-label={`规则 ${n} 的条件字段`}
                value={r.field || undefined}
                placeholder="选择字段"
                showSearch
                optionFilterProp="label"
                disabled={disabled}
                status={gone ? 'warning' : undefined}
                style={{ flex: 1, minWidth: 0 }}
                options={[...fields.map((f) => ({ value: f.field, label: `${f.label}（${f.field}）` })), ...(gone ? [{ value: r.field!, label: `${r.field}（已不在表单上）` }] : [])]}
                onChange={(field: string) => patch(i, { field, value: undefined, values: undefined })}
              />
              <Select
                aria-label={`规则 ${n} 的条件`}
                value={r.op ?? 'eq'}
                disabled={disabled}
                style={{ width: 86, flex: 'none' }}
                options={LOGIC_OPS.map((op) => ({ value: op, label: OP_TITLES[op] }))}
                onChange={(op: LogicRule['op']) => patch(i, { op })}
              />
            </div>
            <ValueInput rule={r} target={r.field ? byName.get(r.field) : undefined} n={n} onChange={(p) => patch(i, p)} />
            <div style={{ display: 'flex', gap: 4, alignItems: 'center' }}>
              <span style={{ flex: 'none' }}>则</span>
              <Select
                aria-label={`规则 ${n} 的效果`}
                value={r.effect ?? 'show'}
                disabled={disabled}
                style={{ flex: 1 }}
                options={LOGIC_EFFECTS.map((e) => ({ value: e, label: EFFECT_TITLES[e] }))}
                onChange={(effect: LogicRule['effect']) => patch(i, { effect })}
              />
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`删除规则 ${n}`} disabled={disabled} onClick={() => emit(list.filter((_, j) => j !== i))} />
            </div>
            {gone && (
              <div role="alert" style={{ color: '#d48806', fontSize: 12 }}>
                <WarningFilled /> 字段 {r.field} 已不在表单上，此规则按其为空判断
              </div>
            )}
          </div>
        );
      })}
      <Button size="small" icon={<PlusOutlined />} disabled={disabled || list.length >= max || fields.length === 0} onClick={() => emit([...list, { field: '', op: 'eq', value: '', effect: 'show' }])}>
        添加联动规则
      </Button>
    </PanelItem>
  );
}

/** A rule with only the keys its op reads (a unary op has no value, a list op only `values`). */
function clean(r: Draft): Draft {
  const op = r.op ?? 'eq';
  const out: Draft = { field: r.field ?? '', op, effect: r.effect ?? 'show' };
  if (LIST_OPS.has(op)) out.values = r.values ?? [];
  else if (!UNARY_OPS.has(op)) out.value = r.value ?? '';
  return out;
}
