// The 数据 tab's third source (issue 35 §2): a dataset, picked from the list; its fields are kept with the widget
// (the slots' choices and the reach of the screen's field filters). Top N and the sort are the chart's own; the
// slots themselves (which field, which aggregation, which date grouping) are in the data mapping below
// (DatasetSlots). A new dataset keeps every slot whose field name it also has.
import { Alert, InputNumber, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { DataConfig, DatasetConfig as Config, DataMappingItem } from '../../../widgets';
import { AGGREGATIONS, DATE_GROUPS, type Aggregation, type DateGroup, type DatasetField } from '../../../common/dataset';
import { slotKey } from '../../../widgets';
import type { PanelContext } from '../services';
import { PanelItem } from './PanelItem';

type Field = Pick<DatasetField, 'name' | 'label' | 'type' | 'role'>;
const SORTS = [
  { value: '', label: '不排序' },
  { value: 'dim:asc', label: '按维度升序' },
  { value: 'dim:desc', label: '按维度降序' },
  { value: 'measure:desc', label: '按指标降序' },
  { value: 'measure:asc', label: '按指标升序' },
];

export function DatasetConfigPanel({ value, set, ctx, mapping }: { value: DataConfig; set: (p: Partial<DataConfig>) => void; ctx: PanelContext; mapping: DataMappingItem[] }) {
  const { listDatasets, datasetFields } = ctx?.services ?? {};
  const cfg: Config = value.dataset ?? {};
  const [search, setSearch] = useState('');
  const [options, setOptions] = useState<Array<{ id: number; name: string }>>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!listDatasets) return;
    let alive = true;
    setLoading(true);
    listDatasets(search).then(
      (list) => alive && (setOptions(list), setLoading(false)),
      () => alive && (setOptions([]), setLoading(false)),
    );
    return () => {
      alive = false;
    };
  }, [listDatasets, search]);
  const setCfg = (patch: Partial<Config>) => set({ dataset: { ...cfg, ...patch } });

  const choose = async (id: number | undefined) => {
    if (!id) return setCfg({ datasetId: undefined, datasetName: undefined, fields: [] });
    if (!datasetFields) return;
    try {
      const fields = await datasetFields(id);
      setError(null);
      setCfg({ datasetId: id, datasetName: options.find((o) => o.id === id)?.name ?? String(id), fields: fields.map((f) => ({ name: f.name, label: f.label, type: f.type, role: f.role })) });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  // a kind without a measure slot (a dropdown filter): no top N, no sort by a measure
  const hasMeasure = mapping.some((m) => m.slot === 'measure');
  const firstDim = mapping.find((m) => m.slot !== 'measure' && m.datasetField);
  const firstMeasure = mapping.find((m) => m.slot === 'measure' && m.datasetField);
  const sortValue = (() => {
    const s = cfg.sort?.[0];
    if (!s) return '';
    return `${s.agg ? 'measure' : 'dim'}:${s.dir}`;
  })();
  const setSort = (v: string) => {
    if (!v) return setCfg({ sort: [] });
    const [what, dir] = v.split(':') as ['dim' | 'measure', 'asc' | 'desc'];
    const m = what === 'measure' ? firstMeasure : firstDim;
    if (!m?.datasetField) return setCfg({ sort: [] });
    setCfg({ sort: [{ field: m.datasetField, agg: what === 'measure' ? (m.agg ?? 'sum') : null, dir }] });
  };

  return (
    <>
      <PanelItem label="数据集">
        <Select
          showSearch
          allowClear
          aria-label="数据集"
          value={cfg.datasetId}
          placeholder={listDatasets ? '请选择数据集' : '数据集列表尚未接入'}
          disabled={!listDatasets}
          loading={loading}
          filterOption={false}
          onSearch={setSearch}
          onChange={(v) => void choose(v)}
          options={[
            ...options.map((o) => ({ value: o.id, label: o.name })),
            ...(cfg.datasetId && !options.some((o) => o.id === cfg.datasetId) ? [{ value: cfg.datasetId, label: cfg.datasetName ?? String(cfg.datasetId) }] : []),
          ]}
        />
      </PanelItem>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 8 }} />}
      {cfg.datasetId && hasMeasure && (
        <PanelItem label="前 N 项" help="按第一个指标取前 N 组；其余可归为「其他」">
          <Space.Compact style={{ width: '100%' }}>
            <InputNumber aria-label="前 N 项" min={1} max={1000} placeholder="全部" value={cfg.top?.n ?? null} onChange={(n) => setCfg({ top: n ? { n: Number(n), rest: cfg.top?.rest ?? 'other' } : null })} style={{ flex: 1 }} />
            <Select
              aria-label="其余"
              disabled={!cfg.top}
              value={cfg.top?.rest ?? 'other'}
              onChange={(rest) => cfg.top && setCfg({ top: { ...cfg.top, rest } })}
              options={[
                { value: 'other', label: '其余归为其他' },
                { value: 'drop', label: '其余不显示' },
              ]}
              style={{ width: 130 }}
            />
          </Space.Compact>
        </PanelItem>
      )}
      {cfg.datasetId && (
        <PanelItem label="排序">
          <Select aria-label="排序" value={sortValue} onChange={setSort} options={hasMeasure ? SORTS : SORTS.filter((o) => !o.value.startsWith('measure'))} />
        </PanelItem>
      )}
      {!datasetFields && <Typography.Text type="secondary">数据集尚未接入</Typography.Text>}
    </>
  );
}

