// 选项来自数据集 (ui:field datasetOptions; issue 35 §6): a choice field's options read from a dataset field's values —
// the dataset picked from the list (the host's services.listDatasets), the value field, and optionally a field for
// the shown text and one for the parent value of a cascade (services.datasetFields). Any kind declaring an
// `optionsDataset` object takes it by one uiSchema line; the server puts the values where the typed options were.
import type { FieldProps } from '@rjsf/utils';
import { Alert, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { DatasetField } from '../../../common/dataset';
import type { PanelContext } from '../services';
import { PanelItem } from './PanelItem';

interface Value {
  datasetId?: number | null;
  datasetName?: string;
  valueField?: string;
  labelField?: string;
  parentField?: string;
}

export function DatasetOptionsField({ formData, onChange, fieldPathId, registry, disabled }: FieldProps<Value>) {
  const ctx = registry.formContext as PanelContext | undefined;
  const { listDatasets, datasetFields } = ctx?.services ?? {};
  const value: Value = formData ?? {};
  const [search, setSearch] = useState('');
  const [list, setList] = useState<Array<{ id: number; name: string }>>([]);
  const [fields, setFields] = useState<DatasetField[]>([]);
  const [error, setError] = useState<string | null>(null);
  const set = (p: Partial<Value>) => onChange({ ...value, ...p }, fieldPathId.path);

  useEffect(() => {
    if (!listDatasets) return;
    let alive = true;
    listDatasets(search).then(
      (l) => alive && setList(l),
      () => alive && setList([]),
    );
    return () => {
      alive = false;
    };
  }, [listDatasets, search]);
  useEffect(() => {
    if (!datasetFields || !value.datasetId) return setFields([]);
    let alive = true;
    datasetFields(value.datasetId).then(
      (f) => alive && (setFields(f), setError(null)),
      (e: unknown) => alive && (setFields([]), setError(e instanceof Error ? e.message : String(e))),
    );
    return () => {
      alive = false;
    };
  }, [datasetFields, value.datasetId]);

  const fieldOptions = fields.map((f) => ({ value: f.name, label: `${f.label}（${f.name}）` }));
  const datasetOptions = list.some((d) => d.id === value.datasetId) || !value.datasetId ? list : [...list, { id: value.datasetId, name: value.datasetName ?? String(value.datasetId) }];
  return (
    <>
      <PanelItem label="选项来自数据集">
        <Select
          showSearch
          allowClear
          aria-label="选项来自数据集"
          value={value.datasetId ?? undefined}
          placeholder={listDatasets ? '不使用（用上面的选项或字典）' : '数据集列表尚未接入'}
          disabled={disabled || !listDatasets}
          filterOption={false}
          onSearch={setSearch}
          options={datasetOptions.map((d) => ({ value: d.id, label: d.name }))}
          onChange={(id?: number) => (id ? set({ datasetId: id, datasetName: list.find((d) => d.id === id)?.name ?? String(id), valueField: '', labelField: '', parentField: '' }) : onChange({}, fieldPathId.path))}
        />
      </PanelItem>
      {value.datasetId ? (
        <>
          {error && <Alert type="error" showIcon message={error} />}
          <PanelItem label="值字段">
            <Select aria-label="值字段" value={value.valueField || undefined} placeholder="提交的值" options={fieldOptions} disabled={disabled} onChange={(f: string) => set({ valueField: f })} />
          </PanelItem>
          <PanelItem label="显示字段">
            <Select aria-label="显示字段" allowClear value={value.labelField || undefined} placeholder="同值字段" options={fieldOptions} disabled={disabled} onChange={(f?: string) => set({ labelField: f ?? '' })} />
          </PanelItem>
          <PanelItem label="上级值字段（级联）">
            <Select aria-label="上级值字段" allowClear value={value.parentField || undefined} placeholder="不级联" options={fieldOptions} disabled={disabled} onChange={(f?: string) => set({ parentField: f ?? '' })} />
          </PanelItem>
          <Typography.Text type="secondary">填写时读取该字段的不同取值（按填写人的数据集行权限，最多 1000 个），代替上面的选项与字典</Typography.Text>
        </>
      ) : null}
    </>
  );
}
