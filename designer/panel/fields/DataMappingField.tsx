import { DeleteOutlined, PlusOutlined, WarningFilled } from '@ant-design/icons';
import type { FieldProps } from '@rjsf/utils';
import { AutoComplete, Button, Input, Tag, Tooltip } from 'antd';
import { PanelItem } from './PanelItem';
import { applyMapping, describeProblem, type DataConfig, type DataMappingItem } from '../../../widgets';
import type { PanelContext } from '../services';
import { DatasetSlot } from './DatasetConfig';

/**
 * The data mapping list: each of the widget's props (label) reads one data field.
 * A field that the current data lacks is flagged here just as on the widget.
 * ui:options.addable lets kinds with free columns (scrolling table) add and remove rows.
 */
export function DataMappingField({ formData, onChange, fieldPathId, registry, uiSchema }: FieldProps<DataMappingItem[]>) {
  const ctx = registry.formContext as PanelContext;
  const root = (ctx?.rootData ?? {}) as { dataConfig?: DataConfig; datasourceType?: string };
  const dataset = root.datasourceType === 'DATASET' ? (root.dataConfig?.dataset?.fields ?? []) : null;
  const rows = Array.isArray(root.dataConfig?.data) ? root.dataConfig.data : [];
  const list = formData ?? [];
  const addable = Boolean(uiSchema?.['ui:options']?.addable);
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r ?? {})))];
  // a dataset's slots are checked against its fields (DatasetSlot), not against rows
  const problems = new Map(dataset ? [] : applyMapping(rows, list).problems.map((p) => [p.prop, p]));
  const emit = (next: DataMappingItem[]) => onChange(next, fieldPathId.path);
  const patch = (i: number, p: Partial<DataMappingItem>) => emit(list.map((m, j) => (j === i ? { ...m, ...p } : m)));

  if (dataset) {
    // a dataset's slots: each a block with its whole name and its kind (维度 / 指标 / 明细列) above a full-width
    // field picker, so neither the name nor the field is cut to one character in a narrow panel
    const measures = list.filter((m) => m.slot === 'measure').length;
    return (
      <PanelItem label="数据映射" help={list.some((m) => m.slot === 'measure') ? '维度用于分组（类目），指标按所选方式汇总' : undefined}>
        {list.length === 0 && <div style={{ color: '#8c8c8c' }}>该部件无需数据映射</div>}
        {list.map((m, i) => (
          <div key={m.id} data-testid={`slot-${m.prop}`} style={{ marginBottom: 10 }}>
            <div style={{ display: 'flex', alignItems: 'center', gap: 6, marginBottom: 4 }}>
              {addable ? (
                <Input size="small" aria-label={`显示名 ${i + 1}`} value={m.label} onChange={(e) => patch(i, { label: e.target.value })} style={{ flex: 1 }} maxLength={30} />
              ) : (
                <span style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{m.label}</span>
              )}
              <Tag bordered={false} color={m.slot === 'measure' ? 'blue' : m.slot === 'column' ? 'default' : 'green'} style={{ marginInlineEnd: 0 }}>
                {SLOT_LABELS[m.slot ?? 'dimension']}
              </Tag>
              {addable && <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`删除映射 ${m.label}`} onClick={() => emit(list.filter((_, j) => j !== i))} />}
            </div>
            <DatasetSlot m={m} fields={dataset} patch={(p) => patch(i, p)} optional={m.slot === 'measure' && measures > 1 && i > list.findIndex((x) => x.slot === 'measure')} />
          </div>
        ))}
        {addable && (
          <Button size="small" icon={<PlusOutlined />} onClick={() => emit([...list, newItem(list)])}>
            新增映射
          </Button>
        )}
      </PanelItem>
    );
  }

  return (
    <PanelItem label="数据映射">
      {list.length === 0 && <div style={{ color: '#8c8c8c' }}>该部件无需数据映射</div>}
      {list.map((m, i) => {
        const problem = problems.get(m.prop);
        return (
          <div key={m.id} style={{ display: 'flex', gap: 6, alignItems: 'center', marginBottom: 6 }}>
            {addable ? (
              <Input aria-label={`显示名 ${i + 1}`} value={m.label} onChange={(e) => patch(i, { label: e.target.value })} style={{ flex: 1 }} maxLength={30} />
            ) : (
              <Tooltip title={`属性 ${m.prop}`}>
                <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{m.label}</span>
              </Tooltip>
            )}
            <AutoComplete
              aria-label={`${m.label} 字段`}
              value={m.field}
              options={fields.map((f) => ({ value: f }))}
              onChange={(v) => patch(i, { field: String(v ?? '') })}
              status={problem ? 'warning' : undefined}
              placeholder="字段"
              style={{ flex: 1 }}
            />
            {problem ? (
              <Tooltip title={describeProblem(problem)}>
                <WarningFilled style={{ color: '#faad14' }} aria-label={describeProblem(problem)} />
              </Tooltip>
            ) : (
              <span style={{ width: 14 }} />
            )}
            {addable && <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`删除映射 ${m.label}`} onClick={() => emit(list.filter((_, j) => j !== i))} />}
          </div>
        );
      })}
      {[...problems.values()].map((p) => (
        <div key={p.prop} role="alert" style={{ color: '#d48806', fontSize: 12 }}>
          {describeProblem(p)}
        </div>
      ))}
      {addable && (
        <Button size="small" icon={<PlusOutlined />} onClick={() => emit([...list, newItem(list)])}>
          新增映射
        </Button>
      )}
    </PanelItem>
  );
}

const SLOT_LABELS: Record<NonNullable<DataMappingItem['slot']>, string> = { dimension: '维度', measure: '指标', column: '明细列' };

function newItem(list: DataMappingItem[]): DataMappingItem {
  let n = list.length + 1;
  while (list.some((m) => m.id === String(n) || m.prop === `col${n}`)) n++;
  // a new column reads what the others read (a dataset table's columns are 明细列)
  const slot = list.at(-1)?.slot;
  return { id: String(n), prop: `col${n}`, label: `列${n}`, field: '', ...(slot ? { slot } : {}) };
}