/** Which aggregations a field takes: sums and averages only of numbers; any field may be counted. */
export const aggregationsFor = (f: Field | undefined): Aggregation[] => (f?.type === 'number' ? ['sum', 'avg', 'max', 'min', 'count', 'countDistinct'] : ['count', 'countDistinct', 'max', 'min']);

/** One slot of the data mapping when the source is a dataset: the field, and its aggregation or date grouping. */
export function DatasetSlot({ m, fields, patch, optional = false }: { m: DataMappingItem; fields: readonly Field[]; patch: (p: Partial<DataMappingItem>) => void; optional?: boolean }) {
  const field = fields.find((f) => f.name === m.datasetField);
  const missing = Boolean(m.datasetField && !field);
  const update = (p: Partial<DataMappingItem>) => {
    const next = { ...m, ...p };
    patch({ ...p, field: slotKey(next) });
  };
  const measure = m.slot === 'measure';
  return (
    <Space.Compact style={{ display: 'flex', width: '100%' }}>
      <Select
        aria-label={`${m.label} 数据集字段`}
        value={m.datasetField || undefined}
        status={missing || (!optional && !m.datasetField) ? 'warning' : undefined}
        placeholder={optional ? '不使用（可选）' : measure ? '请选择指标字段' : '请选择维度字段'}
        allowClear={optional}
        style={{ flex: 1, minWidth: 0 }}
        onChange={(name: string | undefined) => {
          // cleared (an optional series): the slot reads nothing and the chart leaves it out
          if (!name) return patch({ datasetField: undefined, agg: undefined, dateGroup: undefined });
          const f = fields.find((x) => x.name === name);
          const agg = measure ? (aggregationsFor(f).includes(m.agg as Aggregation) ? m.agg : aggregationsFor(f)[0]) : undefined;
          update({ datasetField: name, agg, dateGroup: !measure && f?.type === 'date' ? (m.dateGroup ?? 'month') : undefined });
        }}
        options={[
          ...fields.map((f) => ({ value: f.name, label: `${f.label}${f.role === 'measure' ? '（指标）' : ''}` })),
          ...(missing ? [{ value: m.datasetField!, label: `${m.datasetField}（新数据集中没有）` }] : []),
        ]}
      />
      {measure && m.datasetField && (
        <Select aria-label={`${m.label} 聚合方式`} value={m.agg ?? 'sum'} style={{ width: 104, flex: 'none' }} onChange={(agg: Aggregation) => update({ agg })} options={aggregationsFor(field).map((a) => ({ value: a, label: AGGREGATIONS[a] }))} />
      )}
      {!measure && field?.type === 'date' && m.slot !== 'column' && (
        <Select
          aria-label={`${m.label} 日期分组`}
          value={m.dateGroup ?? ''}
          style={{ width: 84, flex: 'none' }}
          onChange={(g: string) => update({ dateGroup: (g || undefined) as DateGroup | undefined })}
          options={[{ value: '', label: '原值' }, ...(Object.keys(DATE_GROUPS) as DateGroup[]).map((g) => ({ value: g, label: DATE_GROUPS[g] }))]}
        />
      )}
    </Space.Compact>
  );
}
